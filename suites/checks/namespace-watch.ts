/**
 * A watch of one namespace judged against the history the case's reads recorded: the read scope the
 * judges take, and the evidence kept with a failure. The watch checks, the deletion check and the
 * resume checks judge their streams this way.
 */
import type { CaseContext } from '../../harness/case/index.ts';
import { judgeWatchIn } from '../../harness/case/index.ts';
import { knownKeys } from '../../harness/interpreters/index.ts';
import type { History } from '../../reference/history.ts';
import { priorAmong, type ReadScope } from '../../reference/read-judges.ts';
import { watchEvidence } from '../../reference/watch-evidence.ts';
import type { ObservedEvent, WatchExpectation } from '../../reference/watch-oracle.ts';

/** What a watch of `ns` covered: of the case's prior versions, those among the objects its events showed. */
export function namespaceWatchScope(cx: CaseContext, h: History, ns: string, events: readonly ObservedEvent[]): ReadScope {
  return {
    history: h,
    knownKeys: knownKeys(cx),
    priorVersions: priorAmong(
      cx.priorVersions,
      events.map((e) => e.object),
    ),
    namespaces: [ns],
    scope: { namespace: ns },
  };
}

/** The evidence a failure of such a watch carries (reference/watch-evidence.ts). */
export function namespaceWatchEvidence(
  cx: CaseContext,
  h: History,
  ns: string,
  exp: WatchExpectation,
  events: readonly ObservedEvent[],
  extra?: Parameters<typeof watchEvidence>[3],
) {
  return watchEvidence({ history: h, knownKeys: knownKeys(cx), namespace: ns }, exp, events, extra);
}

/** Judges the events of a watch of `ns` (still open or ended at the case's cut-off) and keeps the evidence. */
export function judgeNamespaceWatch(
  cx: CaseContext,
  h: History,
  ns: string,
  exp: WatchExpectation,
  events: readonly ObservedEvent[],
): void {
  cx.judge(judgeWatchIn(namespaceWatchScope(cx, h, ns, events), exp, events).judgements, namespaceWatchEvidence(cx, h, ns, exp, events));
}
