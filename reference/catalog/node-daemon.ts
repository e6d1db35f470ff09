/**
 * The clauses of the controller daemon part of the node document (`001_976c7613888ba214.txt`): items
 * 1.3 and 1.4, one clause per option row of every 2.6 table, the daemon server and certificate signing
 * tables of 5, and the concurrency, periods and thresholds tables of 8. Option rows are read from the
 * model's option table (`reference/controller-daemon/options.ts`) so the two cannot drift; the id is the
 * svc flag name (`node:2.6/secure-port`, `node:2.6/svc-api-qps`, `node:8/concurrent-gc-syncs`).
 * Section titles live with the node-agent clauses (`node.ts`).
 */
import type { Clause } from './types.ts';
import { tableClauseId } from './clause-id.ts';
import { options } from '../controller-daemon/options.ts';

const item = (id: string, section: string, kind: Clause['kind'], summary: string): Clause => ({
  id: tableClauseId(id),
  doc: 'node',
  section,
  summary,
  kind,
});

export const nodeDaemonClauses: readonly Clause[] = [
  item(
    'node:1.3',
    '1',
    'informative',
    'The controller daemon embeds the core control loops, which watch cluster state through the API server and move it toward the desired state',
  ),
  item('node:1.4', '1', 'normative', 'The controller daemon is started as `<daemon> [flags]`: options on the command line, no arguments'),
  item(
    'node:2.6/types',
    '2.6',
    'normative',
    'Option types: duration like 1m0s, strings comma-separated; an option without a stated default has none',
  ),
  ...options.map((o) => item(o.clause, o.section, 'normative', `--${o.name} (${o.table}): ${o.meaning}`)),
  item('node:2.6/feature-gates/beta-on', '2.6', 'normative', 'The BETA gates listed default true (and can be disabled)'),
  item(
    'node:2.6/feature-gates/beta-off',
    '2.6',
    'normative',
    'The BETA gates AllBeta, ExperimentalHostUserNamespaceDefaulting, JobTrackingWithFinalizers, ProbeTerminationGracePeriod (and one vendor migration gate) default false',
  ),
  item(
    'node:2.6/feature-gates/alpha',
    '2.6',
    'normative',
    'The ALPHA gates listed default false and can be enabled (AllAlpha enables all)',
  ),
];
