/**
 * The registry's judges (reference/judges.ts) in their recording versions (harness/judge-record.ts):
 * the same functions, whose verdicts a run's record holds as the judge's name and inputs, so that
 * `svc-conformance rejudge` derives them again. Checks import a judge from here instead of reference/.
 */
import { recorded } from './judge-record.ts';

export const judgeNamespaceCreated = recorded('judgeNamespaceCreated');
export const judgeCreateOfTerminatingName = recorded('judgeCreateOfTerminatingName');
export const judgeDuplicateCreate = recorded('judgeDuplicateCreate');
export const judgeCreate = recorded('judgeCreate');
export const judgeUpdate = recorded('judgeUpdate');
export const judgeDeleteAccepted = recorded('judgeDeleteAccepted');
export const judgeObjectEnvelope = recorded('judgeObjectEnvelope');
export const judgeCollectionEnvelope = recorded('judgeCollectionEnvelope');
export const judgeCreated = recorded('judgeCreated');
export const judgeUpdated = recorded('judgeUpdated');
export const judgeGeneratedPresent = recorded('judgeGeneratedPresent');
export const judgeGeneratedAtPersist = recorded('judgeGeneratedAtPersist');
export const judgeAfterDelete = recorded('judgeAfterDelete');
export const judgeCompleteList = recorded('judgeCompleteList');
export const judgeContinuationServed = recorded('judgeContinuationServed');
export const judgeContinueGone = recorded('judgeContinueGone');
export const judgeEndlessPaging = recorded('judgeEndlessPaging');
export const judgeGoneForExact = recorded('judgeGoneForExact');
export const judgeListDecision = recorded('judgeListDecision');
export const judgeListNotServed = recorded('judgeListNotServed');
export const pathClauses = recorded('pathClauses');
export const queryClauses = recorded('queryClauses');
export const judgeTooLarge = recorded('judgeTooLarge');
export const judgeGetIn = recorded('judgeGetIn');
export const judgeListSnapshotIn = recorded('judgeListSnapshotIn');
export const judgePagesIn = recorded('judgePagesIn');
export const judgeNotCaughtUpIn = recorded('judgeNotCaughtUpIn');
