/** A run with one clause in every status, built through buildRunResult like the CLI does. */
import type { RunResult } from '../../../runner/results.ts';
import { buildRunResult } from '../../../reports/aggregate.ts';
import type { Expectations } from '../../../reports/expectations.ts';
import { catalog, cx, rec } from './fixtures.ts';

/** Everything a hostile target could put in a string that reaches a report. */
export const HOSTILE = `<script>alert("x")</script> & 'q' ]]> \u0001\u001b[2J end`;

export function sampleRun(opts: { hostile?: boolean; expectations?: Expectations; errors?: string[]; embedded?: boolean } = {}): RunResult {
  const observed = opts.hostile === true ? HOSTILE : 'status 200 with items [c]';
  return buildRunResult({
    records: [
      rec('rest:4.4.3', 'fail', {
        count: 10,
        counterexample: cx({ observed, curl: opts.hostile === true ? `curl '${HOSTILE}'` : cx().curl }),
      }),
      rec('rest:4.4.3', 'pass', { count: 5 }),
      rec('rest:4.4.6', 'fail', { counterexample: cx({ clause: 'rest:4.4.6', check: 'token-expiry', requestCount: 2 }) }),
      rec('rest:4.4.9', 'unspecified', { note: opts.hostile === true ? HOSTILE : 'returned 3 items for limit=5' }),
      rec('rest:4.5/list/unset/limit-continue/other', 'pass', { count: 40 }),
      rec('node:2.2/maxPods', 'error', { note: 'loader timed out' }),
    ],
    catalog,
    profile: opts.hostile === true ? HOSTILE : 'svc',
    seed: 42,
    server: 'https://127.0.0.1:6443',
    nodeagentLoader: null,
    target:
      opts.embedded === true
        ? { kind: 'embedded', description: 'embedded reference server', reportedVersion: 'v1.24.0' }
        : {
            kind: 'external',
            description: 'https://127.0.0.1:6443 (kubeconfig /home/u/.kube/config, context prod)',
            reportedVersion: 'v1.24.3',
          },
    startedAt: '2025-01-02T03:04:05.000Z',
    durationMs: 61500,
    version: '0.1.0',
    errors: opts.errors ?? [],
    expectations: opts.expectations,
  });
}
