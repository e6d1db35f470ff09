// The node-agent configuration model (spec 2.2-2.5, 5, 8): each range has an accepting and a
// rejecting case at its edge, each cross-field rule a breaking and a keeping one, the gaps of 2.5 stay
// unspecified, and the catalog covers every row of 2.2.
import { describe, expect, it } from 'vitest';
import { profiles } from '../../../../reference/profile.ts';
import { defaults, effective, validateNodeagentConfig, type ValidationResult } from '../../../../reference/nodeagent/config.ts';
import { configFields, nameIn } from '../../../../reference/nodeagent/config-fields.ts';
import { crossRules } from '../../../../reference/nodeagent/config-rules.ts';
import { clauseForPath, compareEffective } from '../../../../reference/nodeagent/config-oracle.ts';
import { gateEnabled } from '../../../../reference/nodeagent/feature-gates.ts';
import { catalog, clauseById } from '../../../../reference/catalog/index.ts';

const svc = profiles.svc;
const k8s = profiles.k8s;
const base = { apiVersion: 'nodeagent.config.svc.io/v1beta1', kind: 'NodeagentConfiguration', reservedSystemCPUs: '' };
const check = (extra: Record<string, unknown>, p = svc): ValidationResult =>
  validateNodeagentConfig(
    {
      ...(p === svc ? base : { apiVersion: 'kubelet.config.k8s.io/v1beta1', kind: 'KubeletConfiguration', reservedSystemCPUs: '' }),
      ...extra,
    },
    p,
  );
const accepted = (r: ValidationResult) => r.errors.length === 0 && r.unspecified.length === 0;
const clausesOf = (r: ValidationResult) => r.errors.map((e) => e.clause);

/** Every field row of spec 2.2, by hand from the spec (svc spelling). */
const SPEC_2_2 =
  `enableServer staticPodPath syncFrequency fileCheckFrequency httpCheckFrequency staticPodURL staticPodURLHeader address port
readOnlyPort tlsCertFile tlsPrivateKeyFile tlsCipherSuites tlsMinVersion rotateCertificates serverTLSBootstrap authentication authorization
registryPullQPS registryBurst eventRecordQPS eventBurst enableDebuggingHandlers enableContentionProfiling healthzPort healthzBindAddress
oomScoreAdj clusterDomain clusterDNS streamingConnectionIdleTimeout nodeStatusUpdateFrequency nodeStatusReportFrequency nodeLeaseDurationSeconds
imageMinimumGCAge imageGCHighThresholdPercent imageGCLowThresholdPercent volumeStatsAggPeriod nodeagentCgroups systemCgroups cgroupRoot cgroupsPerQOS
cgroupDriver cpuManagerPolicy cpuManagerPolicyOptions cpuManagerReconcilePeriod memoryManagerPolicy topologyManagerPolicy topologyManagerScope
qosReserved runtimeRequestTimeout hairpinMode maxPods podCIDR podPidsLimit resolvConf runOnce cpuCFSQuota cpuCFSQuotaPeriod nodeStatusMaxImages
maxOpenFiles contentType svcAPIQPS svcAPIBurst serializeImagePulls evictionHard evictionSoft evictionSoftGracePeriod evictionPressureTransitionPeriod
evictionMaxPodGracePeriod evictionMinimumReclaim podsPerCore enableControllerAttachDetach protectKernelDefaults makeIPTablesUtilChains
iptablesMasqueradeBit iptablesDropBit featureGates failSwapOn memorySwap containerLogMaxSize containerLogMaxFiles
configMapAndSecretChangeDetectionStrategy systemReserved svcReserved reservedSystemCPUs showHiddenMetricsForVersion systemReservedCgroup
svcReservedCgroup enforceNodeAllocatable allowedUnsafeSysctls volumePluginDir providerID kernelMemcgNotification logging enableSystemLogHandler
shutdownGracePeriod shutdownGracePeriodCriticalPods shutdownGracePeriodByPodPriority reservedMemory enableProfilingHandler enableDebugFlagsHandler
seccompDefault memoryThrottlingFactor registerWithTaints registerNode`.split(/\s+/);

describe('field table and catalog', () => {
  it('has exactly the rows of spec 2.2, in order, each with its catalogued clause', () => {
    expect(configFields.map((f) => f.name)).toEqual(SPEC_2_2);
    for (const f of configFields) {
      expect(f.clause).toBe(`node:2.2/${f.name}`);
      for (const c of [f.clause, ...(f.also ?? [])]) expect(clauseById(c), c).toBeDefined();
    }
  });

  it('catalogues every nested row of 2.3 and 2.4 and every gap of 2.5', () => {
    const ids = catalog.map((c) => c.id);
    for (const id of [
      'node:2.3/NodeagentAuthentication.x509',
      'node:2.3/NodeagentAuthentication.webhook',
      'node:2.3/NodeagentAuthentication.anonymous',
      'node:2.3/NodeagentAuthorization.mode',
      'node:2.3/NodeagentAuthorization.webhook',
      'node:2.3/MemoryReservation.numaNode',
      'node:2.3/MemoryReservation.limits',
      'node:2.3/ShutdownGracePeriodByPodPriority.priority',
      'node:2.3/ShutdownGracePeriodByPodPriority.shutdownGracePeriodSeconds',
      'node:2.3/SerializedNodeConfigSource.source',
      'node:2.4/LoggingConfiguration.format',
      'node:2.4/LoggingConfiguration.flushFrequency',
      'node:2.4/LoggingConfiguration.verbosity',
      'node:2.4/LoggingConfiguration.vmodule',
      'node:2.4/LoggingConfiguration.options',
      'node:2.4/FormatOptions.json',
      'node:2.4/JSONOptions.splitStream',
      'node:2.4/JSONOptions.infoBufferSize',
    ])
      expect(ids).toContain(id);
    expect(catalog.filter((c) => c.doc === 'node' && c.section === '2.5').every((c) => c.kind === 'unspecified')).toBe(true);
    expect(catalog.filter((c) => c.doc === 'node' && c.section === '2.5')).toHaveLength(13);
  });

  it('uses the k8s spellings under the k8s profile', () => {
    const renamed = configFields.filter((f) => f.k8s).map((f) => [f.name, nameIn(f, k8s)]);
    expect(renamed).toEqual([
      ['nodeagentCgroups', 'kubeletCgroups'],
      ['svcAPIQPS', 'kubeAPIQPS'],
      ['svcAPIBurst', 'kubeAPIBurst'],
      ['svcReserved', 'kubeReserved'],
      ['svcReservedCgroup', 'kubeReservedCgroup'],
    ]);
    expect(accepted(check({ kubeAPIBurst: 3, kubeletCgroups: '/k.slice' }, k8s))).toBe(true);
    expect(clausesOf(check({ kubeAPIBurst: -1 }, k8s))).toEqual(['node:2.2/svcAPIBurst']);
    expect(check({ svcAPIBurst: 3 }, k8s).unspecified.map((u) => u.field)).toEqual(['svcAPIBurst']);
  });
});

describe('document', () => {
  it('accepts the minimal file and rejects a wrong kind, version or group, naming the field', () => {
    expect(accepted(check({}))).toBe(true);
    // Either member of the pair may be named: upstream says `no kind "Pod" is registered for version ...`.
    expect(check({ kind: 'Pod' }).errors).toEqual([
      { field: 'kind', clause: 'node:2.2/kind', message: 'kind "Pod" is not NodeagentConfiguration', related: ['apiVersion'] },
    ]);
    expect(check({ apiVersion: 'nodeagent.config.svc.io/v1' }).errors.map((e) => e.field)).toEqual(['apiVersion']);
    expect(clausesOf(check({ kind: 'KubeletConfiguration' }))).toEqual(['node:2.2/kind']);
    expect(validateNodeagentConfig([1], svc).errors[0]!.clause).toBe('node:2.2/kind');
  });

  it('leaves unknown fields and a missing reservedSystemCPUs open', () => {
    expect(check({ noSuchField: 1 }).unspecified.map((u) => u.field)).toEqual(['noSuchField']);
    const r = validateNodeagentConfig({ apiVersion: base.apiVersion, kind: base.kind }, svc);
    expect(r.errors).toEqual([]);
    expect(r.unspecified.map((u) => u.clause)).toEqual(['node:2.2/reservedSystemCPUs']);
  });

  it('reads required fields with a default as optional (enableServer, logging)', () => {
    expect(accepted(check({ logging: { verbosity: 3 } }))).toBe(true);
    expect(effective(base, svc).enableServer).toBe(true);
    expect(effective({ ...base, logging: { verbosity: 3 } }, svc).logging).toEqual({
      format: 'text',
      verbosity: 3,
      options: { json: { splitStream: false, infoBufferSize: '0' } },
    });
  });
});

describe('types', () => {
  it.each([
    ['enableServer', 'true'],
    ['port', '10250'],
    ['port', 1.5],
    ['port', 2 ** 31],
    ['syncFrequency', '1d'],
    ['containerLogMaxSize', '10MB'],
    ['clusterDNS', '10.0.0.1'],
    ['featureGates', { CPUManager: 'yes' }],
    ['staticPodPath', 5],
    ['memoryThrottlingFactor', 'high'],
    ['authentication', 'x'],
  ])('%s = %j is the wrong type', (field, value) => {
    expect(clausesOf(check({ [field]: value }))).toEqual([`node:2.2/${field}`]);
  });

  it("a duration written as no string breaks section 2's row (node:2/durations), nested ones too; its examples are accepted", () => {
    expect(clausesOf(check({ syncFrequency: 60 }))).toEqual(['node:2/durations']);
    expect(clausesOf(check({ syncFrequency: true }))).toEqual(['node:2/durations']);
    expect(check({ authentication: { webhook: { cacheTTL: 120 } } }).errors.map((e) => [e.field, e.clause])).toEqual([
      ['authentication.webhook.cacheTTL', 'node:2/durations'],
    ]);
    for (const v of ['1m', '20s', '4h']) expect(accepted(check({ syncFrequency: v }))).toBe(true);
  });

  it('names nested paths', () => {
    expect(check({ authentication: { webhook: { enabled: 'yes' } } }).errors.map((e) => [e.field, e.clause])).toEqual([
      ['authentication.webhook.enabled', 'node:2.3/NodeagentAuthentication.webhook'],
    ]);
    expect(
      check({ shutdownGracePeriodByPodPriority: [{ priority: 1, shutdownGracePeriodSeconds: 'x' }] }).errors.map((e) => e.field),
    ).toEqual(['shutdownGracePeriodByPodPriority[0].shutdownGracePeriodSeconds']);
    expect(check({ logging: { verbosity: -1 } }).errors.map((e) => e.clause)).toEqual(['node:2.4/LoggingConfiguration.verbosity']);
    expect(clauseForPath('logging.options.json.infoBufferSize', svc)).toBe('node:2.4/JSONOptions.infoBufferSize');
    expect(clauseForPath('shutdownGracePeriodByPodPriority[3].priority', svc)).toBe('node:2.3/ShutdownGracePeriodByPodPriority.priority');
  });

  it('leaves a duration string for logging.flushFrequency (nanoseconds in the spec) open', () => {
    expect(check({ logging: { flushFrequency: '5s' } }).unspecified).toHaveLength(1);
    expect(accepted(check({ logging: { flushFrequency: 5_000_000_000 } }))).toBe(true);
  });
});

describe('ranges: accepting and rejecting edge of each', () => {
  const cases: [string, unknown, boolean][] = [
    ['port', 0, false],
    ['port', 1, true],
    ['port', 65535, true],
    ['port', 65536, false],
    ['readOnlyPort', -1, false],
    ['readOnlyPort', 0, true],
    ['readOnlyPort', 65535, true],
    ['readOnlyPort', 65536, false],
    ['healthzPort', -1, false],
    ['healthzPort', 0, true],
    ['healthzPort', 65536, false],
    ['registryPullQPS', -1, false],
    ['registryPullQPS', 0, true],
    ['registryBurst', -1, false],
    ['registryBurst', 0, true],
    ['eventRecordQPS', -1, false],
    ['eventRecordQPS', 0, true],
    ['eventBurst', -1, false],
    ['eventBurst', 0, true],
    ['oomScoreAdj', -1001, false],
    ['oomScoreAdj', -1000, true],
    ['oomScoreAdj', 1000, true],
    ['oomScoreAdj', 1001, false],
    ['nodeLeaseDurationSeconds', 0, false],
    ['nodeLeaseDurationSeconds', 1, true],
    ['imageGCHighThresholdPercent', 101, false],
    ['imageGCHighThresholdPercent', 100, true],
    ['imageGCLowThresholdPercent', -1, false],
    ['imageGCLowThresholdPercent', 0, true],
    ['maxPods', -1, false],
    ['maxPods', 0, true],
    ['maxOpenFiles', -1, false],
    ['maxOpenFiles', 0, true],
    ['nodeStatusMaxImages', -2, false],
    ['nodeStatusMaxImages', -1, true],
    ['svcAPIBurst', -1, false],
    ['svcAPIBurst', 0, true],
    ['iptablesMasqueradeBit', -1, false],
    ['iptablesMasqueradeBit', 0, true],
    ['iptablesDropBit', 31, true],
    ['iptablesDropBit', 32, false],
    ['cgroupDriver', 'systemd', true],
    ['cgroupDriver', 'cgroupfs', true],
    ['cgroupDriver', 'docker', false],
    ['memorySwap', {}, true],
    ['memorySwap', { swapBehavior: 'NoSwap' }, false],
    ['qosReserved', { cpu: '10%' }, false],
    ['systemReserved', { memory: '1Gi', cpu: '500m' }, true],
    ['containerLogMaxSize', '10Mi', true],
    ['podPidsLimit', -1, true],
  ];
  it.each(cases)('%s = %j accepted: %s', (field, value, ok) => {
    const r = check({ [field]: value });
    if (ok) expect(accepted(r), JSON.stringify(r)).toBe(true);
    else expect(clausesOf(r)).toEqual([`node:2.2/${field}`]);
  });

  it('every edge in the field table behaves as the table says', () => {
    for (const f of configFields) {
      for (const e of f.edges ?? []) {
        const r = check({ [f.name]: e.value });
        expect(r.errors.length === 0, `${f.name} = ${JSON.stringify(e.value)}`).toBe(e.ok);
      }
    }
  });

  it('every sample value is accepted with nothing open', () => {
    for (const p of [svc, k8s])
      for (const f of configFields)
        for (const s of f.samples(p)) expect(accepted(check({ [nameIn(f, p)]: s }, p)), `${f.name} = ${JSON.stringify(s)}`).toBe(true);
  });
});

describe('cross-field rules: breaking and keeping cases', () => {
  it.each(crossRules.map((r) => [r.id, r] as const))('%s', (_id, r) => {
    for (const b of r.breaks) expect(clausesOf(check(b)), JSON.stringify(b)).toContain(r.clause);
    for (const k of r.keeps) expect(accepted(check(k)), JSON.stringify(k)).toBe(true);
  });

  it('image GC: high must exceed low', () => {
    expect(clausesOf(check({ imageGCHighThresholdPercent: 80 }))).toEqual(['node:2.2/imageGCHighThresholdPercent']);
    expect(check({ imageGCLowThresholdPercent: 85 }).errors[0]).toMatchObject({
      field: 'imageGCLowThresholdPercent',
      related: ['imageGCHighThresholdPercent'],
    });
    expect(accepted(check({ imageGCHighThresholdPercent: 81 }))).toBe(true);
  });

  it('registryBurst with registryPullQPS 0 is only unused, never refused', () => {
    expect(accepted(check({ registryPullQPS: 0, registryBurst: 1000 }))).toBe(true);
  });

  it('podsPerCore above maxPods is open: a run-time cap, refused or accepted and capped', () => {
    const r = check({ podsPerCore: 111 });
    expect([r.errors, r.unspecified.map((u) => u.clause)]).toEqual([[], ['node:2.2/podsPerCore']]);
    expect(accepted(check({ podsPerCore: 110 }))).toBe(true);
    expect(check({ podsPerCore: -1 }).unspecified).toHaveLength(1);
  });

  it('shutdown periods: critical below total, per-priority exclusive with both', () => {
    expect(clausesOf(check({ shutdownGracePeriod: '30s', shutdownGracePeriodCriticalPods: '31s' }))).toEqual([
      'node:2.2/shutdownGracePeriodCriticalPods',
    ]);
    expect(accepted(check({ shutdownGracePeriod: '30s', shutdownGracePeriodCriticalPods: '29s' }))).toBe(true);
    const equal = check({ shutdownGracePeriod: '30s', shutdownGracePeriodCriticalPods: '30s' });
    expect([equal.errors, equal.unspecified.length]).toEqual([[], 1]);
    const prio = [{ priority: 0, shutdownGracePeriodSeconds: 10 }];
    expect(
      clausesOf(check({ shutdownGracePeriodCriticalPods: '0s', shutdownGracePeriod: '1m', shutdownGracePeriodByPodPriority: prio })),
    ).toEqual(['node:2.2/shutdownGracePeriodByPodPriority']);
    expect(accepted(check({ shutdownGracePeriodByPodPriority: prio }))).toBe(true);
    expect(check({ shutdownGracePeriodByPodPriority: [{ priority: 0 }] }).unspecified.map((u) => u.clause)).toEqual([
      'node:2.3/ShutdownGracePeriodByPodPriority.shutdownGracePeriodSeconds',
    ]);
  });

  it('systemCgroups "needs cgroupRoot": without it open (refused or ignored); a left-out cgroupRoot is open too (its default is a gap)', () => {
    const r = check({ systemCgroups: '/system.slice', cgroupRoot: '' });
    expect([r.errors, r.unspecified.map((u) => u.clause)]).toEqual([[], ['node:2.2/systemCgroups']]);
    expect(accepted(check({ systemCgroups: '/system.slice', cgroupRoot: '/' }))).toBe(true);
    expect(check({ systemCgroups: '/system.slice' }).unspecified.map((u) => u.clause)).toEqual(['node:2.2/systemCgroups']);
  });

  it('reservedSystemCPUs incompatible with the reserved cgroups', () => {
    expect(clausesOf(check({ reservedSystemCPUs: '0-1', svcReservedCgroup: '/svc.slice' }))).toEqual(['node:2.2/reservedSystemCPUs']);
    expect(accepted(check({ reservedSystemCPUs: '0-1' }))).toBe(true);
  });

  it('reserved amounts: the spec shows no format (map string to string), so a non-quantity is open', () => {
    const r = check({ systemReserved: { memory: '1GB' } });
    expect([r.errors, r.unspecified.map((u) => u.clause)]).toEqual([[], ['node:2.2/systemReserved']]);
  });

  it('iptables bits distinct', () => {
    expect(clausesOf(check({ iptablesMasqueradeBit: 15 }))).toEqual(['node:2.2/iptablesMasqueradeBit']);
    expect(accepted(check({ iptablesMasqueradeBit: 16 }))).toBe(true);
  });

  it('showHiddenMetricsForVersion: only the previous minor of the loader version', () => {
    expect(accepted(check({ showHiddenMetricsForVersion: '1.23' }))).toBe(true);
    expect(clausesOf(check({ showHiddenMetricsForVersion: '1.24' }))).toEqual(['node:2.2/showHiddenMetricsForVersion']);
    expect(clausesOf(check({ showHiddenMetricsForVersion: '1.22' }))).toEqual(['node:2.2/showHiddenMetricsForVersion']);
    expect(clausesOf(check({ showHiddenMetricsForVersion: '1' }))).toEqual(['node:2.2/showHiddenMetricsForVersion']);
    const v = (s: string) =>
      validateNodeagentConfig({ ...base, showHiddenMetricsForVersion: s }, svc, { version: { major: 1, minor: 26 } }).errors.length;
    expect([v('1.25'), v('1.23')]).toEqual([0, 1]);
  });

  it('registerWithTaints "only with registerNode true": without it open, never an error', () => {
    const taints = [{ key: 'k', effect: 'NoSchedule' }];
    const r = check({ registerNode: false, registerWithTaints: taints });
    expect([r.errors, r.unspecified.map((u) => u.clause)]).toEqual([[], ['node:2.5/field-shapes', 'node:2.2/registerWithTaints']]);
    expect(check({ registerWithTaints: taints }).errors).toEqual([]);
  });
});

describe('feature gates', () => {
  it('knows the defaults of 2.6', () => {
    expect(
      [
        'CPUManager',
        'CPUManagerPolicyOptions',
        'MemoryManager',
        'TopologyManager',
        'GracefulNodeShutdown',
        'RotateNodeagentServerCertificate',
      ].map((g) => gateEnabled(g, {}, svc)),
    ).toEqual([true, true, true, true, true, true]);
    expect(['QOSReserved', 'MemoryQoS', 'NodeSwap', 'SeccompDefault'].map((g) => gateEnabled(g, {}, svc))).toEqual([
      false,
      false,
      false,
      false,
    ]);
    expect(gateEnabled('RotateKubeletServerCertificate', {}, k8s)).toBe(true);
    expect(gateEnabled('QOSReserved', { QOSReserved: true }, svc)).toBe(true);
  });

  it('a gated field with its gate on is accepted; with the gate off it is open (refused or ignored)', () => {
    expect(accepted(check({ featureGates: { QOSReserved: true }, qosReserved: { memory: '50%' } }))).toBe(true);
    expect(check({ qosReserved: { memory: '50%' } }).unspecified.map((u) => u.clause)).toEqual(['node:2.2/qosReserved']);
    expect(accepted(check({ topologyManagerScope: 'pod' }))).toBe(true);
    expect(check({ featureGates: { TopologyManager: false }, topologyManagerScope: 'pod' }).unspecified).toHaveLength(1);
    expect(check({ memoryThrottlingFactor: 0.5 }).unspecified).toHaveLength(1);
    expect(accepted(check({ memoryThrottlingFactor: 0.8 }))).toBe(true);
    expect(accepted(check({ featureGates: { NodeSwap: true }, memorySwap: { swapBehavior: 'LimitedSwap' } }))).toBe(true);
    expect(accepted(check({ featureGates: { NodeSwap: true }, memorySwap: { swapBehavior: 'UnlimitedSwap' } }))).toBe(true);
    expect(check({ memorySwap: { swapBehavior: 'LimitedSwap' } }).unspecified.map((u) => u.clause)).toEqual(['node:2.2/memorySwap']);
    expect(check({ cgroupsPerQOS: false }).unspecified.map((u) => u.clause)).toEqual(['node:2.2/cgroupsPerQOS']);
    expect(accepted(check({ cgroupsPerQOS: false, enforceNodeAllocatable: [] }))).toBe(false); // the list itself is a 2.5 gap
    expect(check({ featureGates: { NoSuchGate: true } }).unspecified.map((u) => u.field)).toEqual(['featureGates.NoSuchGate']);
  });
});

describe('gaps of 2.5 stay unspecified', () => {
  it.each([
    ['hairpinMode', 'promiscuous-bridge', 'node:2.5/hairpinMode'],
    ['cpuCFSQuotaPeriod', '100ms', 'node:2.5/cpuCFSQuotaPeriod'],
    ['topologyManagerPolicy', 'best-effort', 'node:2.5/topologyManagerPolicy'],
    ['configMapAndSecretChangeDetectionStrategy', 'Get', 'node:2.5/configMapAndSecretChangeDetectionStrategy'],
    ['evictionHard', { 'memory.available': '100Mi' }, 'node:2.5/eviction'],
    ['enforceNodeAllocatable', ['pods'], 'node:2.5/enforceNodeAllocatable'],
    ['allowedUnsafeSysctls', ['net.*'], 'node:2.5/allowedUnsafeSysctls'],
    ['authorization', { mode: 'AlwaysAllow' }, 'node:2.5/authorization-mode'],
  ])('%s = %j', (field, value, clause) => {
    const r = check({ [field]: value });
    expect(r.errors).toEqual([]);
    expect(r.unspecified.map((u) => u.clause)).toEqual([clause]);
  });
});

describe('defaults and the effective configuration', () => {
  it('carries the defaults of 2.2, 2.3, 5 and 8 per profile', () => {
    const d = defaults(svc);
    expect(d).toMatchObject({
      enableServer: true,
      syncFrequency: '1m',
      port: 10250,
      readOnlyPort: 0,
      healthzPort: 10248,
      registryPullQPS: 5,
      registryBurst: 10,
      eventRecordQPS: 5,
      eventBurst: 10,
      svcAPIQPS: 5,
      svcAPIBurst: 10,
      maxPods: 110,
      podPidsLimit: -1,
      maxOpenFiles: 1000000,
      nodeStatusMaxImages: 50,
      containerLogMaxSize: '10Mi',
      containerLogMaxFiles: 5,
      nodeLeaseDurationSeconds: 40,
      imageGCHighThresholdPercent: 85,
      imageGCLowThresholdPercent: 80,
      oomScoreAdj: -999,
      iptablesMasqueradeBit: 14,
      iptablesDropBit: 15,
      memoryThrottlingFactor: 0.8,
      contentType: 'application/vnd.svc.protobuf',
      cgroupDriver: 'cgroupfs',
      resolvConf: '/etc/resolv.conf',
    });
    expect(d.authentication).toEqual({
      x509: { clientCAFile: '' },
      webhook: { enabled: true, cacheTTL: '2m' },
      anonymous: { enabled: false },
    });
    expect(d.authorization).toEqual({ mode: 'Webhook', webhook: { cacheAuthorizedTTL: '5m', cacheUnauthorizedTTL: '30s' } });
    expect('cgroupRoot' in d || 'hairpinMode' in d || 'seccompDefault' in d).toBe(false);
    const k = defaults(k8s);
    expect([k.kind, k.contentType, k.kubeAPIQPS, k.volumePluginDir]).toEqual([
      'KubeletConfiguration',
      'application/vnd.kubernetes.protobuf',
      5,
      '/usr/libexec/kubernetes/kubelet-plugins/volume/exec/',
    ]);
  });

  it('nodeStatusReportFrequency follows an explicit nodeStatusUpdateFrequency, else 5m', () => {
    expect(effective({ ...base, nodeStatusUpdateFrequency: '20s' }, svc).nodeStatusReportFrequency).toBe('20s');
    expect(effective(base, svc).nodeStatusReportFrequency).toBe('5m0s');
    expect(effective({ ...base, nodeStatusUpdateFrequency: '20s', nodeStatusReportFrequency: '1m' }, svc).nodeStatusReportFrequency).toBe(
      '1m0s',
    );
  });

  it('compares a printed configuration by value and reads left-out fields as Go zero values', () => {
    const printed = { ...effective(base, svc), syncFrequency: '60s', maxPods: 100, enableServer: undefined };
    expect(compareEffective(base, printed, svc).map((m) => [m.field, m.clause])).toEqual([
      ['enableServer', 'node:2.2/enableServer'],
      ['maxPods', 'node:2.2/maxPods'],
    ]);
    expect(compareEffective(base, { ...effective(base, svc), cpuManagerPolicy: 'none', readOnlyPort: undefined }, svc)).toEqual([]);
  });
});
