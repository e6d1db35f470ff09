// The controller daemon model against the spec's tables (node:2.6, node:5, node:8, rest:9.3): every
// rule with a command line where it holds and one where it breaks, the pflag syntax, the defaults per
// profile, the controller list, the gates and the SNI choice.
import { describe, expect, it } from 'vitest';
import {
  effective,
  enabledControllers,
  optionByFlag,
  parseFlags,
  pickCert,
  resolveGates,
  lifecycleGates,
  lifecycleExpectation,
  rules,
  secondaryEvictionRate,
  withDefaults,
  options,
  gates,
  gateName,
  defaultValue,
} from '../../../../reference/controller-daemon/index.ts';
import { clauseById } from '../../../../reference/catalog/index.ts';

const clausesOf = (argv: string[], profile: 'svc' | 'k8s' = 'svc', other = {}) =>
  parseFlags(argv, profile, { other }).errors.map((e) => e.clause);

// [rule name, holding command line, broken command line]
const ruleCases: [string, string[], string[]][] = [
  [
    'renew-deadline-within-lease',
    ['--leader-elect-lease-duration=20s', '--leader-elect-renew-deadline=20s'],
    ['--leader-elect-renew-deadline', '16s'],
  ],
  ['resource-lock-kind', ['--leader-elect-resource-lock=endpointsleases'], ['--leader-elect-resource-lock=endpoints']],
  ['tls-min-version', ['--tls-min-version=VersionTLS13'], ['--tls-min-version=VersionTLS14']],
  [
    'cipher-suites-known',
    ['--tls-cipher-suites=TLS_AES_128_GCM_SHA256,TLS_RSA_WITH_RC4_128_SHA'],
    ['--tls-cipher-suites=TLS_AES_128_GCM_SHA256,TLS_NOPE'],
  ],
  ['secure-port-range', ['--secure-port=0'], ['--secure-port=65536']],
  ['bind-address-ip', ['--bind-address=::1'], ['--bind-address=localhost']],
  ['cert-and-key-together', ['--tls-cert-file=a.crt', '--tls-private-key-file=a.key'], ['--tls-cert-file=a.crt']],
  ['controllers-known', ['--controllers=*,-job,tokencleaner'], ['--controllers=*,-jobs']],
  [
    'general-signer-excludes-specific',
    ['--cluster-signing-kubelet-serving-cert-file=s.crt', '--cluster-signing-kubelet-serving-key-file=s.key'],
    ['--cluster-signing-cert-file=c.crt', '--cluster-signing-legacy-unknown-key-file=l.key'],
  ],
  ['cluster-cidr-needs-allocation', ['--allocate-node-cidrs', '--cluster-cidr=10.0.0.0/16'], ['--cluster-cidr=10.0.0.0/16']],
  [
    'service-range-needs-allocation',
    ['--allocate-node-cidrs=true', '--service-cluster-ip-range=10.96.0.0/12'],
    ['--allocate-node-cidrs=false', '--service-cluster-ip-range=10.96.0.0/12'],
  ],
  ['attach-detach-period-above-one-second', ['--attach-detach-reconcile-sync-period=1001ms'], ['--attach-detach-reconcile-sync-period=1s']],
  ['logging-format-text', ['--logging-format=text'], ['--logging-format=json']],
  ['hidden-metrics-previous-minor', ['--show-hidden-metrics-for-version=1.23'], ['--show-hidden-metrics-for-version=1.22']],
  ['feature-gates-known', ['--feature-gates=AllAlpha=true,NodeSwap=false'], ['--feature-gates=NoSuchGate=true']],
  [
    'external-volume-plugin-needs-external-provider',
    ['--cloud-provider=external', '--external-cloud-volume-plugin=gce'],
    ['--cloud-provider=gce', '--external-cloud-volume-plugin=gce'],
  ],
];

describe('every rule: one command line holding, one breaking it, reported under its clause', () => {
  it('covers every rule but the ones needing another component', () => {
    expect(rules.map((r) => r.name).filter((n) => !ruleCases.some(([m]) => m === n))).toEqual([
      'node-monitor-grace-multiple',
      'garbage-collector-matches-api-server',
    ]);
  });
  it('--enable-garbage-collector is judged against the API server only when its value is given', () => {
    expect(clausesOf(['--enable-garbage-collector=false'])).toEqual([]);
    expect(clausesOf(['--enable-garbage-collector=false'], 'svc', { apiServerEnableGarbageCollector: true })).toEqual([
      'node:2.6/enable-garbage-collector',
    ]);
    expect(clausesOf([], 'svc', { apiServerEnableGarbageCollector: true })).toEqual([]);
  });
  it.each(ruleCases)('%s', (name, holding, broken) => {
    const rule = rules.find((r) => r.name === name)!;
    expect(clauseById(rule.clause)).toBeDefined();
    expect(parseFlags(holding, 'svc').errors).toEqual([]);
    expect(parseFlags(holding, 'svc').open).toEqual([]);
    // An open rule ("needs X") is a decision left to the daemon, never an error; the others are errors.
    const p = parseFlags(broken, 'svc');
    const [errs, other] = rule.binding === 'open' ? [p.open, p.errors] : [p.errors, p.open];
    expect(errs.map((e) => e.clause)).toEqual([rule.clause]);
    expect(other).toEqual([]);
    expect(errs[0]!.option).toBe(`--${rule.option}`);
  });
  it('"needs X" rules are open decisions; the one-second period is a control-loop (main-loop) rule', () => {
    expect(rules.filter((r) => r.binding === 'open').map((r) => r.name)).toEqual([
      'cluster-cidr-needs-allocation',
      'service-range-needs-allocation',
      'external-volume-plugin-needs-external-provider',
    ]);
    expect(rules.filter((r) => r.binding === 'main-loop').map((r) => r.name)).toEqual(['attach-detach-period-above-one-second']);
  });
  it('node-monitor-grace-period is judged only when the agent frequency is given', () => {
    const s = 1_000_000_000n;
    expect(clausesOf(['--node-monitor-grace-period=45s'])).toEqual([]);
    expect(clausesOf(['--node-monitor-grace-period=45s'], 'svc', { nodeStatusUpdateFrequencyNanos: 10n * s })).toEqual([
      'node:8/node-monitor-grace-period',
    ]);
    expect(clausesOf(['--node-monitor-grace-period=40s'], 'svc', { nodeStatusUpdateFrequencyNanos: 10n * s })).toEqual([]);
  });
  it('renew deadline: the defaults hold, a longer deadline breaks', () => {
    expect(clausesOf([])).toEqual([]);
    expect(clausesOf(['--leader-elect-lease-duration=9s'])).toEqual(['node:2.6/leader-elect-renew-deadline']);
  });
});

describe('pflag syntax', () => {
  it('reads --f=v, --f v, -v 3, -v=3, -v3 and bare booleans', () => {
    const p = parseFlags(['--secure-port', '0', '--leader-elect', '--profiling=false', '-v', '3'], 'svc');
    expect(p.errors).toEqual([]);
    expect(p.options).toMatchObject({ 'secure-port': 0, 'leader-elect': true, profiling: false, v: 3 });
    expect(parseFlags(['-v=4'], 'svc').options['v']).toBe(4);
    expect(parseFlags(['-v5'], 'svc').options['v']).toBe(5);
  });
  it('does not take the next word as a boolean value', () => {
    const p = parseFlags(['--leader-elect', 'false'], 'svc');
    expect(p.errors.map((e) => e.clause)).toEqual(['node:1.4']);
    expect(p.options['leader-elect']).toBe(true);
  });
  it('refuses unknown flags, missing values and bad values, naming the flag', () => {
    expect(parseFlags(['--no-such-flag'], 'svc').errors[0]!.message).toBe('unknown flag: --no-such-flag');
    expect(parseFlags(['--secure-port'], 'svc').errors[0]!.option).toBe('--secure-port');
    expect(parseFlags(['--secure-port=http'], 'svc').errors[0]!.clause).toBe('node:2.6/secure-port');
    expect(parseFlags(['--leader-elect-lease-duration=15'], 'svc').errors[0]!.clause).toBe('node:2.6/leader-elect-lease-duration');
    expect(parseFlags(['--svc-api-burst=2147483648'], 'svc').errors[0]!.clause).toBe('node:2.6/svc-api-burst');
    expect(parseFlags(['--leader-elect=maybe'], 'svc').errors[0]!.clause).toBe('node:2.6/leader-elect');
  });
  it('accumulates lists, maps and repeatable options; later scalars win', () => {
    const p = parseFlags(
      [
        '--controllers=a-b'.replace('a-b', 'job'),
        '--controllers',
        'cronjob',
        '--allow-metric-labels=m,l=v1',
        '--allow-metric-labels',
        'x,y=z',
        '--tls-sni-cert-key=a.crt,a.key',
        '--tls-sni-cert-key',
        'b.crt,b.key:*.example.com',
        '--secure-port=1',
        '--secure-port=2',
      ],
      'svc',
    );
    expect(p.errors).toEqual([]);
    expect(p.options['controllers']).toEqual(['job', 'cronjob']);
    expect(p.options['allow-metric-labels']).toEqual({ 'm,l': 'v1', 'x,y': 'z' });
    expect(p.options['tls-sni-cert-key']).toHaveLength(2);
    expect(p.options['secure-port']).toBe(2);
  });
  it('knows the profile spelling and only it', () => {
    expect(parseFlags(['--svc-api-qps=5', '--svcconfig=/k'], 'svc').errors).toEqual([]);
    expect(parseFlags(['--kube-api-qps=5'], 'svc').errors[0]!.message).toBe('unknown flag: --kube-api-qps');
    expect(parseFlags(['--kube-api-qps=5', '--kubeconfig=/k'], 'k8s').errors).toEqual([]);
    expect(optionByFlag('kube-api-qps', 'k8s')?.clause).toBe('node:2.6/svc-api-qps');
  });
  it('takes no arguments, also after --', () => {
    expect(clausesOf(['run'])).toEqual(['node:1.4']);
    expect(clausesOf(['--', '--secure-port=1'])).toEqual(['node:1.4']);
  });
  it('accepts a vendor registry option of any vendor', () => {
    expect(clausesOf(['--azure-container-registry-config=/x'])).toEqual([]);
  });
});

describe('defaults and the effective configuration', () => {
  it('every spec default parses under both profiles and every option has its clause', () => {
    for (const o of options) {
      expect(clauseById(o.clause), o.name).toBeDefined();
      for (const p of ['svc', 'k8s'] as const) defaultValue(o, p);
    }
  });
  it('profile defaults: lock name, namespace, content type, cluster name', () => {
    const s = withDefaults({}, 'svc');
    const k = withDefaults({}, 'k8s');
    expect([s['leader-elect-resource-name'], s['leader-elect-resource-namespace'], s['svc-api-content-type'], s['cluster-name']]).toEqual([
      'svc-controller-manager',
      'svc-system',
      'application/vnd.svc.protobuf',
      'svc',
    ]);
    expect([k['leader-elect-resource-name'], k['leader-elect-resource-namespace'], k['svc-api-content-type'], k['cluster-name']]).toEqual([
      'kube-controller-manager',
      'kube-system',
      'application/vnd.kubernetes.protobuf',
      'kubernetes',
    ]);
    expect(s['leader-elect-lease-duration']).toBe(15_000_000_000n);
    expect(s['authorization-always-allow-paths']).toEqual(['/healthz', '/readyz', '/livez']);
  });
  it('secure port 0 disables HTTPS; a self-signed pair only when HTTPS is on and no files are given', () => {
    expect(effective({ 'secure-port': 0 }, 'svc')).toMatchObject({ httpsEnabled: false, selfSignedInCertDir: false });
    expect(effective({}, 'svc')).toMatchObject({ httpsEnabled: true, selfSignedInCertDir: true });
    expect(effective({ 'tls-cert-file': 'a', 'tls-private-key-file': 'b' }, 'svc').selfSignedInCertDir).toBe(false);
  });
  it('contention profiling is active only with profiling on', () => {
    expect(effective({ 'contention-profiling': true }, 'svc').contentionProfilingActive).toBe(true);
    expect(effective({ 'contention-profiling': true, profiling: false }, 'svc').contentionProfilingActive).toBe(false);
  });
  it('terminated pod GC threshold of 0 or less disables collection', () => {
    expect(effective({ 'terminated-pod-gc-threshold': 0 }, 'svc').terminatedPodGcEnabled).toBe(false);
    expect(effective({ 'terminated-pod-gc-threshold': -1 }, 'svc').terminatedPodGcEnabled).toBe(false);
    expect(effective({ 'terminated-pod-gc-threshold': 1 }, 'svc').terminatedPodGcEnabled).toBe(true);
  });
  it('secondary eviction rate is 0 at or below the large-cluster threshold', () => {
    const v = withDefaults({ 'large-cluster-size-threshold': 10, 'secondary-node-eviction-rate': 0.5 }, 'svc');
    expect([secondaryEvictionRate(v, 10), secondaryEvictionRate(v, 11)]).toEqual([0, 0.5]);
    expect(secondaryEvictionRate(withDefaults({}, 'svc'), 50)).toBe(0);
    expect(effective({ 'large-cluster-size-threshold': 10 }, 'svc').secondaryNodeEviction).toEqual({
      aboveNodes: 10,
      rate: 0.01,
      rateAtOrBelow: 0,
    });
  });
});

describe('--controllers', () => {
  it('* is the on-by-default set; bootstrapsigner and tokencleaner are off', () => {
    const on = enabledControllers(['*']);
    expect(on.size).toBe(36);
    expect(on.has('bootstrapsigner') || on.has('tokencleaner')).toBe(false);
  });
  it('name enables, -name disables, the first item naming a controller decides', () => {
    expect(enabledControllers(['*', 'tokencleaner', '-job']).has('tokencleaner')).toBe(true);
    expect(enabledControllers(['*', '-job']).has('job')).toBe(false);
    expect([...enabledControllers(['job'])]).toEqual(['job']);
    expect(enabledControllers(['-job', 'job']).has('job')).toBe(false);
  });
});

describe('feature gates (node:2.6 lists, rest:9.3 life cycle)', () => {
  it('alpha off, beta-on on, beta-off off by default; AllAlpha/AllBeta flip the unset ones', () => {
    const d = resolveGates({}, 'svc');
    if (!d.ok) throw new Error('defaults refused');
    expect([d.enabled.get('NodeSwap'), d.enabled.get('CPUManager'), d.enabled.get('ProbeTerminationGracePeriod')]).toEqual([
      false,
      true,
      false,
    ]);
    const a = resolveGates({ AllAlpha: true, NodeSwap: false, AllBeta: false }, 'svc');
    if (!a.ok) throw new Error('refused');
    expect([a.enabled.get('MemoryQoS'), a.enabled.get('NodeSwap'), a.enabled.get('CPUManager')]).toEqual([true, false, false]);
    expect(a.warnings).toContain('feature gate AllAlpha is alpha');
  });
  it("the life cycle's settings: named alpha gates to enable, named beta gates on by default to disable, each accepted with that effect", () => {
    const { enable, disable } = lifecycleGates('svc');
    expect(enable).toContain('NodeSwap');
    expect(disable).toContain('CPUManager');
    // Not the meta-gates, not a beta gate off by default, not a gate the spec only describes.
    for (const g of ['AllAlpha', 'AllBeta', 'ProbeTerminationGracePeriod']) expect([...enable, ...disable]).not.toContain(g);
    expect([...enable, ...disable].filter((n) => !gates.some((g) => g.named && gateName(g, 'svc') === n))).toEqual([]);
    for (const on of enable)
      for (const off of disable.slice(0, 3)) {
        const r = resolveGates({ [on]: true, [off]: false }, 'svc');
        if (!r.ok) throw new Error(`${on}=true,${off}=false refused`);
        expect([r.enabled.get(on), r.enabled.get(off)]).toEqual([true, false]);
      }
    // The node-agent gates take the profile's spelling.
    expect(lifecycleGates('k8s').disable.filter((n) => n.includes('Nodeagent'))).toEqual([]);
    expect(lifecycleExpectation('NodeSwap=true,CPUManager=false', 'svc')).toBe(
      'alpha gate NodeSwap can be enabled, beta gate CPUManager can be disabled',
    );
    // A setting the life cycle says nothing of (an alpha gate disabled) adds nothing.
    expect(lifecycleExpectation('NodeSwap=false', 'svc')).toBe('accepted');
  });
  it('node-agent gates are spelled per profile', () => {
    const g = gates.find((x) => x.names?.k8s === 'RotateKubeletServerCertificate')!;
    expect(gateName(g, 'svc')).toBe('RotateNodeagentServerCertificate');
    expect(resolveGates({ RotateKubeletServerCertificate: false }, 'svc').ok).toBe(false);
  });
  it('a GA gate is non-operational: enabling warns, disabling fails', () => {
    const table = [...gates, { name: 'Done', stage: 'GA' as const, default: true, list: 'beta-on' as const, named: false }];
    expect(resolveGates({ Done: true }, 'svc', table)).toMatchObject({ ok: true, warnings: [expect.stringContaining('GA')] });
    expect(resolveGates({ Done: false }, 'svc', table)).toMatchObject({ ok: false });
  });
  it('warns on alpha gates and insecure cipher suites', () => {
    const w = parseFlags(['--feature-gates=NodeSwap=true', '--tls-cipher-suites=TLS_RSA_WITH_RC4_128_SHA'], 'svc').warnings.map(
      (x) => x.clause,
    );
    expect(w.sort()).toEqual(['node:2.6/feature-gates/alpha', 'node:2.6/tls-cipher-suites']);
  });
  it('gate values must be booleans', () => {
    expect(clausesOf(['--feature-gates=NodeSwap=yes'])).toEqual(['node:2.6/feature-gates']);
  });
});

describe('--tls-sni-cert-key and pickCert', () => {
  const pairs = [
    { cert: 'w.crt', key: 'w.key', names: ['*.example.com'] },
    { cert: 'e.crt', key: 'e.key', names: ['api.example.com'] },
  ];
  it('exact beats wildcard whatever the order', () => {
    expect(pickCert('api.example.com', pairs)?.cert).toBe('e.crt');
    expect(pickCert('API.example.com.', pairs)?.cert).toBe('e.crt');
    expect(pickCert('www.example.com', pairs)?.cert).toBe('w.crt');
  });
  it('a wildcard matches one label only; no match means the default certificate', () => {
    expect(pickCert('a.b.example.com', pairs)).toBeUndefined();
    expect(pickCert('example.com', pairs)).toBeUndefined();
  });
  it('the value is cert,key with optional :patterns', () => {
    expect(clausesOf(['--tls-sni-cert-key=only.crt'])).toEqual(['node:2.6/tls-sni-cert-key']);
    expect(clausesOf(['--tls-sni-cert-key=a.crt,a.key:foo.org,*.bar.org'])).toEqual([]);
  });
});
