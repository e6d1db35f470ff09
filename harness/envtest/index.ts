/** The envtest-style upstream control plane (etcd, kube-apiserver, kube-controller-manager on loopback). */
export { ASSETS_VARIABLE, AssetsError, binaryNames, controlPlaneBinaries, resolveAssets } from './assets.ts';
export type { Assets, BinaryName } from './assets.ts';
export { ControlPlaneStartError, startControlPlane } from './control-plane.ts';
export type { ControlPlane, ControlPlaneOptions } from './control-plane.ts';
export { CredentialsError } from './credentials.ts';
export { getStatus } from './readiness.ts';
