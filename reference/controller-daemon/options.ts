/**
 * Every option of the controller daemon, row by row from node:2.6 (all tables), node:5 (daemon server,
 * certificate signing) and node:8 (concurrency, periods and thresholds). Names and defaults that carry
 * the product name differ per naming profile (docs/architecture.md "Naming profiles").
 *
 *   optionByFlag('kube-api-qps', 'k8s')?.name -> 'svc-api-qps'
 */
import type { ProfileName } from '../profile.ts';
import type { OptionSpec, OptionType } from './types.ts';
import { tableClauseId } from '../catalog/clause-id.ts';

type Row = readonly [name: string, type: OptionType, def: string | undefined, meaning: string, extra?: Partial<OptionSpec>];

const perProfile = (svc: string, k8s: string) => ({ svc, k8s }) as const;

function table(section: OptionSpec['section'], tableName: string, rows: readonly Row[], typeFromSpec = true): OptionSpec[] {
  return rows.map(([name, type, def, meaning, extra]) => ({
    name,
    type,
    typeFromSpec,
    default: def,
    section,
    table: tableName,
    meaning,
    clause: tableClauseId(`node:${section}/${name}`),
    ...extra,
  }));
}

const serving = table('2.6', 'serving, TLS and identity', [
  ['bind-address', 'string', '0.0.0.0', 'Listen IP for the secure port; blank or unspecified address means all interfaces.'],
  ['secure-port', 'int', '10257', 'HTTPS port; 0 disables HTTPS.'],
  ['cert-dir', 'string', undefined, 'Directory of TLS certs; ignored when both cert and key files are given.'],
  ['tls-cert-file', 'string', undefined, 'Default certificate; with no cert and key a self-signed pair is generated in --cert-dir.'],
  ['tls-private-key-file', 'string', undefined, 'Default key; with no cert and key a self-signed pair is generated in --cert-dir.'],
  [
    'tls-sni-cert-key',
    'namedCertKey',
    undefined,
    'Pair cert,key optionally followed by :domain,... patterns; exact matches beat wildcards.',
    { repeatable: true },
  ],
  [
    'tls-cipher-suites',
    'strings',
    undefined,
    'Cipher suites from the preferred values; insecure values are accepted with a warning.',
    { defaultNote: 'Go defaults' },
  ],
  ['tls-min-version', 'string', undefined, 'VersionTLS10, VersionTLS11, VersionTLS12 or VersionTLS13.'],
  ['http2-max-streams-per-connection', 'int', '0', 'Streams per HTTP/2 connection (0: the language default).'],
  ['permit-address-sharing', 'bool', 'false', 'Bind with address reuse.'],
  ['permit-port-sharing', 'bool', 'false', 'Bind with port reuse.'],
  ['svcconfig', 'string', undefined, 'Credentials and server location file.', { names: perProfile('svcconfig', 'kubeconfig') }],
  ['master', 'string', undefined, 'API server address; overrides the credentials file.'],
  ['svc-api-qps', 'float', '20', 'QPS toward the API server.', { names: perProfile('svc-api-qps', 'kube-api-qps') }],
  ['svc-api-burst', 'int32', '30', 'Burst toward the API server.', { names: perProfile('svc-api-burst', 'kube-api-burst') }],
  [
    'svc-api-content-type',
    'string',
    undefined,
    'Request content type.',
    {
      names: perProfile('svc-api-content-type', 'kube-api-content-type'),
      default: perProfile('application/vnd.svc.protobuf', 'application/vnd.kubernetes.protobuf'),
    },
  ],
]);

const leaderElection = table('2.6', 'leader election', [
  ['leader-elect', 'bool', 'true', 'Gain leadership before running the main loop.'],
  ['leader-elect-lease-duration', 'duration', '15s', 'Wait of non-leaders before taking over an unrenewed slot.'],
  ['leader-elect-renew-deadline', 'duration', '10s', 'Renewal attempt window; at most the lease duration.'],
  ['leader-elect-retry-period', 'duration', '2s', 'Wait between acquisition or renewal attempts.'],
  ['leader-elect-resource-lock', 'string', 'leases', 'One of leases, endpointsleases, configmapsleases.'],
  [
    'leader-elect-resource-name',
    'string',
    undefined,
    'Lock object name.',
    { default: perProfile('svc-controller-manager', 'kube-controller-manager') },
  ],
  ['leader-elect-resource-namespace', 'string', undefined, 'Lock object namespace.', { default: perProfile('svc-system', 'kube-system') }],
  ['enable-leader-migration', 'bool', 'false', 'Controller leader migration.'],
  ['leader-migration-config', 'string', undefined, 'LeaderMigrationConfiguration file (controllermanager.config group, v1alpha1).'],
]);

const controllers = table('2.6', 'controllers', [
  ['controllers', 'strings', '*', '* enables the on-by-default controllers, name enables one, -name disables one.'],
  ['controller-start-interval', 'duration', undefined, 'Interval between starting controller managers.'],
  ['use-service-account-credentials', 'bool', undefined, 'Individual service account credentials per controller.'],
  ['enable-garbage-collector', 'bool', 'true', 'Must match the corresponding API server option.'],
  ['enable-taint-manager', 'bool', 'true', 'Beta; enables NoExecute taints and evicts non-tolerating pods.'],
  ['enable-dynamic-provisioning', 'bool', 'true', 'Dynamic volume provisioning.'],
  ['enable-hostpath-provisioner', 'bool', 'false', 'Test-only host path provisioning without a cloud provider.'],
  ['allocate-node-cidrs', 'bool', undefined, 'Allocate pod CIDRs and set them on the cloud provider.'],
  ['configure-cloud-routes', 'bool', 'true', 'Configure allocated CIDRs on the cloud provider.'],
  ['cidr-allocator-type', 'string', 'RangeAllocator', 'CIDR allocator type.'],
  ['cluster-cidr', 'string', undefined, 'Pod CIDR range; needs --allocate-node-cidrs true.'],
  ['service-cluster-ip-range', 'string', undefined, 'Service CIDR range; needs --allocate-node-cidrs true.'],
  ['node-cidr-mask-size', 'int32', undefined, 'Node CIDR mask.', { defaultNote: '24 (IPv4), 64 (IPv6)' }],
  ['node-cidr-mask-size-ipv4', 'int32', '24', 'Dual-stack IPv4 node CIDR mask.'],
  ['node-cidr-mask-size-ipv6', 'int32', '64', 'Dual-stack IPv6 node CIDR mask.'],
  ['cluster-name', 'string', undefined, 'Instance prefix of the cluster.', { default: perProfile('svc', 'kubernetes') }],
  ['cloud-provider', 'string', '', 'Cloud provider.'],
  ['cloud-config', 'string', '', 'Cloud provider configuration file path.'],
  ['external-cloud-volume-plugin', 'string', undefined, 'Only with an external cloud provider.'],
  [
    'vendor-container-registry-config',
    'string',
    undefined,
    'Path to a registry configuration file of one cloud vendor (--<vendor>-container-registry-config).',
    { pattern: /^[a-z0-9]+-container-registry-config$/ },
  ],
  [
    'flex-volume-plugin-dir',
    'string',
    undefined,
    'Third-party volume plugin directory.',
    {
      default: perProfile('/usr/libexec/svc/nodeagent-plugins/volume/exec/', '/usr/libexec/kubernetes/kubelet-plugins/volume/exec/'),
    },
  ],
  ['volume-host-allow-local-loopback', 'bool', 'true', 'If false, local loopback IPs are denied in addition to listed CIDRs.'],
  ['volume-host-cidr-denylist', 'strings', undefined, 'CIDR ranges volume plugins must avoid.'],
  ['root-ca-file', 'string', undefined, 'Root CA included in service account token secrets; PEM bundle.'],
  ['service-account-private-key-file', 'string', undefined, 'PEM RSA or ECDSA key to sign service account tokens.'],
  ['disable-attach-detach-reconcile-sync', 'bool', undefined, 'Disable reconciler sync.'],
  ['pv-recycler-pod-template-filepath-nfs', 'string', undefined, 'Pod template for NFS recycling.'],
  ['pv-recycler-pod-template-filepath-hostpath', 'string', undefined, 'Pod template for host path recycling (development only).'],
  [
    'large-cluster-size-threshold',
    'int32',
    '50',
    'Node count above which the cluster is large for eviction; secondary eviction rate 0 at or below.',
  ],
  ['unhealthy-zone-threshold', 'float', '0.55', 'Fraction of not-ready nodes (minimum 3) making a zone unhealthy.'],
  ['contention-profiling', 'bool', undefined, 'Lock contention profiling if profiling is enabled.'],
  ['profiling', 'bool', 'true', 'Profiling under /debug/pprof/.'],
]);

const logging = table('2.6', 'logging and metrics', [
  ['log-flush-frequency', 'duration', '5s', 'Maximum between log flushes.'],
  ['logging-format', 'string', 'text', 'Only text is permitted; other formats are alpha.'],
  ['v', 'int', undefined, 'Verbosity level.', { shorthand: 'v' }],
  ['vmodule', 'vmodule', undefined, 'Per-file logging, pattern=N,... (text format only).'],
  ['allow-metric-labels', 'stringToString', '[]', 'Allow-list per <MetricName>,<LabelName> with allowed values.'],
  ['disabled-metrics', 'strings', undefined, 'Fully qualified metric names to disable; precedence over showing hidden metrics.'],
  ['show-hidden-metrics-for-version', 'string', undefined, '<major>.<minor> of the previous minor version.'],
  ['version', 'version', undefined, 'Print version and exit.'],
  ['help', 'help', undefined, 'Help.', { shorthand: 'h' }],
]);

const gates = table('2.6', 'feature gates', [['feature-gates', 'gates', undefined, 'Comma-separated key=True|False over the gate lists.']]);

const daemonServer = table('5', 'controller daemon server', [
  ['client-ca-file', 'string', undefined, 'Client certificates signed by this bundle authenticate with their CommonName.'],
  [
    'authentication-kubeconfig',
    'string',
    undefined,
    'Credentials to create token reviews; empty: token requests are anonymous, no cluster CA lookup.',
  ],
  ['authentication-skip-lookup', 'bool', undefined, 'If false, the credentials file is used to look up missing authentication config.'],
  ['authentication-tolerate-lookup-failure', 'bool', undefined, 'If true, lookup failures are not fatal.'],
  ['authentication-token-webhook-cache-ttl', 'duration', '10s', 'Cache of token webhook responses.'],
  ['authorization-kubeconfig', 'string', undefined, 'Credentials to create access reviews; empty: all requests not skipped are forbidden.'],
  ['authorization-always-allow-paths', 'strings', '/healthz,/readyz,/livez', 'Paths authorized without contacting the API server.'],
  ['authorization-webhook-cache-authorized-ttl', 'duration', '10s', "Cache of 'authorized' answers."],
  ['authorization-webhook-cache-unauthorized-ttl', 'duration', '10s', "Cache of 'unauthorized' answers."],
  [
    'requestheader-client-ca-file',
    'string',
    undefined,
    'CA bundle verifying client certificates before trusting request-header user names.',
  ],
  ['requestheader-allowed-names', 'strings', '', 'Allowed certificate common names (empty: any certificate validated by the CA).'],
  ['requestheader-username-headers', 'strings', 'x-remote-user', 'Headers carrying usernames.'],
  ['requestheader-group-headers', 'strings', 'x-remote-group', 'Headers carrying groups.'],
  ['requestheader-extra-headers-prefix', 'strings', 'x-remote-extra-', 'Prefixes of extra-info headers.'],
]);

/** The general pair, then the specific pairs it excludes (node:5 certificate signing). */
export const generalSigningOptions = ['cluster-signing-cert-file', 'cluster-signing-key-file'] as const;
export const specificSigningOptions = ['kube-apiserver-client', 'kubelet-client', 'kubelet-serving', 'legacy-unknown'].flatMap((s) => [
  `cluster-signing-${s}-cert-file`,
  `cluster-signing-${s}-key-file`,
]);

const signing = table('5', 'certificate signing', [
  [
    'cluster-signing-cert-file',
    'string',
    undefined,
    'PEM certificate of the signer for all cluster-scoped certificates; excludes the specific pairs.',
  ],
  [
    'cluster-signing-key-file',
    'string',
    undefined,
    'PEM key of the signer for all cluster-scoped certificates; excludes the specific pairs.',
  ],
  ...specificSigningOptions.map(
    (n): Row => [n, 'string', undefined, `PEM ${n.endsWith('cert-file') ? 'certificate' : 'key'} of one specific signer.`],
  ),
  ['cluster-signing-duration', 'duration', '8760h0m0s', 'Maximum lifetime of signed certificates; a request may ask for less.'],
]);

const concurrency = table(
  '8',
  'controller daemon concurrency',
  [
    ['concurrent-deployment-syncs', 'int32', '5', 'Deployment workers.'],
    ['concurrent-endpoint-syncs', 'int32', '5', 'Endpoint workers.'],
    ['concurrent-ephemeralvolume-syncs', 'int32', '5', 'Ephemeral volume workers.'],
    ['concurrent-gc-syncs', 'int32', '20', 'Garbage collector workers.'],
    ['concurrent-namespace-syncs', 'int32', '10', 'Namespace workers.'],
    ['concurrent-rc-syncs', 'int32', '5', 'Replication controller workers.'],
    ['concurrent-replicaset-syncs', 'int32', '5', 'Replica set workers.'],
    ['concurrent-resource-quota-syncs', 'int32', '5', 'Resource quota workers.'],
    ['concurrent-service-endpoint-syncs', 'int32', '5', 'Endpoint slice workers.'],
    ['concurrent-service-syncs', 'int32', '1', 'Service workers.'],
    ['concurrent-serviceaccount-token-syncs', 'int32', '5', 'Service account token workers.'],
    ['concurrent-statefulset-syncs', 'int32', '5', 'Stateful set workers.'],
    ['concurrent-ttl-after-finished-syncs', 'int32', '5', 'TTL-after-finished workers.'],
    ['mirroring-concurrent-service-endpoint-syncs', 'int32', '5', 'Endpoint slice mirroring workers.'],
  ],
  false,
);

const periods = table(
  '8',
  'controller daemon periods and thresholds',
  [
    ['attach-detach-reconcile-sync-period', 'duration', '1m0s', 'Must exceed one second.'],
    ['endpoint-updates-batch-period', 'duration', undefined, 'Batching delay for endpoint updates.'],
    ['endpointslice-updates-batch-period', 'duration', undefined, 'Batching delay for slice updates.'],
    ['mirroring-endpointslice-updates-batch-period', 'duration', undefined, 'Batching for the mirroring controller.'],
    ['max-endpoints-per-slice', 'int32', '100', 'Endpoints per slice.'],
    ['mirroring-max-endpoints-per-subset', 'int32', '1000', 'Endpoints per slice in the mirroring controller.'],
    ['horizontal-pod-autoscaler-cpu-initialization-period', 'duration', '5m0s', 'CPU samples may be skipped after pod start.'],
    ['horizontal-pod-autoscaler-downscale-stabilization', 'duration', '5m0s', 'Look-back window for scale-down recommendations.'],
    ['horizontal-pod-autoscaler-initial-readiness-delay', 'duration', '30s', 'Readiness changes count as initial.'],
    ['horizontal-pod-autoscaler-sync-period', 'duration', '15s', 'Pod count sync period.'],
    ['horizontal-pod-autoscaler-tolerance', 'float', '0.1', 'Minimum change of the desired-to-actual ratio from 1.0 before scaling.'],
    ['min-resync-period', 'duration', '12h0m0s', 'Reflector resync is random between this and twice this.'],
    ['namespace-sync-period', 'duration', '5m0s', 'Namespace life-cycle sync.'],
    ['node-eviction-rate', 'float', '0.1', 'Nodes per second drained in a healthy zone.'],
    [
      'secondary-node-eviction-rate',
      'float',
      '0.01',
      'Nodes per second in an unhealthy zone; implicitly 0 at or below the large-cluster threshold.',
    ],
    [
      'node-monitor-grace-period',
      'duration',
      '40s',
      "Time a running node may be unresponsive; a multiple of the agent's status update frequency.",
    ],
    ['node-monitor-period', 'duration', '5s', 'Node status sync period.'],
    ['node-startup-grace-period', 'duration', '1m0s', 'Time a starting node may be unresponsive.'],
    ['pod-eviction-timeout', 'duration', '5m0s', 'Grace period for deleting pods on failed nodes.'],
    ['pv-recycler-increment-timeout-nfs', 'int32', '30', 'Seconds per Gi added to the deadline for an NFS scrubber pod.'],
    ['pv-recycler-minimum-timeout-hostpath', 'int32', '60', 'Minimum deadline seconds, host path recycler (development only).'],
    ['pv-recycler-minimum-timeout-nfs', 'int32', '300', 'Minimum deadline seconds, NFS recycler.'],
    ['pv-recycler-timeout-increment-hostpath', 'int32', '30', 'Seconds per Gi, host path scrubber (development only).'],
    ['pvclaimbinder-sync-period', 'duration', '15s', 'Volume and claim sync.'],
    ['resource-quota-sync-period', 'duration', '5m0s', 'Quota usage sync.'],
    ['route-reconciliation-period', 'duration', '10s', 'Route reconciliation with the cloud provider.'],
    ['terminated-pod-gc-threshold', 'int32', '12500', 'Terminated pods allowed before collection; 0 or less disables it.'],
  ],
  false,
);

export const options: readonly OptionSpec[] = [
  ...serving,
  ...leaderElection,
  ...controllers,
  ...logging,
  ...gates,
  ...daemonServer,
  ...signing,
  ...concurrency,
  ...periods,
];

/** The flag name of an option under a profile (`svc-api-qps` -> `kube-api-qps` under k8s). */
export function flagName(o: OptionSpec, profile: ProfileName): string {
  return o.names?.[profile] ?? o.name;
}

/** The default as written in the spec, under a profile; undefined when the spec gives none. */
export function defaultText(o: OptionSpec, profile: ProfileName): string | undefined {
  const d = o.default;
  return d === undefined ? undefined : typeof d === 'string' ? d : d[profile];
}

const byFlag: Readonly<Record<ProfileName, ReadonlyMap<string, OptionSpec>>> = {
  svc: new Map(options.filter((o) => !o.pattern).map((o) => [flagName(o, 'svc'), o])),
  k8s: new Map(options.filter((o) => !o.pattern).map((o) => [flagName(o, 'k8s'), o])),
};
const patterned = options.filter((o) => o.pattern);

/** The option a long flag name (without dashes) designates under a profile; pattern rows last. */
export function optionByFlag(flag: string, profile: ProfileName): OptionSpec | undefined {
  return byFlag[profile].get(flag) ?? patterned.find((o) => o.pattern!.test(flag));
}

export function optionByShorthand(ch: string): OptionSpec | undefined {
  return options.find((o) => o.shorthand === ch);
}

export function optionByName(name: string): OptionSpec | undefined {
  return options.find((o) => o.name === name);
}
