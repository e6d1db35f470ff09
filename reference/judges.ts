/**
 * The judges a run's record names (docs/rejudge.md): pure functions of plain inputs, each under a
 * stable name, so that a saved run can be judged again with the current model. A judge is listed here
 * when every input it takes survives the record's codec (JSON with Map, Set and undefined): no
 * callbacks, no live handles. Renaming an entry breaks the records written with the old name (they
 * are then carried over, not re-derived), so names are for ever.
 */
import type { Judgement } from './judgement.ts';
import {
  judgeAfterDelete,
  judgeCompleteList,
  judgeContinuationServed,
  judgeContinueGone,
  judgeCreate,
  judgeCreateOfTerminatingName,
  judgeDeleteAccepted,
  judgeDuplicateCreate,
  judgeEndlessPaging,
  judgeGoneForExact,
  judgeListDecision,
  judgeListNotServed,
  judgeNamespaceCreated,
  judgeUpdate,
  pathClauses,
  queryClauses,
} from './crud-rules.ts';
import { judgeTooLarge } from './error-rules.ts';
import { judgeGetIn, judgeListSnapshotIn, judgeNotCaughtUpIn, judgePagesIn } from './read-judges.ts';
import { judgeCollectionEnvelope, judgeCreated, judgeGeneratedAtPersist, judgeGeneratedPresent, judgeObjectEnvelope, judgeUpdated } from './envelope-rules.ts';

/** A judge of the registry: plain inputs in, one judgement or several out. */
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export type RegisteredJudge = (...args: any[]) => Judgement | readonly Judgement[] | { readonly judgements: readonly Judgement[] } | undefined;

export const judges = {
  judgeNamespaceCreated,
  judgeCreateOfTerminatingName,
  judgeDuplicateCreate,
  judgeCreate,
  judgeUpdate,
  judgeDeleteAccepted,
  judgeObjectEnvelope,
  judgeCollectionEnvelope,
  judgeCreated,
  judgeUpdated,
  judgeGeneratedPresent,
  judgeGeneratedAtPersist,
  judgeAfterDelete,
  judgeCompleteList,
  judgeContinuationServed,
  judgeContinueGone,
  judgeEndlessPaging,
  judgeGoneForExact,
  judgeListDecision,
  judgeListNotServed,
  pathClauses,
  queryClauses,
  judgeTooLarge,
  judgeGetIn,
  judgeListSnapshotIn,
  judgePagesIn,
  judgeNotCaughtUpIn,
} satisfies Record<string, RegisteredJudge>;

export type Judges = typeof judges;
export type JudgeName = keyof Judges;

/** A registry to judge with: the model's own, or one with some judges replaced (a self-test's planted model bug). */
export type JudgeRegistry = Readonly<Record<string, RegisteredJudge>>;
