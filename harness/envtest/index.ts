/** The envtest-style upstream control plane (etcd, kube-apiserver, kube-controller-manager on loopback). */
export { ASSETS_VARIABLE, AssetsError, binaryNames, controlPlaneBinaries, resolveAssets } from './assets.ts';
export type { Assets, BinaryName } from './assets.ts';
export { startControlPlane, topologies } from './control-plane.ts';
export { ControlPlaneStartError } from './component-launcher.ts';
export type { ControlPlane, ControlPlaneOptions, Topology } from './control-plane.ts';
export { startBalancer } from './balancer.ts';
export type { Backend, Balancer, BalancerOptions } from './balancer.ts';
export { CredentialsError } from './credentials.ts';
export { getStatus, probeServing } from './readiness.ts';
