/**
 * The judges a run's record names (docs/rejudge.md): pure functions of plain inputs, each under a
 * stable name, so that a saved run can be judged again with the current model. A judge is listed here
 * when every input it takes survives the record's codec (JSON with Map, Set and undefined): no
 * callbacks, no live handles. Renaming an entry breaks the records written with the old name (they
 * are then carried over, not re-derived), so names are for ever. A judge that takes a callback has a
 * plain-data version here instead (judgeNegotiation, judgeRelistedWatchIn, judgeFutureWatchIn,
 * judgeManagedFieldsInBodyOf); the concurrent history judge gets its history with long values by
 * digest (harness/interpreters/history-digest.ts).
 */
import { notSeenWithin, type Judgement } from './judgement.ts';
import {
  judgeAfterDelete,
  judgeAllNamespaces,
  judgeClusterObjectRead,
  judgeCompleteList,
  judgeContinuationServed,
  judgeContinueGone,
  judgeCreate,
  judgeCreateOfTerminatingName,
  judgeDeleteAccepted,
  judgeDeletedWithNamespace,
  judgeDuplicateCreate,
  judgeDuplicateNamespace,
  judgeEndlessPaging,
  judgeGeneratedCreate,
  judgeGeneratedReadBack,
  judgeGoneForExact,
  judgeListDecision,
  judgeListNotServed,
  judgeNameFreeElsewhere,
  judgeNamespaceCreated,
  judgeNamespaceDeleteAccepted,
  judgeNamespaceList,
  judgeNamespaceRead,
  judgeSurvivesOtherNamespace,
  judgeUpdate,
  pathClauses,
  queryClauses,
} from './crud-rules.ts';
import { judgeTooLarge } from './error-rules.ts';
import {
  judgeFinishedWatchIn,
  judgeGetIn,
  judgeListSnapshotIn,
  judgeNotCaughtUpIn,
  judgePagesIn,
  judgeRelistedWatchIn,
  judgeWatchIn,
} from './read-judges.ts';
import {
  judgeCollectionEnvelope,
  judgeCreated,
  judgeGeneratedAtPersist,
  judgeGeneratedPresent,
  judgeObjectEnvelope,
  judgeUpdated,
} from './envelope-rules.ts';
import { judgeLongChain, judgeSizedWrite } from './scale.ts';
import { judgeScope } from './scope.ts';
import { judgeBookmarkRequest, judgeFinishedWatch, judgeWatch, judgeWatchDocuments, judgeWatchOpened } from './watch-oracle.ts';
import { judgeOldVersionExact, judgeOldVersionWatch } from './old-versions.ts';
import { judgeEventV1Create, judgeEventV1Readback, judgeEventV1ReadsBack } from './events-v1.ts';
import { judgeConfigAnswer, judgeCredentialAnswer } from './nodeagent/loader-oracle.ts';
import { judgeAggregate, judgeSingle, noteHealthzWarning } from './health.ts';
import { judgeMutatingWebhook, judgeNoneWebhook, judgeSideEffectingWebhook, webhookOutOfReach } from './dry-run-admission.ts';
import { judgeListSnapshot } from './read-oracle.ts';
import {
  judgeFutureWatchIn,
  judgeGoneCell,
  judgeGoneResume,
  judgeGoneWatch,
  judgeRelistAnswer,
  judgeTooOldEndedEmpty,
  judgeTooOldRefused,
} from './watch-recovery.ts';
import { judgeEviction, judgeHealthAccess, judgeStep, judgeStranger, judgeSubresourceGet } from './authz.ts';
import { judgeBodyAsStated, judgeNegotiation, judgeProtobufServed, judgeProtobufWriteBack, judgeTableRequest } from './negotiation.ts';
import { judgeEnvelope } from './protobuf-envelope.ts';
import {
  judgeCertDir,
  judgeCipherSuites,
  judgeHelpRun,
  judgeLease,
  judgeOpenDecision,
  judgeRefusal,
  judgeSecurePortZero,
  judgeSni,
  judgeTlsMinVersion,
  judgeUnexpectedExit,
  judgeValidStart,
  judgeVersion,
} from './controller-daemon/index.ts';
import { judgeMergeKeyApply, judgeMergeKeySetup } from './apply/merge-key-judge.ts';
import { judgeDeprecatedMetrics, judgeMetricsAnswer } from './versioning/metrics-judge.ts';
import { judgeVersionName } from './versioning/stability.ts';
import { judgeDeprecatedGaugeScrapes, judgeDeprecatedInFavour, judgeDeprecationWarning } from './versioning/deprecation-signals.ts';
import { judgeGroupList, judgePersistedCreate, judgePersistedRead, judgeRemovalRow } from './versioning/serving-judges.ts';
import { judgeDefaultManager, judgeManagedFieldsInBodyOf, judgeState, judgeWrite } from './apply/index.ts';
import { stepDeletion } from './deletion.ts';
import { judgeRepeatedLimit } from './repeated-parameters.ts';
import { judgeMultiResourceWrite } from './single-resource.ts';
import { judgeExactAfterCompaction, judgeVersionsAcrossRestart, judgeWatchAfterCompaction, notBackInTime } from './recovery.ts';
import { judgeConcurrentHistory } from './concurrency/judge.ts';
import { judgeFirstPageToken, judgeGone } from './error-rules.ts';
import { judgeRoundTrip, judgeRoundTripWrite } from './versioning/round-trip.ts';
import {
  judgeDryRunAnswer,
  judgeDryRunPersistence,
  judgeDryRunWrite,
  judgeGeneratedDryRun,
  judgeInvalidDryRunWrite,
  judgeNamespaceDryRunDelete,
  judgeNamespaceKept,
  judgeNotPersisted,
} from './dry-run.ts';

/** A judge of the registry: plain inputs in, one judgement or several out. */
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export type RegisteredJudge = (
  ...args: any[]
) => Judgement | readonly Judgement[] | { readonly judgements: readonly Judgement[] } | undefined;

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
  judgeLongChain,
  judgeSizedWrite,
  judgeScope,
  judgeWatch,
  judgeOldVersionExact,
  judgeOldVersionWatch,
  judgeEventV1Create,
  judgeEventV1Readback,
  judgeEventV1ReadsBack,
  judgeConfigAnswer,
  judgeCredentialAnswer,
  judgeAggregate,
  judgeSingle,
  judgeMutatingWebhook,
  judgeNoneWebhook,
  judgeSideEffectingWebhook,
  judgeListSnapshot,
  judgeFinishedWatch,
  judgeWatchOpened,
  judgeGoneResume,
  judgeGoneWatch,
  judgeRelistAnswer,
  judgeTooOldEndedEmpty,
  judgeTooOldRefused,
  judgeHealthAccess,
  judgeEviction,
  judgeStep,
  judgeStranger,
  judgeSubresourceGet,
  judgeAllNamespaces,
  judgeDeletedWithNamespace,
  judgeDuplicateNamespace,
  judgeGeneratedCreate,
  judgeGeneratedReadBack,
  judgeNameFreeElsewhere,
  judgeNamespaceDeleteAccepted,
  judgeNamespaceList,
  judgeNamespaceRead,
  judgeSurvivesOtherNamespace,
  judgeTableRequest,
  judgeEnvelope,
  judgeProtobufServed,
  judgeProtobufWriteBack,
  judgeBookmarkRequest,
  judgeWatchDocuments,
  judgeGoneCell,
  judgeCertDir,
  judgeCipherSuites,
  judgeSecurePortZero,
  judgeSni,
  judgeTlsMinVersion,
  judgeUnexpectedExit,
  judgeVersion,
  judgeBodyAsStated,
  judgeMergeKeyApply,
  judgeMergeKeySetup,
  judgeDeprecatedMetrics,
  judgeMetricsAnswer,
  judgeVersionName,
  judgeDeprecatedGaugeScrapes,
  judgeDeprecatedInFavour,
  judgeDeprecationWarning,
  judgeGroupList,
  judgePersistedCreate,
  judgePersistedRead,
  judgeRemovalRow,
  judgeDefaultManager,
  judgeState,
  judgeWrite,
  judgeRepeatedLimit,
  judgeMultiResourceWrite,
  judgeExactAfterCompaction,
  judgeVersionsAcrossRestart,
  judgeWatchAfterCompaction,
  judgeHelpRun,
  judgeLease,
  judgeOpenDecision,
  judgeRefusal,
  judgeValidStart,
  judgeFirstPageToken,
  judgeGone,
  judgeRoundTrip,
  judgeRoundTripWrite,
  judgeDryRunAnswer,
  judgeDryRunPersistence,
  judgeDryRunWrite,
  judgeGeneratedDryRun,
  judgeInvalidDryRunWrite,
  judgeNamespaceDryRunDelete,
  judgeNamespaceKept,
  judgeNotPersisted,
  judgeClusterObjectRead,
  judgeWatchIn,
  judgeFinishedWatchIn,
  judgeNegotiation,
  judgeManagedFieldsInBodyOf,
  judgeRelistedWatchIn,
  judgeFutureWatchIn,
  stepDeletion,
  noteHealthzWarning,
  judgeConcurrentHistory,
  notBackInTime,
  notSeenWithin,
  webhookOutOfReach,
} satisfies Record<string, RegisteredJudge>;

export type Judges = typeof judges;
export type JudgeName = keyof Judges;

/** A registry to judge with: the model's own, or one with some judges replaced (a self-test's planted model bug). */
export type JudgeRegistry = Readonly<Record<string, RegisteredJudge>>;
