/**
 * Naming profiles (docs/architecture.md "Naming profiles"): the one table that maps the spec's `svc` spelling to the
 * upstream `k8s` spelling. Nothing else in the code base hard-codes a product-specific identifier; the
 * profile changes names, never semantics.
 */
export type ProfileName = 'svc' | 'k8s';

export interface Profile {
  readonly name: ProfileName;
  /** Suffix of named API groups: `coordination.svc.io` / `coordination.k8s.io`. */
  readonly groupSuffix: string;
  readonly metaGroup: string;
  readonly deprecatedAnnotation: string;
  readonly protobufMediaType: string;
  readonly listTypeExtension: string;
  readonly listMapKeysExtension: string;
  readonly mapTypeExtension: string;
  /** rest:4.7.8: the patchMergeStrategy / patchMergeKey markers as schema extensions, and rest:4.7.9 unknown-field subtrees. */
  readonly patchStrategyExtension: string;
  readonly patchMergeKeyExtension: string;
  readonly preserveUnknownFieldsExtension: string;
  readonly nodeagentGroup: string;
  readonly nodeagentConfigurationKind: string;
  /** Group of the credential provider exec request a CredentialProvider's `apiVersion` names (2.1). */
  readonly credentialProviderGroup: string;
  /** The agent's name inside identifiers: gates `Rotate<Agent>ServerCertificate`, `Disable<Agent>CloudCredentialProviders`, `<Agent>InUserNamespace` (2.2, 2.6). */
  readonly agentGateStem: string;
  /** Default third-party volume plugin directory (2.2 `volumePluginDir`, 2.6 `--flex-volume-plugin-dir`). */
  readonly volumePluginDir: string;
  /** Configuration directory in sample paths (certificates, static pods): not a spec identifier, spelled as each product does. */
  readonly configDir: string;
  readonly controllerManagerName: string;
  readonly systemNamespace: string;
  readonly nodeLeaseNamespace: string;
  /** The namespace readable by everyone (upstream `kube-public`); with `default` and the two above, the system namespaces. */
  readonly publicNamespace: string;
  readonly clusterName: string;
  /** Label key the suite puts on everything it creates (docs/architecture.md "Safety"). */
  readonly runLabel: string;
}

const svc: Profile = {
  name: 'svc',
  groupSuffix: 'svc.io',
  metaGroup: 'meta.svc.io',
  deprecatedAnnotation: 'svc.io/deprecated',
  protobufMediaType: 'application/vnd.svc.protobuf',
  listTypeExtension: 'x-svc-list-type',
  listMapKeysExtension: 'x-svc-list-map-keys',
  mapTypeExtension: 'x-svc-map-type',
  patchStrategyExtension: 'x-svc-patch-strategy',
  patchMergeKeyExtension: 'x-svc-patch-merge-key',
  preserveUnknownFieldsExtension: 'x-svc-preserve-unknown-fields',
  nodeagentGroup: 'nodeagent.config.svc.io',
  nodeagentConfigurationKind: 'NodeagentConfiguration',
  credentialProviderGroup: 'credentialprovider.svc.io',
  agentGateStem: 'Nodeagent',
  volumePluginDir: '/usr/libexec/svc/nodeagent-plugins/volume/exec/',
  configDir: '/etc/svc',
  controllerManagerName: 'svc-controller-manager',
  systemNamespace: 'svc-system',
  nodeLeaseNamespace: 'svc-node-lease',
  publicNamespace: 'svc-public',
  clusterName: 'svc',
  runLabel: 'svc-conformance/run',
};

const k8s: Profile = {
  name: 'k8s',
  groupSuffix: 'k8s.io',
  metaGroup: 'meta.k8s.io',
  deprecatedAnnotation: 'k8s.io/deprecated',
  protobufMediaType: 'application/vnd.kubernetes.protobuf',
  listTypeExtension: 'x-kubernetes-list-type',
  listMapKeysExtension: 'x-kubernetes-list-map-keys',
  mapTypeExtension: 'x-kubernetes-map-type',
  patchStrategyExtension: 'x-kubernetes-patch-strategy',
  patchMergeKeyExtension: 'x-kubernetes-patch-merge-key',
  preserveUnknownFieldsExtension: 'x-kubernetes-preserve-unknown-fields',
  nodeagentGroup: 'kubelet.config.k8s.io',
  nodeagentConfigurationKind: 'KubeletConfiguration',
  credentialProviderGroup: 'credentialprovider.kubelet.k8s.io',
  agentGateStem: 'Kubelet',
  volumePluginDir: '/usr/libexec/kubernetes/kubelet-plugins/volume/exec/',
  configDir: '/etc/kubernetes',
  controllerManagerName: 'kube-controller-manager',
  systemNamespace: 'kube-system',
  nodeLeaseNamespace: 'kube-node-lease',
  publicNamespace: 'kube-public',
  clusterName: 'kubernetes',
  // The label key is the suite's own, identical in both profiles so a run is recognisable anywhere.
  runLabel: 'svc-conformance/run',
};

export const profiles: Readonly<Record<ProfileName, Profile>> = { svc, k8s };

export function profileByName(name: string): Profile | undefined {
  return name === 'svc' || name === 'k8s' ? profiles[name] : undefined;
}

/** The namespaces a control plane has from its start (upstream: `default`, `kube-system`, `kube-public`, `kube-node-lease`). */
export function systemNamespaces(profile: Profile): readonly string[] {
  return ['default', profile.systemNamespace, profile.publicNamespace, profile.nodeLeaseNamespace];
}

/** `coordination` -> `coordination.svc.io` under the svc profile. */
export function namedGroup(profile: Profile, stem: string): string {
  return `${stem}.${profile.groupSuffix}`;
}

/**
 * The profile a target's discovery calls for, when it is not the one chosen: a server that serves named
 * groups of the other profile's suffix and none of the chosen one's was pointed at with the wrong names,
 * and every check of a named group would fail for it. `undefined` when the choice fits or discovery
 * cannot tell (only the core group, or groups of neither suffix).
 * Example: groups [apps, coordination.k8s.io] under `svc` -> `k8s`.
 */
export function profileMismatch(servedGroups: readonly string[], chosen: Profile): ProfileName | undefined {
  const serves = (p: Profile): boolean => servedGroups.some((g) => g.endsWith(`.${p.groupSuffix}`));
  if (serves(chosen)) return undefined;
  const other = Object.values(profiles).find((p) => p.name !== chosen.name && serves(p));
  return other?.name;
}
