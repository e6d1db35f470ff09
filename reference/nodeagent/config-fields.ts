/**
 * Every field of `NodeagentConfiguration` (spec 2.2) and of its nested types (2.3, 2.4), as data: the
 * svc and k8s spellings, type, default, the field-local rule (range, allowed values), the clause it
 * belongs to, sample values a generator may use (accepted by the model with nothing unspecified) and
 * boundary edges. Cross-field rules live in config-rules.ts; the validator in config.ts.
 *
 * How the spec's gaps are read (each an interpretation the docs list):
 *  - "required" with a stated default (`enableServer`, `logging`, logging's `format`, `verbosity`,
 *    `options`): a file may leave the field out; the default applies (the Default column would
 *    otherwise never apply). "required" with no default (`reservedSystemCPUs`, `flushFrequency`,
 *    `vmodule`, MemoryReservation and ShutdownGracePeriodByPodPriority members): leaving it out is
 *    unspecified (a loader may reject, or read Go's zero value as upstream does).
 *  - A value the spec neither allows nor forbids (a policy name it does not list, a negative duration,
 *    an address that is not an IP) is unspecified; only values the spec rules on are errors.
 */
import type { Profile } from '../profile.ts';
import { listOf, mapOf, scalar, isRecord } from './config-types.ts';
import type { DefaultSpec, Edge, FieldSpec, Issue, Scalar, TypeSpec } from './field-spec-types.ts';
import { parseQuantity } from './quantity.ts';
import { parseGoDuration } from './duration.ts';
import { isIP } from 'node:net';
import { tlsMinVersions } from '../tls-names.ts';
import type { ClauseId } from '../catalog/clause-ids.ts';
import { tableClauseId } from '../catalog/clause-id.ts';
import { TLS_SUITES, absoluteCgroup, atLeast, err, gap, ip, known, nonNegativeDuration, oneOf, open, port, positiveDuration, range, resourceMap } from './field-value-rules.ts';

export type { DefaultSpec, Edge, FieldSpec, Issue, IssueLevel } from './field-spec-types.ts';

export const nameIn = (f: FieldSpec, p: Profile): string => (p.name === 'k8s' && f.k8s ? f.k8s : f.name);

const B = scalar('bool');
const S = scalar('string');
const I32 = scalar('int32');
const I64 = scalar('int64');
const D = scalar('duration');
const STRINGS = listOf(S);
const STRING_MAP = mapOf(S);

const val = (v: unknown): DefaultSpec => ({ kind: 'value', value: () => v });
const NIL: DefaultSpec = { kind: 'nil' };
const NONE: DefaultSpec = { kind: 'none' };
const OBJ: DefaultSpec = { kind: 'object' };
const bools = () => [true, false];

type Row = Omit<FieldSpec, 'clause'> & { clause?: ClauseId };
function section(prefix: string, rows: readonly Row[]): FieldSpec[] {
  return rows.map((r) => ({ ...r, clause: r.clause ?? tableClauseId(`${prefix}${r.name}`) }));
}
/** Members of a nested type: clause `node:<section>/<Type>.<field>`. */
function nested(sec: string, typeName: string, rows: readonly Row[]): FieldSpec[] {
  return rows.map((r) => ({ ...r, clause: r.clause ?? tableClauseId(`node:${sec}/${typeName}.${r.name}`) }));
}
const obj = (typeName: string, fields: readonly FieldSpec[]): TypeSpec => ({ kind: 'object', typeName, fields });

// ---- 2.3 / 2.4 nested types ------------------------------------------------------------------------

const authentication = obj('NodeagentAuthentication', [
  { name: 'x509', clause: 'node:2.3/NodeagentAuthentication.x509', also: ['node:5.1'], type: obj('NodeagentX509Authentication', [
    { name: 'clientCAFile', clause: 'node:2.3/NodeagentAuthentication.x509', type: S, def: val(''), rule: 'PEM bundle of client CAs (path)', samples: (p) => ['', `${p.configDir}/pki/ca.crt`] },
  ]), def: OBJ, rule: 'x509 client certificates: username from CommonName, groups from Organization', samples: (p) => [{}, { clientCAFile: `${p.configDir}/pki/ca.crt` }] },
  { name: 'webhook', clause: 'node:2.3/NodeagentAuthentication.webhook', also: ['node:5.1'], type: obj('NodeagentWebhookAuthentication', [
    { name: 'enabled', clause: 'node:2.3/NodeagentAuthentication.webhook', also: ['node:5.1'], type: B, def: val(true), rule: 'bearer tokens through token review; default true', samples: bools },
    { name: 'cacheTTL', clause: 'node:2.3/NodeagentAuthentication.webhook', also: ['node:5.1'], type: D, def: val('2m'), rule: 'token review cache; default 2m', check: nonNegativeDuration, samples: () => ['2m', '30s', '0s'] },
  ]), def: OBJ, rule: 'token webhook: enabled true, cacheTTL 2m by default', samples: () => [{}, { enabled: false }, { cacheTTL: '1m' }] },
  { name: 'anonymous', clause: 'node:2.3/NodeagentAuthentication.anonymous', also: ['node:5.1'], type: obj('NodeagentAnonymousAuthentication', [
    { name: 'enabled', clause: 'node:2.3/NodeagentAuthentication.anonymous', also: ['node:5.1'], type: B, def: val(false), rule: 'anonymous requests; default false', samples: bools },
  ]), def: OBJ, rule: 'anonymous access, off by default', samples: () => [{}, { enabled: true }] },
]);

const authorization = obj('NodeagentAuthorization', [
  { name: 'mode', clause: 'node:2.3/NodeagentAuthorization.mode', also: ['node:5.2'], type: S, def: val('Webhook'), rule: 'default Webhook; other modes not shown (2.5)', check: known(['Webhook'], 'authorization modes other than Webhook are not shown', 'node:2.5/authorization-mode'), samples: () => ['Webhook'] },
  { name: 'webhook', clause: 'node:2.3/NodeagentAuthorization.webhook', also: ['node:5.2'], type: obj('NodeagentWebhookAuthorization', [
    { name: 'cacheAuthorizedTTL', clause: 'node:2.3/NodeagentAuthorization.webhook', also: ['node:5.2'], type: D, def: val('5m'), rule: 'default 5m', check: nonNegativeDuration, samples: () => ['5m', '1m'] },
    { name: 'cacheUnauthorizedTTL', clause: 'node:2.3/NodeagentAuthorization.webhook', also: ['node:5.2'], type: D, def: val('30s'), rule: 'default 30s', check: nonNegativeDuration, samples: () => ['30s', '10s'] },
  ]), def: OBJ, rule: 'authorized answers cached 5m, unauthorized 30s by default', samples: () => [{}, { cacheAuthorizedTTL: '1m' }] },
]);

export const memoryReservation = obj('MemoryReservation', nested('2.3', 'MemoryReservation', [
  { name: 'numaNode', type: I32, def: NONE, required: true, rule: 'NUMA node index; required', samples: () => [0, 1] },
  { name: 'limits', type: STRING_MAP, def: NONE, required: true, rule: 'resource list (shape not shown, 2.5); required', check: gap('node:2.5/field-shapes', 'the shape of a resource list is not shown'), samples: () => [] },
]));

export const shutdownByPriority = obj('ShutdownGracePeriodByPodPriority', nested('2.3', 'ShutdownGracePeriodByPodPriority', [
  { name: 'priority', type: I32, def: NONE, required: true, rule: 'priority value; required', samples: () => [0, 1000, 2000000000] },
  { name: 'shutdownGracePeriodSeconds', type: I64, def: NONE, required: true, rule: 'grace seconds; required', check: (v) => ((v as number) < 0 ? open('a negative grace period is not ruled on') : undefined), samples: () => [0, 10, 30] },
]));

const jsonOptions = obj('JSONOptions', nested('2.4', 'JSONOptions', [
  { name: 'splitStream', type: B, def: val(false), required: true, rule: 'errors to stderr, info to stdout; default false (both to stdout)', samples: bools },
  { name: 'infoBufferSize', type: scalar('quantity'), def: val('0'), required: true, rule: 'info buffer under split streams; default 0', samples: () => ['0', '1Mi'] },
]));

const logging = obj('LoggingConfiguration', nested('2.4', 'LoggingConfiguration', [
  { name: 'format', type: S, def: val('text'), required: true, rule: 'default text; other formats not ruled on', check: known(['text'], 'formats other than text are not ruled on for the agent'), samples: () => ['text'] },
  { name: 'flushFrequency', type: scalar('nanos'), def: NONE, required: true, rule: 'int64 nanoseconds; default not shown', check: (v) => ((v as number) <= 0 ? open('a non-positive flush period is not ruled on') : undefined), samples: () => [5_000_000_000, 1_000_000_000] },
  { name: 'verbosity', type: scalar('uint32'), def: val(0), required: true, rule: 'uint32; default 0', samples: () => [0, 2, 10] },
  { name: 'vmodule', type: listOf({ kind: 'opaque', typeName: 'VModuleItem' }), def: NONE, required: true, rule: 'list of per-file verbosities (item shape not shown, 2.5); text format only', check: (v) => ((v as unknown[]).length > 0 ? open('vmodule item shape is not shown', 'node:2.5/field-shapes') : undefined), samples: () => [[]] },
  { name: 'options', type: obj('FormatOptions', [
    { name: 'json', clause: 'node:2.4/FormatOptions.json', type: jsonOptions, def: OBJ, required: true, rule: 'options of format json', samples: () => [{}, { splitStream: true }, { infoBufferSize: '64Ki' }] },
  ]), def: OBJ, required: true, rule: 'format options; all validated', samples: () => [{}, { json: { splitStream: false } }] },
]));

const memorySwap = obj('MemorySwapConfiguration', [
  { name: 'swapBehavior', clause: 'node:2.2/memorySwap', type: S, def: val(''), rule: '"", LimitedSwap or UnlimitedSwap', check: oneOf(['', 'LimitedSwap', 'UnlimitedSwap']), samples: () => ['', 'LimitedSwap', 'UnlimitedSwap'], edges: [{ value: 'Limited', ok: false, what: 'not a listed behaviour' }] },
]);

// ---- 2.2 --------------------------------------------------------------------------------------------

const evictionMap = (name: string): Row => ({
  name, type: STRING_MAP, def: { kind: 'gap', clause: 'node:2.5/eviction' }, rule: 'signal name to value; defaults and signal names not shown (2.5)', check: gap('node:2.5/eviction', 'eviction signal names are not shown'), samples: () => [],
});

const lim = (name: string): ClauseId => tableClauseId(`node:8/nodeagent-${name}`);

export const configFields: readonly FieldSpec[] = section('node:2.2/', [
  { name: 'enableServer', type: B, def: val(true), required: true, rule: 'default true (required with a default: may be left out)', samples: bools },
  { name: 'staticPodPath', type: S, def: val(''), rule: 'directory or file of static pods', samples: (p) => ['', `${p.configDir}/manifests`] },
  { name: 'syncFrequency', type: D, def: val('1m'), rule: 'duration; default 1m', check: positiveDuration, samples: () => ['1m', '30s', '1m0s', '2h'], edges: [{ value: '1d', ok: false, what: 'days are not a Go duration unit' }] },
  { name: 'fileCheckFrequency', type: D, def: val('20s'), rule: 'duration; default 20s', check: positiveDuration, samples: () => ['20s', '1m'] },
  { name: 'httpCheckFrequency', type: D, def: val('20s'), rule: 'duration; default 20s', check: positiveDuration, samples: () => ['20s', '5s'] },
  { name: 'staticPodURL', type: S, def: val(''), rule: 'URL of static pods', samples: () => ['', 'http://127.0.0.1:8080/pods'] },
  { name: 'staticPodURLHeader', type: mapOf(STRINGS), def: NIL, rule: 'map string to list of string', samples: () => [{}, { Authorization: ['Bearer x'] }] },
  { name: 'address', type: S, def: val('0.0.0.0'), rule: 'bind IP; default 0.0.0.0', check: ip('Bind IP'), samples: () => ['0.0.0.0', '127.0.0.1', '::'] },
  { name: 'port', type: I32, def: val(10250), also: [lim('ports')], rule: 'default 10250; 1-65535', check: port(false, 'node:2.2/port'), samples: () => [10250, 1, 65535],
    edges: [{ value: 0, ok: false, what: 'below 1' }, { value: 1, ok: true, what: 'lowest port' }, { value: 65535, ok: true, what: 'highest port' }, { value: 65536, ok: false, what: 'above 65535' }] },
  { name: 'readOnlyPort', zeroMeans: '0 disables the port', type: I32, def: val(0), rule: 'default 0 (disabled); 1-65535 or 0', check: port(true, 'node:2.2/readOnlyPort'), samples: () => [0, 10255, 65535],
    edges: [{ value: -1, ok: false, what: 'negative' }, { value: 0, ok: true, what: '0 disables' }, { value: 65536, ok: false, what: 'above 65535' }] },
  { name: 'tlsCertFile', type: S, def: val(''), rule: 'certificate path; self-signed pair when this and the key are unset', samples: (p) => ['', `${p.configDir}/pki/agent.crt`] },
  { name: 'tlsPrivateKeyFile', type: S, def: val(''), rule: 'key path', samples: (p) => ['', `${p.configDir}/pki/agent.key`] },
  { name: 'tlsCipherSuites', type: STRINGS, def: NIL, rule: 'TLS constant names; names outside the 2.6 lists not ruled on', check: (v) => {
    const other = (v as string[]).filter((s) => !TLS_SUITES.includes(s));
    return other.length > 0 ? open(`cipher suite name(s) ${other.join(', ')} are not among those the spec lists`) : undefined;
  }, samples: () => [[], ['TLS_AES_128_GCM_SHA256'], ['TLS_ECDHE_RSA_WITH_AES_128_GCM_SHA256', 'TLS_AES_256_GCM_SHA384']] },
  { name: 'tlsMinVersion', type: S, def: val(''), rule: 'VersionTLS10..13 (2.6 names); others not ruled on', check: known(['', ...tlsMinVersions], 'not a TLS version name the spec lists'), samples: () => ['', 'VersionTLS12', 'VersionTLS13'] },
  { name: 'rotateCertificates', type: B, def: val(false), also: ['node:5.3'], rule: 'default false', samples: bools },
  { name: 'serverTLSBootstrap', type: B, def: val(false), also: ['node:5.3'], rule: 'default false; true needs the server-certificate rotation gate', gates: ['$serverCertGate'], samples: bools },
  { name: 'authentication', type: authentication, def: OBJ, also: ['node:5.1'], rule: 'see 2.3: webhook on (cache 2m), anonymous off', samples: () => [{}, { anonymous: { enabled: true } }, { webhook: { enabled: false, cacheTTL: '1m' } }, { x509: { clientCAFile: '/etc/ca.crt' } }] },
  { name: 'authorization', type: authorization, def: OBJ, also: ['node:5.2'], rule: 'see 2.3: mode Webhook, caches 5m / 30s', samples: () => [{}, { mode: 'Webhook' }, { webhook: { cacheAuthorizedTTL: '1m', cacheUnauthorizedTTL: '10s' } }] },
  { name: 'registryPullQPS', zeroMeans: '0 means no limit', type: I32, def: val(5), also: [lim('registry-pulls')], rule: 'default 5; not negative; 0 no limit', check: atLeast(0, 'negative'), samples: () => [0, 5, 100],
    edges: [{ value: -1, ok: false, what: 'negative' }, { value: 0, ok: true, what: '0 means no limit' }] },
  { name: 'registryBurst', type: I32, def: val(10), also: [lim('registry-pulls')], rule: 'default 10; not negative; used only when registryPullQPS > 0', check: atLeast(0, 'negative'), samples: () => [0, 10, 1000],
    edges: [{ value: -1, ok: false, what: 'negative' }, { value: 0, ok: true, what: 'zero' }] },
  { name: 'eventRecordQPS', zeroMeans: '0 means no limit', type: I32, def: val(5), also: [lim('events')], rule: 'default 5; not negative; 0 no limit', check: atLeast(0, 'negative'), samples: () => [0, 5, 50],
    edges: [{ value: -1, ok: false, what: 'negative' }, { value: 0, ok: true, what: '0 means no limit' }] },
  { name: 'eventBurst', type: I32, def: val(10), also: [lim('events')], rule: 'default 10; not negative; used when eventRecordQPS > 0', check: atLeast(0, 'negative'), samples: () => [0, 10, 100],
    edges: [{ value: -1, ok: false, what: 'negative' }] },
  { name: 'enableDebuggingHandlers', type: B, def: val(true), rule: 'default true', samples: bools },
  { name: 'enableContentionProfiling', type: B, def: val(false), rule: 'default false', samples: bools },
  { name: 'healthzPort', zeroMeans: '0 disables the port', type: I32, def: val(10248), also: [lim('ports')], rule: 'default 10248; 1-65535 or 0 (disabled)', check: port(true, 'node:2.2/healthzPort'), samples: () => [10248, 0, 65535],
    edges: [{ value: -1, ok: false, what: 'negative' }, { value: 0, ok: true, what: '0 disables' }, { value: 65536, ok: false, what: 'above 65535' }] },
  { name: 'healthzBindAddress', type: S, def: val('127.0.0.1'), rule: 'health bind IP; default 127.0.0.1', check: ip('Health bind IP'), samples: () => ['127.0.0.1', '0.0.0.0'] },
  { name: 'oomScoreAdj', type: I32, def: val(-999), also: [lim('oomScoreAdj')], rule: 'default -999; -1000 to 1000', check: range(-1000, 1000), samples: () => [-999, -1000, 0, 1000],
    edges: [{ value: -1001, ok: false, what: 'below -1000' }, { value: -1000, ok: true, what: 'lowest' }, { value: 1000, ok: true, what: 'highest' }, { value: 1001, ok: false, what: 'above 1000' }] },
  { name: 'clusterDomain', type: S, def: val(''), rule: 'DNS search domain', samples: () => ['', 'cluster.local'] },
  { name: 'clusterDNS', type: STRINGS, def: NIL, rule: 'DNS server IPs; non-IPs not ruled on', check: (v) => {
    const bad = (v as string[]).filter((s) => isIP(s) === 0);
    return bad.length > 0 ? open(`${bad.join(', ')}: not IP addresses; the spec does not say they are refused`) : undefined;
  }, samples: () => [[], ['10.96.0.10'], ['10.96.0.10', 'fd00::10']] },
  { name: 'streamingConnectionIdleTimeout', type: D, def: val('4h'), rule: 'duration; default 4h', check: positiveDuration, samples: () => ['4h', '30m'] },
  { name: 'nodeStatusUpdateFrequency', type: D, def: val('10s'), rule: 'duration; default 10s', check: positiveDuration, samples: () => ['10s', '20s'] },
  { name: 'nodeStatusReportFrequency', type: D, def: val('5m'), rule: 'duration; default 5m, or nodeStatusUpdateFrequency when that is set explicitly', check: positiveDuration, samples: () => ['5m', '1m'] },
  { name: 'nodeLeaseDurationSeconds', type: I32, def: val(40), also: [lim('nodeLeaseDurationSeconds')], rule: 'default 40; must be > 0', check: atLeast(1, 'not > 0'), samples: () => [40, 1, 120],
    edges: [{ value: 0, ok: false, what: 'zero' }, { value: 1, ok: true, what: 'smallest' }] },
  { name: 'imageMinimumGCAge', type: D, def: val('2m'), rule: 'duration; default 2m', check: nonNegativeDuration, samples: () => ['2m', '0s', '1h'] },
  { name: 'imageGCHighThresholdPercent', type: I32, def: val(85), also: [lim('image-gc-thresholds')], rule: 'default 85; 0-100; above the low threshold', check: range(0, 100), samples: () => [85, 81, 100],
    edges: [{ value: 101, ok: false, what: 'above 100' }, { value: 100, ok: true, what: '100' }, { value: 81, ok: true, what: 'just above the default low 80' }, { value: 80, ok: false, what: 'equal to the default low 80' }] },
  { name: 'imageGCLowThresholdPercent', type: I32, def: val(80), also: [lim('image-gc-thresholds')], rule: 'default 80; 0-100; below the high threshold', check: range(0, 100), samples: () => [80, 0, 50],
    edges: [{ value: -1, ok: false, what: 'below 0' }, { value: 0, ok: true, what: '0' }, { value: 84, ok: true, what: 'just below the default high 85' }, { value: 85, ok: false, what: 'equal to the default high 85' }] },
  { name: 'volumeStatsAggPeriod', type: D, def: val('1m'), rule: 'duration; default 1m', check: positiveDuration, samples: () => ['1m', '30s'] },
  { name: 'nodeagentCgroups', k8s: 'kubeletCgroups', type: S, def: val(''), rule: 'absolute cgroup of the agent', check: absoluteCgroup, samples: () => ['', '/nodeagent.slice'] },
  { name: 'systemCgroups', type: S, def: val(''), rule: 'cgroup of non-kernel processes; effect only with cgroupRoot (without it: open)', check: absoluteCgroup, samples: () => [''] },
  { name: 'cgroupRoot', type: S, def: { kind: 'gap', clause: 'node:2.5/cgroupRoot' }, rule: 'root cgroup for pods; default not shown (2.5)', samples: () => ['/', '/pods'] },
  { name: 'cgroupsPerQOS', type: B, def: val(true), rule: 'default true; false with enforceNodeAllocatable left out is open', samples: () => [true] },
  { name: 'cgroupDriver', type: S, def: val('cgroupfs'), rule: 'cgroupfs or systemd', check: oneOf(['cgroupfs', 'systemd']), samples: () => ['cgroupfs', 'systemd'],
    edges: [{ value: 'docker', ok: false, what: 'not a listed driver' }, { value: 'systemd', ok: true, what: 'listed' }] },
  { name: 'cpuManagerPolicy', type: S, def: val('None'), rule: 'default None; other policies not shown; needs CPUManager', gates: ['CPUManager'], check: known(['None', 'none'], 'policies other than the default are not shown'), samples: () => [] },
  { name: 'cpuManagerPolicyOptions', type: STRING_MAP, def: NIL, rule: 'needs CPUManager and CPUManagerPolicyOptions; option names not shown', gates: ['CPUManager', 'CPUManagerPolicyOptions'], check: (v) => (Object.keys(v as object).length > 0 ? open('option names are not shown') : undefined), samples: () => [{}] },
  { name: 'cpuManagerReconcilePeriod', type: D, def: val('10s'), rule: 'duration; default 10s; needs CPUManager', gates: ['CPUManager'], check: positiveDuration, samples: () => ['10s', '5s'] },
  { name: 'memoryManagerPolicy', type: S, def: val('none'), rule: 'default none; other policies not shown; needs MemoryManager', gates: ['MemoryManager'], check: known(['none', 'None'], 'policies other than the default are not shown'), samples: () => [] },
  { name: 'topologyManagerPolicy', type: S, def: val('none'), rule: 'default none; others not shown (2.5) and need TopologyManager', gates: ['TopologyManager'], check: known(['none'], 'policies other than none are not shown', 'node:2.5/topologyManagerPolicy'), samples: () => ['none'] },
  { name: 'topologyManagerScope', type: S, def: val('container'), rule: 'container (default) or pod; pod needs TopologyManager', gates: ['TopologyManager'], check: known(['container', 'pod'], 'scopes other than container and pod are not ruled on'), samples: () => ['container', 'pod'] },
  { name: 'qosReserved', type: STRING_MAP, def: NIL, rule: 'only memory supported; needs QOSReserved (alpha, off by default)', gates: ['QOSReserved'], check: (v) => {
    const keys = Object.keys(v as object);
    const other = keys.filter((k) => k !== 'memory');
    if (other.length > 0) return err(`resource(s) ${other.join(', ')}: only memory is supported`);
    const pct = (v as Record<string, string>).memory;
    return pct !== undefined && !/^(100|[1-9]?[0-9])%$/.test(pct) ? open(`${JSON.stringify(pct)}: the percentage syntax is not shown`) : undefined;
  }, samples: () => [{}], edges: [{ value: { cpu: '50%' }, ok: false, what: 'only memory is supported' }] },
  { name: 'runtimeRequestTimeout', type: D, def: val('2m'), rule: 'duration; default 2m', check: positiveDuration, samples: () => ['2m', '10m'] },
  { name: 'hairpinMode', type: S, def: { kind: 'gap', clause: 'node:2.5/hairpinMode' }, rule: 'values and default not shown (2.5)', check: gap('node:2.5/hairpinMode', 'hairpin values are not shown'), samples: () => [] },
  { name: 'maxPods', type: I32, def: val(110), also: [lim('maxPods')], rule: 'default 110; non-negative', check: atLeast(0, 'negative'), samples: () => [110, 0, 250],
    edges: [{ value: -1, ok: false, what: 'negative' }, { value: 0, ok: true, what: 'zero' }] },
  { name: 'podCIDR', type: S, def: val(''), rule: 'standalone mode only', check: (v) => (v === '' || /^[0-9a-fA-F.:]+\/[0-9]{1,3}$/.test(v as string) ? undefined : open(`${JSON.stringify(v)} is not a CIDR; the spec does not say it is refused`)), samples: () => ['', '10.244.0.0/24'] },
  { name: 'podPidsLimit', type: I64, def: val(-1), also: [lim('podPidsLimit')], rule: 'int64; default -1', samples: () => [-1, 1024] },
  { name: 'resolvConf', zeroMeans: 'an empty string disables DNS lookups', type: S, def: val('/etc/resolv.conf'), rule: 'default /etc/resolv.conf; empty disables DNS lookups', samples: () => ['/etc/resolv.conf', ''] },
  { name: 'runOnce', type: B, def: val(false), rule: 'default false', samples: bools },
  { name: 'cpuCFSQuota', type: B, def: val(true), rule: 'default true', samples: bools },
  { name: 'cpuCFSQuotaPeriod', type: D, def: { kind: 'gap', clause: 'node:2.5/cpuCFSQuotaPeriod' }, rule: 'description and default not shown (2.5)', check: gap('node:2.5/cpuCFSQuotaPeriod', 'the CFS quota period is not described'), samples: () => [] },
  { name: 'nodeStatusMaxImages', zeroMeans: '0 returns no images', type: I32, def: val(50), also: [lim('nodeStatusMaxImages')], rule: 'default 50; > -2; -1 no cap', check: atLeast(-1, 'not > -2'), samples: () => [50, -1, 0],
    edges: [{ value: -2, ok: false, what: 'not > -2' }, { value: -1, ok: true, what: '-1 means no cap' }] },
  { name: 'maxOpenFiles', type: I64, def: val(1000000), also: [lim('maxOpenFiles')], rule: 'int64; default 1000000; non-negative', check: atLeast(0, 'negative'), samples: () => [1000000, 0],
    edges: [{ value: -1, ok: false, what: 'negative' }] },
  { name: 'contentType', type: S, def: { kind: 'value', value: (p) => p.protobufMediaType }, rule: 'default the protobuf media type of the profile', check: (v, p) => known([p.protobufMediaType, 'application/json'], 'content types other than protobuf and JSON are not ruled on')(v), samples: (p) => [p.protobufMediaType, 'application/json'] },
  { name: 'svcAPIQPS', k8s: 'kubeAPIQPS', type: I32, def: val(5), also: [lim('api-calls')], rule: 'default 5', check: (v) => ((v as number) < 0 ? open('a negative QPS is not ruled on') : undefined), samples: () => [5, 50] },
  { name: 'svcAPIBurst', k8s: 'kubeAPIBurst', type: I32, def: val(10), also: [lim('api-calls')], rule: 'default 10; not negative', check: atLeast(0, 'negative'), samples: () => [10, 0, 100],
    edges: [{ value: -1, ok: false, what: 'negative' }] },
  { name: 'serializeImagePulls', type: B, def: val(true), rule: 'default true', samples: bools },
  ...(['evictionHard', 'evictionSoft', 'evictionSoftGracePeriod'] as const).map(evictionMap),
  { name: 'evictionPressureTransitionPeriod', type: D, def: val('5m'), rule: 'duration; default 5m', check: nonNegativeDuration, samples: () => ['5m', '30s'] },
  { name: 'evictionMaxPodGracePeriod', type: I32, def: val(0), rule: 'seconds; default 0', check: (v) => ((v as number) < 0 ? open('a negative grace period is not ruled on') : undefined), samples: () => [0, 30] },
  evictionMap('evictionMinimumReclaim'),
  { name: 'podsPerCore', zeroMeans: '0 means no limit', type: I32, def: val(0), rule: 'default 0 (no limit); above maxPods open (a run-time cap)', check: (v) => ((v as number) < 0 ? open('a negative podsPerCore is not ruled on') : undefined), samples: () => [0, 10],
    edges: [{ value: 110, ok: true, what: 'equal to the default maxPods' }] },
  { name: 'enableControllerAttachDetach', type: B, def: val(true), rule: 'default true', samples: bools },
  { name: 'protectKernelDefaults', type: B, def: val(false), rule: 'default false', samples: bools },
  { name: 'makeIPTablesUtilChains', type: B, def: val(true), rule: 'default true', samples: bools },
  { name: 'iptablesMasqueradeBit', type: I32, def: val(14), also: [lim('iptables-bits')], rule: 'default 14; 0-31; distinct from iptablesDropBit', check: range(0, 31), samples: () => [14, 0, 31, 20],
    edges: [{ value: -1, ok: false, what: 'below 0' }, { value: 0, ok: true, what: '0' }, { value: 31, ok: true, what: '31' }, { value: 32, ok: false, what: 'above 31' }, { value: 15, ok: false, what: 'equal to the default drop bit' }] },
  { name: 'iptablesDropBit', type: I32, def: val(15), also: [lim('iptables-bits')], rule: 'default 15; 0-31; distinct from iptablesMasqueradeBit', check: range(0, 31), samples: () => [15, 1, 30],
    edges: [{ value: 32, ok: false, what: 'above 31' }, { value: -1, ok: false, what: 'below 0' }, { value: 14, ok: false, what: 'equal to the default masquerade bit' }] },
  { name: 'featureGates', type: mapOf(B), def: NIL, rule: 'gate name to bool; names the spec does not show are not ruled on', samples: () => [{}, { CPUManager: true }, { MemoryQoS: false }, { TopologyManager: true, NodeSwap: false }] },
  { name: 'failSwapOn', type: B, def: val(true), rule: 'default true', samples: bools },
  // The spec names no gate for memorySwap, but NodeSwap (alpha, off) is the swap gate of 2.6 and upstream refuses a behaviour without it: read as "needs".
  { name: 'memorySwap', type: memorySwap, def: NIL, gates: ['NodeSwap'], rule: 'swapBehavior "", LimitedSwap or UnlimitedSwap (a behaviour with NodeSwap off: open)', samples: () => [{}],
    edges: [{ value: { swapBehavior: 'limited' }, ok: false, what: 'not a listed behaviour' }] },
  { name: 'containerLogMaxSize', type: scalar('quantity'), def: val('10Mi'), also: [lim('containerLogMaxSize')], rule: 'quantity; default 10Mi', check: (v) => {
    const q = parseQuantity(String(v));
    return q.ok && q.value.numerator <= 0n ? open('a size of zero or less is not ruled on') : undefined;
  }, samples: () => ['10Mi', '1Gi', '500Ki'], edges: [{ value: '10MB', ok: false, what: 'MB is not a quantity suffix' }] },
  { name: 'containerLogMaxFiles', type: I32, def: val(5), also: [lim('containerLogMaxFiles')], rule: 'default 5', check: (v) => ((v as number) < 2 ? open('fewer than 2 files is not ruled on') : undefined), samples: () => [5, 2, 10] },
  { name: 'configMapAndSecretChangeDetectionStrategy', type: S, def: val('Watch'), rule: 'default Watch; other values not shown (2.5)', check: known(['Watch'], 'strategies other than Watch are not shown', 'node:2.5/configMapAndSecretChangeDetectionStrategy'), samples: () => ['Watch'] },
  { name: 'systemReserved', type: STRING_MAP, def: NIL, rule: 'resource to amount; cpu and memory supported (a non-quantity amount: open, no format shown)', check: resourceMap(['cpu', 'memory']), samples: () => [{}, { cpu: '500m' }, { cpu: '1', memory: '1Gi' }] },
  { name: 'svcReserved', k8s: 'kubeReserved', type: STRING_MAP, def: NIL, rule: 'resource to amount; cpu, memory (root-filesystem storage name not shown; a non-quantity amount: open)', check: resourceMap(['cpu', 'memory']), samples: () => [{}, { memory: '512Mi' }] },
  { name: 'reservedSystemCPUs', type: S, def: NONE, required: true, rule: 'CPU list; required without a default (absence unspecified); incompatible with the reserved cgroups', check: (v) => (v === '' || /^\d+(-\d+)?(,\d+(-\d+)?)*$/.test(v as string) ? undefined : open(`${JSON.stringify(v)}: the CPU list syntax is not shown`)), samples: () => ['', '0', '0-1', '0,2-3'] },
  { name: 'showHiddenMetricsForVersion', type: S, def: NONE, rule: '<major>.<minor>; only the previous minor version', samples: () => [''] },
  { name: 'systemReservedCgroup', type: S, def: NONE, rule: 'absolute top-level cgroup enforcing systemReserved', check: absoluteCgroup, samples: () => ['', '/system.slice'] },
  { name: 'svcReservedCgroup', k8s: 'kubeReservedCgroup', type: S, def: NONE, rule: 'absolute top-level cgroup enforcing svcReserved', check: absoluteCgroup, samples: () => ['', '/svc.slice'] },
  { name: 'enforceNodeAllocatable', type: STRINGS, def: { kind: 'gap', clause: 'node:2.5/enforceNodeAllocatable' }, rule: 'values and default not shown (2.5)', check: gap('node:2.5/enforceNodeAllocatable', 'node-allocatable enforcement values are not shown'), samples: () => [] },
  { name: 'allowedUnsafeSysctls', type: STRINGS, def: { kind: 'gap', clause: 'node:2.5/allowedUnsafeSysctls' }, rule: 'values and default not shown (2.5)', check: gap('node:2.5/allowedUnsafeSysctls', 'allowed sysctl values are not shown'), samples: () => [] },
  { name: 'volumePluginDir', type: S, def: { kind: 'value', value: (p) => p.volumePluginDir }, rule: 'default the profile\'s plugin directory', samples: () => ['/opt/plugins/'] },
  { name: 'providerID', type: S, def: val(''), rule: 'external provider instance id', samples: () => ['', 'vendor:///zone/i-0123'] },
  { name: 'kernelMemcgNotification', type: B, def: val(false), rule: 'default false', samples: bools },
  { name: 'logging', type: logging, def: OBJ, required: true, rule: 'see 2.4; format text (required with a default: may be left out)', samples: () => [{}, { format: 'text' }, { verbosity: 2 }, { flushFrequency: 5_000_000_000 }, { options: { json: { infoBufferSize: '0' } } }],
    edges: [{ value: { verbosity: -1 }, ok: false, what: 'verbosity is uint32' }] },
  { name: 'enableSystemLogHandler', type: B, def: val(true), rule: 'default true', samples: bools },
  { name: 'shutdownGracePeriod', type: D, def: val('0s'), rule: 'duration; default 0s', check: nonNegativeDuration, samples: () => ['0s', '30s'] },
  { name: 'shutdownGracePeriodCriticalPods', type: D, def: val('0s'), rule: 'duration; default 0s; less than shutdownGracePeriod', check: nonNegativeDuration, samples: () => ['0s'],
    edges: [{ value: '10s', ok: false, what: 'above the default shutdownGracePeriod 0s' }] },
  { name: 'shutdownGracePeriodByPodPriority', type: listOf(shutdownByPriority), def: NIL, rule: 'needs GracefulNodeShutdown; empty when either period above is set', gates: ['GracefulNodeShutdown'], samples: () => [[], [{ priority: 0, shutdownGracePeriodSeconds: 30 }], [{ priority: 0, shutdownGracePeriodSeconds: 10 }, { priority: 100000, shutdownGracePeriodSeconds: 20 }]] },
  { name: 'reservedMemory', type: listOf(memoryReservation), def: NIL, rule: 'per-NUMA-node reservations for the memory manager', samples: () => [[]] },
  { name: 'enableProfilingHandler', type: B, def: val(true), rule: 'default true', samples: bools },
  { name: 'enableDebugFlagsHandler', type: B, def: val(true), rule: 'default true', samples: bools },
  { name: 'seccompDefault', type: B, def: { kind: 'gap', clause: 'node:2.5/seccompDefault' }, rule: 'bool; default not shown (2.5)', samples: () => [false] },
  { name: 'memoryThrottlingFactor', type: scalar('float64'), def: val(0.8), also: [lim('memoryThrottlingFactor')], rule: 'default 0.8; needs MemoryQoS (alpha, off)', gates: ['MemoryQoS'], check: (v) => ((v as number) <= 0 || (v as number) > 1 ? open(`${v}: a factor outside (0, 1] is not ruled on`) : undefined), samples: () => [0.8] },
  { name: 'registerWithTaints', type: listOf({ kind: 'opaque', typeName: 'Taint' }), def: NIL, rule: 'taints at registration; effect only with registerNode true (taint shape not shown)', check: (v) => ((v as unknown[]).length > 0 ? open('the taint shape is not shown', 'node:2.5/field-shapes') : undefined), samples: () => [[]] },
  { name: 'registerNode', type: B, def: val(true), rule: 'default true', samples: bools },
]);

// Indexed once: a validation looks up every key of the file, and a generated file is validated once
// per field it gains (generators/nodeagent.ts), so a search of the list per lookup was most of its cost.
const byProfileName = new WeakMap<Profile, ReadonlyMap<string, FieldSpec>>();
const bySvcName: ReadonlyMap<string, FieldSpec> = new Map(configFields.map((f) => [f.name, f]));

/** Top-level field by its name under the profile. */
export function fieldByName(name: string, p: Profile): FieldSpec | undefined {
  let index = byProfileName.get(p);
  if (!index) byProfileName.set(p, (index = new Map(configFields.map((f) => [nameIn(f, p), f]))));
  return index.get(name);
}
export function fieldBySvcName(name: string): FieldSpec {
  const f = bySvcName.get(name);
  if (!f) throw new Error(`no field ${name}`);
  return f;
}

/**
 * Is an explicit zero of this field the same as leaving it out? The spec's types come from Go, where an
 * explicit zero of a scalar is indistinguishable from an absent one: for a scalar with a
 * non-zero default a loader may read `0`, `"0s"` or `""` as unset and apply the default, beside refusing
 * it or keeping it where it is valid. Not where the spec gives the zero a meaning of its own (`zeroMeans`:
 * "0 means no limit"), nor for bools: a bool defaulting to true could never be set to false otherwise.
 */
export function zeroReadsAsDefault(f: FieldSpec, p: Profile): boolean {
  if (f.zeroMeans !== undefined || f.type.kind !== 'scalar' || f.def.kind !== 'value' || f.type.scalar === 'bool') return false;
  const d = f.def.value(p);
  return !isZeroScalar(f.type.scalar, d);
}

/** The Go zero value of a scalar type: 0, "0s", "". */
export function isZeroScalar(s: Scalar, v: unknown): boolean {
  switch (s) {
    case 'string':
    case 'quantity':
      return v === '';
    case 'duration':
      if (typeof v !== 'string') return false;
      return ((d) => d.ok && d.nanos === 0n)(parseGoDuration(v));
    case 'bool':
      return v === false;
    default:
      return v === 0;
  }
}

/** Default of a field as the effective configuration carries it; undefined when there is none to show. */
export function defaultOf(f: FieldSpec, p: Profile): unknown {
  switch (f.def.kind) {
    case 'value':
      return f.def.value(p);
    case 'object': {
      if (f.type.kind !== 'object') return {};
      const out: Record<string, unknown> = {};
      for (const sub of f.type.fields) {
        const d = defaultOf(sub, p);
        if (d !== undefined) out[sub.name] = d;
      }
      return out;
    }
    default:
      return undefined;
  }
}

export { isRecord };
