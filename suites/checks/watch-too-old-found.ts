/**
 * `watch-too-old-found`: rest:6.1.3, rest:7/410 and rest:4.5/meaning/exact without a compaction hook
 * and without waiting out the history window on a target that has run longer than it. The version of
 * an object the run finds unchanged for longer than the window (a namespace the control plane made at
 * its start: `default`, the system namespaces) is one the target need not hold any more. The run
 * creates a namespace of its own after reading that version, then watches the namespaces carrying
 * this case's label from it: 410 Gone, or a stream that delivers the new namespace (a target keeping
 * more history). An Exact list at the version, narrowed the same way, must be 410 or the state then
 * (none of the case's namespaces). Objects of the target are only read, never written.
 * Waits only when no such object exists yet and the wait is short (the embedded server's window).
 */
import { judgeOldVersionExact, judgeOldVersionWatch } from '../../harness/case/index.ts';
import fc from 'fast-check';
import { waitsOut, type Check } from '../../harness/case/index.ts';
import type { CaseContext } from '../../harness/case/index.ts';
import { namespaceOf } from '../../harness/interpreters/index.ts';
import { openWatch } from '../../harness/interpreters/index.ts';
import { CheckNotApplicable } from '../../harness/case/index.ts';
import { collectionPath, resourceTypes } from '../../reference/resources.ts';
import { classifyWatchStart } from '../../reference/watch-recovery.ts';
import { isRecord } from '../../reference/objects.ts';
import { datedObject, oldVersionCandidate, type Dated, type OldWatch } from '../../reference/old-versions.ts';
import type { ClauseId } from '../../reference/catalog/clause-ids.ts';

const CLAUSES: readonly ClauseId[] = ['rest:6.1.3', 'rest:7/410', 'rest:4.5/meaning/exact'];
/** Streams from the version that must all end empty before that counts as a failure. */
const ATTEMPTS = 3;

/** The namespaces not made by this run, dated by their last recorded change, and the server's clock. */
async function datedNamespaces(cx: CaseContext): Promise<{ objects: Dated[]; serverNowMs: number }> {
  const rt = resourceTypes(cx.env.profile).namespaces;
  const r = await cx.send({ method: 'GET', path: collectionPath(rt) });
  const serverNowMs = Date.parse(r.headers['date'] ?? '');
  if (r.status !== 200 || Number.isNaN(serverNowMs))
    throw new CheckNotApplicable(
      CLAUSES,
      `the namespaces list answered ${r.status}${Number.isNaN(serverNowMs) ? ' without a Date header' : ''}: no clock to date its objects by`,
    );
  const items = isRecord(r.json) && Array.isArray(r.json['items']) ? r.json['items'] : [];
  const runLabel = cx.env.profile.runLabel;
  const foreign = items.filter(
    (i) => !(isRecord(i) && isRecord(i['metadata']) && isRecord(i['metadata']['labels']) && runLabel in i['metadata']['labels']),
  );
  return { objects: foreign.map(datedObject).filter((d): d is Dated => d !== undefined), serverNowMs };
}

async function oldVersion(cx: CaseContext): Promise<{ name: string; rv: string; ageMs: number }> {
  const windowMs = cx.env.settings.historyWindowMs;
  for (let tries = 0; ; tries++) {
    const { objects, serverNowMs } = await datedNamespaces(cx);
    const c = oldVersionCandidate(objects, serverNowMs, windowMs);
    if (c.kind === 'found') return c;
    const why =
      c.kind === 'none'
        ? 'no namespace of the target records when it last changed'
        : `no namespace of the target is unchanged for longer than the history window (${windowMs} ms) yet`;
    const waitTooLong = c.kind === 'wait' ? waitsOut(cx.env, c.ms, 'the age of the oldest namespace') : undefined;
    if (c.kind === 'none' || tries > 0 || waitTooLong !== undefined)
      throw new CheckNotApplicable(
        CLAUSES,
        `${why}${waitTooLong !== undefined ? ` (${waitTooLong})` : ''}; with --hook compact=CMD or --slow, watch-too-old checks these clauses`,
      );
    await cx.env.sleep(c.ms);
  }
}

async function watchFrom(cx: CaseContext, rv: string, selector: string, ownName: string): Promise<OldWatch> {
  const rt = resourceTypes(cx.env.profile).namespaces;
  const waitMs = Math.max(cx.env.settings.watchWaitMs, 1000);
  for (let attempt = 1; ; attempt++) {
    const s = await openWatch(cx, rt, collectionPath(rt), [
      ['resourceVersion', rv],
      ['labelSelector', selector],
    ]);
    let ended = false;
    try {
      if (s.status === 200) await s.until((evs) => evs.length > 0, waitMs);
    } finally {
      ended = s.ended();
      await s.close();
    }
    const start = classifyWatchStart(s.status, s.events);
    if (start.kind === 'gone') return { kind: 'gone' };
    if (start.kind === 'refused') return { kind: 'refused', status: start.status };
    if (
      s.events.some(
        (e) =>
          (e.type === 'ADDED' || e.type === 'MODIFIED') &&
          isRecord(e.raw) &&
          isRecord(e.raw['metadata']) &&
          e.raw['metadata']['name'] === ownName,
      )
    )
      return { kind: 'delivered' };
    if (!ended || s.events.length > 0) return { kind: 'silent', waitedMs: waitMs };
    // Ended with nothing: a client resumes from the version it holds, the same one.
    if (attempt === ATTEMPTS) return { kind: 'endedEmpty', attempts: ATTEMPTS };
  }
}

export const watchTooOldFound: Check<null> = {
  id: 'watch-too-old-found',
  suite: 'rest-watch',
  title:
    'a watch and an Exact list from the version of a namespace unchanged for longer than the history window: 410 Gone, or the changes after it',
  clauses: CLAUSES,
  defaultRuns: 1,
  arbitrary: () => fc.constant(null),
  describe: () => [
    'list namespaces; take the one unchanged for longest, if longer than the history window (by the Date header)',
    'create a namespace of this case',
    "watch namespaces with this case's label from that version: 410 Gone, or the new namespace delivered",
    "list namespaces with this case's label at that version, resourceVersionMatch=Exact: 410 Gone, or the state then",
  ],
  run: async (_input, cx) => {
    const old = await oldVersion(cx);
    // Made after the version was read, so after it in any order the target keeps.
    const own = await namespaceOf(cx, 0, { own: true });
    const selector = Object.entries(cx.ownLabels)
      .map(([k, v]) => `${k}=${v}`)
      .join(',');
    const about = `namespace ${old.name} at resourceVersion ${old.rv}, unchanged for ${Math.round(old.ageMs / 1000)} s, history window ${cx.env.settings.historyWindowMs} ms`;
    cx.judge(judgeOldVersionWatch(await watchFrom(cx, old.rv, selector, own), about));
    const rt = resourceTypes(cx.env.profile).namespaces;
    const r = await cx.send({
      method: 'GET',
      path: collectionPath(rt),
      query: [
        ['resourceVersion', old.rv],
        ['resourceVersionMatch', 'Exact'],
        ['labelSelector', selector],
      ],
    });
    const body = isRecord(r.json) ? r.json : {};
    const items = Array.isArray(body['items']) ? body['items'] : [];
    cx.judge(
      judgeOldVersionExact(
        r.status,
        isRecord(body['metadata']) ? body['metadata']['resourceVersion'] : undefined,
        items.length,
        old.rv,
        about,
      ),
    );
  },
};
