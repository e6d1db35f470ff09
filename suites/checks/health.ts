/**
 * rest:4.2 health endpoints: aggregated answers with random `verbose`/`exclude` choices, and the
 * individual checks named by a verbose listing. Names are learned from the target, never assumed.
 */
import { judgeAggregate, judgeSingle, noteHealthzWarning } from '../../harness/case/index.ts';
import type { Check } from '../../harness/case/index.ts';
import type { QueryPair } from '../../harness/transport/index.ts';
import { healthCaseArb, type HealthCase } from '../../generators/versioning.ts';
import { healthPath, parseHealthLines } from '../../reference/health.ts';

const pick = (names: readonly string[], idx: readonly number[]) => [...new Set(idx.map((i) => names[i % names.length]!))];

export const healthEndpoints: Check<HealthCase> = {
  id: 'health-endpoints',
  suite: 'rest-health',
  title: 'health endpoints: verbose lines, exclude, individual checks, 200 when healthy',
  clauses: [
    'rest:4.2/healthz',
    'rest:4.2/livez',
    'rest:4.2/readyz',
    'rest:4.2/livez-check',
    'rest:4.2/readyz-check',
    'rest:4.2/verbose',
    'rest:4.2/exclude',
    'rest:4.2.1',
    'rest:4.2.2',
  ],
  defaultRuns: 12,
  // Every endpoint, plain and verbose, an exclude and its individual checks: a few random cases drew
  // one of three endpoints, so /readyz went unjudged on some seeds.
  examples: () => [
    { endpoint: 'healthz', verbose: false, exclude: [], singles: [0] },
    { endpoint: 'livez', verbose: true, exclude: [0], singles: [0] },
    { endpoint: 'readyz', verbose: true, exclude: [1], singles: [2] },
  ],
  arbitrary: () => healthCaseArb,
  describe: (c) => [
    `GET ${healthPath(c.endpoint)}?verbose (learn the check names)`,
    `GET ${healthPath(c.endpoint)}?${[c.verbose || c.exclude.length > 0 ? 'verbose' : '', ...c.exclude.map((i) => `exclude=<name #${i}>`)].filter((s) => s !== '').join('&')}`,
    ...(c.endpoint === 'healthz' ? [] : c.singles.map((i) => `GET ${healthPath(c.endpoint)}/<name #${i}>`)),
  ],
  run: async (c, cx) => {
    const first = await cx.send({ method: 'GET', path: healthPath(c.endpoint), query: [['verbose', null]] });
    cx.judge(judgeAggregate(c.endpoint, { verbose: true, exclude: [] }, { status: first.status, body: first.bodyText }));
    if (c.endpoint === 'healthz') {
      // rest:4.2 calls /healthz deprecated, but the Warning signals of rest:9.3 are scoped to API
      // resources (group, version, resource labels): recorded, not required.
      cx.judge([noteHealthzWarning(first.headers['warning'])]);
    }
    const names = parseHealthLines(first.bodyText)
      .checks.filter((k) => !k.excluded)
      .map((k) => k.name);
    if (first.status !== 200 || names.length === 0) return;
    const exclude = c.exclude.length === 0 ? [] : pick(names, c.exclude);
    // An exclude shows only in a verbose listing (a plain answer is "ok" either way): asked verbose
    // whenever it excludes, so every case that draws one judges it, whatever the seed.
    const verbose = c.verbose || exclude.length > 0;
    const query: QueryPair[] = [...(verbose ? [['verbose', null] as const] : []), ...exclude.map((e) => ['exclude', e] as const)];
    const second = await cx.send({ method: 'GET', path: healthPath(c.endpoint), query });
    cx.judge(judgeAggregate(c.endpoint, { verbose, exclude }, { status: second.status, body: second.bodyText }));
    if (c.endpoint === 'healthz') return;
    for (const name of c.singles.length === 0 ? [] : pick(names, c.singles)) {
      const one = await cx.send({ method: 'GET', path: healthPath(c.endpoint, name) });
      cx.judge(judgeSingle(c.endpoint, name, { status: one.status, body: one.bodyText }));
    }
  },
};
