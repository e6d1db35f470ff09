/**
 * Clauses of the node document (`001_976c7613888ba214.txt`) for the node agent: sections 1.1-1.2,
 * 2.1-2.5, 5 (node agent part) and 8 (node agent limits). The controller daemon's clauses (1.3, 1.4,
 * 2.6, its parts of 5 and 8) are in node-daemon.ts. The section titles of the whole document are here.
 *
 * The rows of 2.2, 2.3 and 2.4 are read from the model's field table (reference/nodeagent/
 * config-fields.ts), so a field and its clause cannot drift apart: `node:2.2/<svc field name>`,
 * `node:2.3/<Type>.<field>`, `node:2.4/<Type>.<field>`. Ids always use the svc spelling; the k8s
 * profile only renames fields in files.
 */
import type { Clause } from './types.ts';
import { tableClauseId } from './clause-id.ts';
import { configFields, type FieldSpec } from '../nodeagent/config-fields.ts';
import { typeText } from '../nodeagent/config-types.ts';

const N = 'normative';
const U = 'unspecified';
const I = 'informative';

type Row = readonly [id: string, kind: Clause['kind'], summary: string];

function sec(section: string, rows: readonly Row[]): Clause[] {
  return rows.map(([id, kind, summary]) => ({ id: tableClauseId(id), doc: 'node', section, summary, kind }));
}

export const nodeSectionTitles: Readonly<Record<string, string>> = {
  '1': 'what the service does',
  '2': 'resources and fields',
  '2.1': 'credential provider config',
  '2.2': 'node agent configuration',
  '2.3': 'nested configuration types',
  '2.4': 'logging types',
  '2.5': 'gaps in the configuration fields',
  '2.6': 'controller daemon options',
  '5': 'authentication',
  '8': 'limits',
};

/** One clause per table row: the first field that names it carries its summary. */
function rowsOf(fields: readonly FieldSpec[], out: Map<string, Row>): void {
  for (const f of fields) {
    if (!out.has(f.clause)) {
      const summary = f.k8s ? `${f.name} (k8s ${f.k8s}): ${typeText(f.type)}; ${f.rule}` : `${f.name}: ${typeText(f.type)}; ${f.rule}`;
      out.set(f.clause, [f.clause, N, summary]);
    }
    if (f.type.kind === 'object') rowsOf(f.type.fields, out);
    if (f.type.kind === 'list' && f.type.of.kind === 'object') rowsOf(f.type.of.fields, out);
  }
}

const modelRows = new Map<string, Row>();
rowsOf(configFields, modelRows);
const rowsIn = (section: string): Row[] => [...modelRows.values()].filter(([id]) => id.startsWith(`node:${section}/`));

export const nodeClauses: readonly Clause[] = [
  ...sec('1', [
    [
      'node:1.1',
      I,
      'The node agent reads a NodeagentConfiguration file, serves HTTPS, runs static pods, reports node status, manages containers, images, volumes, evictions',
    ],
    ['node:1.2', N, 'The agent may read a CredentialProviderConfig; a provider is invoked only for an image its matchImages matches'],
  ]),
  ...sec('2', [['node:2/durations', N, 'Duration fields are written as strings such as 1m, 20s, 4h']]),
  ...sec('2.1', [
    ['node:2.1/kind', N, 'CredentialProviderConfig: apiVersion nodeagent.config.svc.io/v1beta1, kind CredentialProviderConfig'],
    [
      'node:2.1/providers',
      N,
      'providers: required list; several may match one image; results combined, the earlier provider wins on overlapping auth keys',
    ],
    ['node:2.1/name', N, 'CredentialProvider name: required; equals the executable name in the provider bin directory'],
    [
      'node:2.1/matchImages',
      N,
      'matchImages: required; domain globs (one glob one segment), no globs in port or path; one matching pattern calls the plugin',
    ],
    ['node:2.1/defaultCacheDuration', N, 'defaultCacheDuration: required duration; cache time when the plugin response gives none'],
    ['node:2.1/apiVersion', N, 'CredentialProvider apiVersion: required; the exec request version, the response uses the same'],
    ['node:2.1/args', N, 'args: optional list of string passed to the command'],
    ['node:2.1/env', N, 'env: optional list of ExecEnvVar (name and value both required), unioned with the host environment'],
  ]),
  ...sec('2.2', [
    [
      'node:2.2/kind',
      N,
      'NodeagentConfiguration: apiVersion nodeagent.config.svc.io/v1beta1, kind NodeagentConfiguration; defaults where stated',
    ],
    ...rowsIn('2.2'),
  ]),
  ...sec('2.3', rowsIn('2.3')),
  ...sec('2.3', [
    [
      'node:2.3/SerializedNodeConfigSource.source',
      I,
      'SerializedNodeConfigSource (kind of the same group): source, the checkpointed dynamic config; shape not shown',
    ],
  ]),
  ...sec('2.4', rowsIn('2.4')),
  ...sec('2.5', [
    ['node:2.5/cgroupRoot', U, 'cgroupRoot: default not shown'],
    ['node:2.5/cpuCFSQuotaPeriod', U, 'cpuCFSQuotaPeriod: description and default not shown'],
    ['node:2.5/hairpinMode', U, 'hairpinMode: allowed values and default not shown'],
    ['node:2.5/topologyManagerPolicy', U, 'topologyManagerPolicy: allowed values other than none not shown'],
    [
      'node:2.5/configMapAndSecretChangeDetectionStrategy',
      U,
      'configMapAndSecretChangeDetectionStrategy: values other than Watch not shown',
    ],
    ['node:2.5/authorization-mode', U, 'Authorization mode: allowed values beyond Webhook not shown'],
    [
      'node:2.5/eviction',
      U,
      'evictionHard, evictionSoft, evictionSoftGracePeriod, evictionMinimumReclaim: defaults and signal names not shown',
    ],
    ['node:2.5/enforceNodeAllocatable', U, 'enforceNodeAllocatable: allowed values and default not shown'],
    ['node:2.5/allowedUnsafeSysctls', U, 'allowedUnsafeSysctls: allowed values and default not shown'],
    ['node:2.5/seccompDefault', U, 'seccompDefault: default not shown'],
    ['node:2.5/provider-apiVersion', U, 'CredentialProvider apiVersion: supported values not shown'],
    ['node:2.5/matchImages', U, 'matchImages: the complete conditions for a match between image and pattern not shown'],
    ['node:2.5/field-shapes', U, 'Field shapes of node config source, taint, resource list and vmodule item not shown'],
  ]),
  ...sec('5', [
    ['node:5.1', N, 'Agent server authentication: x509 client certs, token review webhook (cache 2m by default), anonymous off by default'],
    ['node:5.2', N, 'Agent authorization mode defaults to Webhook; authorized answers cached 5m, unauthorized 30s by default'],
    [
      'node:5.3',
      I,
      'The agent may request client and serving certificates (rotateCertificates, serverTLSBootstrap); an approver must approve them',
    ],
    ['node:5.4', I, 'Credential providers are exec plugins given image requests, returning credentials'],
  ]),
  ...sec('8', [
    ['node:8/nodeagent-registry-pulls', N, 'Registry pulls: 5 per second, burst 10 by default; not negative'],
    ['node:8/nodeagent-events', N, 'Event creation: 5 per second, burst 10 by default; not negative'],
    ['node:8/nodeagent-api-calls', N, 'API calls: 5 QPS, burst 10 by default'],
    ['node:8/nodeagent-maxPods', N, 'maxPods 110 by default'],
    ['node:8/nodeagent-podPidsLimit', N, 'podPidsLimit -1 by default'],
    ['node:8/nodeagent-maxOpenFiles', N, 'maxOpenFiles 1000000 by default'],
    ['node:8/nodeagent-nodeStatusMaxImages', N, 'nodeStatusMaxImages 50 by default'],
    ['node:8/nodeagent-containerLogMaxSize', N, 'containerLogMaxSize 10Mi by default'],
    ['node:8/nodeagent-containerLogMaxFiles', N, 'containerLogMaxFiles 5 by default'],
    ['node:8/nodeagent-nodeLeaseDurationSeconds', N, 'nodeLeaseDurationSeconds 40 by default, must be > 0'],
    ['node:8/nodeagent-image-gc-thresholds', N, 'Image GC thresholds 85 and 80 percent by default, 0-100, high above low'],
    ['node:8/nodeagent-ports', N, 'Ports 10250 and 10248 by default, 1-65535'],
    ['node:8/nodeagent-oomScoreAdj', N, 'oomScoreAdj in [-1000, 1000]'],
    ['node:8/nodeagent-iptables-bits', N, 'iptablesMasqueradeBit and iptablesDropBit in [0, 31]'],
    ['node:8/nodeagent-memoryThrottlingFactor', N, 'memoryThrottlingFactor 0.8 by default'],
  ]),
];
