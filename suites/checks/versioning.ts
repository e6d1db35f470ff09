/**
 * rest:9.4 against what the target serves in the release it reports (or `--release`): no removed
 * resource in discovery, the deprecation Warning (rest:7.4) on every served deprecated version and no
 * deprecation Warning on the stable replacements, and the gauge of rest:9.3 after such a request.
 */
import {
  judgeDeprecatedGaugeScrapes,
  judgeDeprecatedInFavour,
  judgeDeprecatedMetrics,
  judgeDeprecationWarning,
  judgeGroupList,
  judgeMetricsAnswer,
  judgePersistedCreate,
  judgePersistedRead,
  judgeRemovalRow,
  judgeVersionName,
} from '../../harness/case/index.ts';
import fc from 'fast-check';

import { persistedCaseArb, versionPicksArb, type PersistedCase } from '../../generators/versioning.ts';
import { namespaceOf } from '../../harness/interpreters/index.ts';
import type { Check } from '../../harness/case/index.ts';
import type { CaseContext } from '../../harness/case/index.ts';
import { CheckNotApplicable } from '../../harness/case/index.ts';
import { parseRelease, formatRelease, compareReleases, type Release } from '../../reference/versioning/release.ts';
import { groupName, groupVersionOf, removals, servedIn, type Removal } from '../../reference/versioning/removals.ts';
import { stabilityOf } from '../../reference/versioning/stability.ts';
import {
  DEPRECATED_GAUGE_SCRAPES,
  deprecatedGaugeLabels,
  deprecatedGaugeScrapesDecided,
  type MetricsScrape,
} from '../../reference/versioning/deprecation-signals.ts';

import type { ClauseId } from '../../reference/catalog/clause-ids.ts';
import { ACCEPT_GZIP } from '../../harness/transport/index.ts';

const isRecord = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

/** The release the target reports at /version (`gitVersion`), unless the settings name one. */
export async function targetRelease(cx: CaseContext, clauses: readonly ClauseId[]): Promise<Release> {
  const given = cx.env.settings.release;
  if (given !== undefined) {
    const r = parseRelease(given);
    if (r) return r;
    throw new CheckNotApplicable(clauses, `--release ${given} is not a release like 1.24`);
  }
  const v = await cx.send({ method: 'GET', path: '/version' });
  const git = isRecord(v.json) ? v.json['gitVersion'] : undefined;
  const r = typeof git === 'string' ? parseRelease(git) : undefined;
  if (!r)
    throw new CheckNotApplicable(clauses, `the target reports no release at /version (gitVersion ${JSON.stringify(git)}); pass --release`);
  return r;
}

/** Group versions listed by GET /apis. */
async function discoveredGroupVersions(cx: CaseContext): Promise<Set<string>> {
  const r = await cx.send({ method: 'GET', path: '/apis' });
  cx.judge([judgeGroupList(r.status, r.json)]);
  const out = new Set<string>();
  for (const g of (r.json as { groups: unknown[] }).groups) {
    if (!isRecord(g) || !Array.isArray(g['versions'])) continue;
    for (const v of g['versions']) if (isRecord(v) && typeof v['groupVersion'] === 'string') out.add(v['groupVersion']);
  }
  return out;
}

export async function resourcesOf(cx: CaseContext, gv: string): Promise<Set<string> | undefined> {
  const r = await cx.send({ method: 'GET', path: `/apis/${gv}` });
  if (r.status === 404) return undefined;
  const list = isRecord(r.json) && Array.isArray(r.json['resources']) ? r.json['resources'] : [];
  return new Set(list.filter(isRecord).map((x) => String(x['name'])));
}

/** Per run of deprecated-versions (its env): how often each gauge's version was asked, and the gauges settled. */
const gaugesSeen = new WeakMap<object, { readonly asked: Map<string, number>; readonly settled: Set<string> }>();

export const deprecatedVersions: Check<number[]> = {
  id: 'deprecated-versions',
  suite: 'rest-versioning',
  title: 'served group versions follow the removal table; deprecated ones warn and count',
  clauses: [
    ...new Set(removals.map((r) => r.clause)),
    'rest:7.4',
    'rest:9.3/deprecated-endpoint',
    'rest:9.3/rule-3',
    'rest:9.1.2',
    'rest:9.2/beta',
    'rest:9.2/stable',
  ],
  defaultRuns: 10,
  arbitrary: () => versionPicksArb,
  describe: (picks) => [
    'GET /version, GET /apis and the resource lists of the group versions in the removal table',
    ...picks.map((i) => `GET ?limit=1 on served table row #${i} (modulo the served rows), then on its stable replacement`),
    `GET /metrics, over fresh connections until the gauges are seen (at most ${DEPRECATED_GAUGE_SCRAPES}; none for gauges earlier cases saw at 1 after a repeated request)`,
  ],
  run: async (picks, cx) => {
    const p = cx.env.profile;
    const release = await targetRelease(cx, deprecatedVersions.clauses);
    const served = await discoveredGroupVersions(cx);
    cx.judge([...served].map(judgeVersionName));
    const lists = new Map<string, Set<string> | undefined>();
    const resourcesIn = async (gv: string) => {
      if (!served.has(gv)) return undefined;
      if (!lists.has(gv)) lists.set(gv, await resourcesOf(cx, gv));
      return lists.get(gv);
    };
    const isListed = async (gv: string, resource: string) => (await resourcesIn(gv))?.has(resource) === true;
    // Every row: a removed resource is not in discovery; one not yet removed may or may not be served.
    for (const r of removals) {
      const removed = servedIn(p, groupName(p, r.group), r.version, r.resource, release) === 'removed';
      cx.judge([judgeRemovalRow(p, r, release, removed ? await isListed(groupVersionOf(p, r.group, r.version), r.resource) : undefined)]);
    }
    const candidates: Removal[] = [];
    for (const r of removals) {
      if (servedIn(p, groupName(p, r.group), r.version, r.resource, release) === 'removed') continue;
      if (await isListed(groupVersionOf(p, r.group, r.version), r.resource)) candidates.push(r);
    }
    if (candidates.length === 0) return;
    const asked: Removal[] = [];
    for (const r of [...new Set(picks.map((i) => candidates[i % candidates.length]!))]) {
      const gv = groupVersionOf(p, r.group, r.version);
      const res = await cx.send({ method: 'GET', path: `/apis/${gv}/${r.resource}`, query: [['limit', '1']] });
      if (res.status === 401 || res.status === 403) continue;
      cx.judge(
        judgeDeprecationWarning(
          servedIn(p, groupName(p, r.group), r.version, r.resource, release),
          `${gv} ${r.resource}`,
          res.headers['warning'],
        ),
      );
      cx.judge(judgeDeprecatedInFavour(gv, res.headers['warning']));
      asked.push(r);
      const to = r.replacement;
      if (!to || stabilityOf(to.version) !== 'stable' || compareReleases(release, to.since) < 0) continue;
      const rgv = groupVersionOf(p, to.group, to.version);
      if (!(await isListed(rgv, r.resource))) continue;
      const rres = await cx.send({ method: 'GET', path: `/apis/${rgv}/${r.resource}`, query: [['limit', '1']] });
      if (rres.status === 200) cx.judge(judgeDeprecationWarning('unlisted', `${rgv} ${r.resource}`, rres.headers['warning']));
    }
    const deprecated = asked.filter((r) => servedIn(p, groupName(p, r.group), r.version, r.resource, release) === 'deprecated');
    if (deprecated.length === 0) return;
    // The gauge lives in the server process that served the request; behind a balancer each fresh
    // connection may reach another one, so scrape again (connection: close) until it shows.
    // /metrics is megabytes on a real server: a gauge seen at 1 after its version was asked again (a
    // gauge that counts requests shows 2 by then) is not scraped for by later cases of the run.
    const memory = gaugesSeen.get(cx.env) ?? { asked: new Map<string, number>(), settled: new Set<string>() };
    gaugesSeen.set(cx.env, memory);
    const keyOf = (l: object) => JSON.stringify(l);
    const all = deprecated.map((r) => deprecatedGaugeLabels(p, r));
    for (const l of all) memory.asked.set(keyOf(l), (memory.asked.get(keyOf(l)) ?? 0) + 1);
    const labels = all.filter((l) => !memory.settled.has(keyOf(l)));
    if (labels.length === 0) return;
    const scrapes: MetricsScrape[] = [];
    do {
      const m = await cx.send({ method: 'GET', path: '/metrics', headers: { connection: 'close', ...ACCEPT_GZIP } });
      scrapes.push({ status: m.status, body: m.bodyText });
    } while (scrapes.length < DEPRECATED_GAUGE_SCRAPES && !deprecatedGaugeScrapesDecided(scrapes, labels));
    const judged = judgeDeprecatedGaugeScrapes(scrapes, labels);
    cx.judge(judged);
    labels.forEach((l, i) => {
      if (judged[i]?.verdict === 'pass' && (memory.asked.get(keyOf(l)) ?? 0) >= 2) memory.settled.add(keyOf(l));
    });
  },
};

/**
 * rest:9.4/persisted-objects: an object written through a deprecated version is reachable through its
 * replacement. PodDisruptionBudget is the row with the smallest valid object (a selector with labels
 * converts without loss: only the empty selector changed meaning).
 */
export const persistedThroughReplacement: Check<PersistedCase> = {
  id: 'persisted-through-replacement',
  suite: 'rest-versioning',
  title: 'an object written through policy/v1beta1 is read back through policy/v1',
  clauses: ['rest:9.4/persisted-objects', 'rest:7.4'],
  defaultRuns: 6,
  arbitrary: () => persistedCaseArb,
  describe: (c) => [
    `POST policy/v1beta1 PodDisruptionBudget minAvailable=${c.minAvailable} selector app=${c.selectorValue}`,
    `${c.readVia === 'get' ? 'GET it' : 'list the namespace'} through policy/v1`,
  ],
  run: async (c, cx) => {
    const p = cx.env.profile;
    const clauses = persistedThroughReplacement.clauses;
    const release = await targetRelease(cx, clauses);
    const row = removals.find((r) => r.resource === 'poddisruptionbudgets')!;
    const serving = servedIn(p, groupName(p, row.group), row.version, row.resource, release);
    if (serving !== 'deprecated') throw new CheckNotApplicable(clauses, `policy/v1beta1 is ${serving} in ${formatRelease(release)}`);
    for (const gv of ['policy/v1beta1', 'policy/v1']) {
      const listed = await resourcesOf(cx, gv);
      if (!listed?.has('poddisruptionbudgets'))
        throw new CheckNotApplicable(clauses, `the target does not serve ${gv} poddisruptionbudgets`, 'skipped');
    }
    const ns = await namespaceOf(cx, 0);
    const spec = { minAvailable: c.minAvailable, selector: { matchLabels: { app: c.selectorValue } } };
    const created = await cx.send({
      method: 'POST',
      path: `/apis/policy/v1beta1/namespaces/${encodeURIComponent(ns)}/poddisruptionbudgets`,
      body: { apiVersion: 'policy/v1beta1', kind: 'PodDisruptionBudget', metadata: { generateName: 'pdb-', labels: cx.ownLabels }, spec },
    });
    const md = isRecord(created.json) && isRecord(created.json['metadata']) ? created.json['metadata'] : {};
    cx.judge([judgePersistedCreate(created)]);
    cx.judge(judgeDeprecationWarning(serving, 'a create through policy/v1beta1', created.headers['warning']));
    const name = String(md['name']);
    const base = `/apis/policy/v1/namespaces/${encodeURIComponent(ns)}/poddisruptionbudgets`;
    const read =
      c.readVia === 'get'
        ? await cx.send({ method: 'GET', path: `${base}/${encodeURIComponent(name)}` })
        : await cx.send({ method: 'GET', path: base });
    cx.judge([judgePersistedRead({ name, uid: md['uid'] }, spec, c.readVia, read)]);
  },
};

/** rest:9.3/deprecated-metrics on the target's /metrics, against the release it reports. */
export const deprecatedMetrics: Check<null> = {
  id: 'deprecated-metrics',
  suite: 'rest-versioning',
  title: 'deprecated metrics carry their notice first and are gone after their window',
  clauses: ['rest:9.3/deprecated-metrics', 'rest:4.2.4'],
  defaultRuns: 1,
  arbitrary: () => fc.constant(null),
  describe: () => ['GET /version', 'GET /metrics'],
  run: async (_none, cx) => {
    const clauses = deprecatedMetrics.clauses;
    const release = await targetRelease(cx, clauses);
    const m = await cx.send({ method: 'GET', path: '/metrics', headers: ACCEPT_GZIP });
    if (m.status === 401 || m.status === 403)
      throw new CheckNotApplicable(clauses, `GET /metrics answered ${m.status}: these credentials may not read metrics`);
    cx.judge([judgeMetricsAnswer(m.status)]);
    cx.judge(judgeDeprecatedMetrics(m.bodyText, release));
  },
};
