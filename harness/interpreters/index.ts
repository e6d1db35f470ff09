/**
 * The interpreters room of harness/, its only door: code outside this folder imports from here, code inside
 * imports its siblings directly.
 *
 * Request interpreters: the REST, dry-run and apply steps sent and handed to the model's judges, watch
 * sessions, the concurrent workload, lockstep of `compare`, the capability probe, the daemon's lease and the
 * admission webhook. Depends on transport, processes and case.
 */
export { startAdmissionWebhook } from './admission-webhook.ts';
export type { AdmissionWebhook } from './admission-webhook.ts';
export { ensureFixture } from './apply-fixture.ts';
export { APPLY_TYPE, applyBody, decodeForModel, planStep, runStep, startObject } from './apply-run.ts';
export type { SeqState } from './apply-run.ts';
export { probeCapabilities } from './capability-probe.ts';
export type { ProbedFinding, ProbeReproduction } from './capability-probe.ts';
export { runConcurrentWorkload } from './concurrent-workload.ts';
export { write } from './recorded-write.ts';
export { openRecordedWatch } from './recorded-watch.ts';
export type { LiveWatch } from './recorded-watch.ts';
export { digestedHistory } from './history-digest.ts';
export { awaitLeadership, daemonApiGet, readLeases, writtenElsewhere } from './daemon-lease.ts';
export { runDryRunStep } from './dry-run-interpreter.ts';
export { classifyCase, STEP_CLASSES } from './lockstep-case.ts';
export type { AnswerView, StepClass, StepResult } from './lockstep-case.ts';
export { translator } from './lockstep-diff.ts';
export { lockstepTarget, runLockstep } from './lockstep.ts';
export type { LockstepSides, SideSlot } from './lockstep.ts';
export {
  bodyFor,
  contentFor,
  knownKeys,
  namespaceOf,
  NO_RESOURCE_VERSION,
  NO_UID,
  ownNamespace,
  pageOf,
  resolveRv,
  resourceOf,
  runOp,
  runWrite,
} from './rest-interpreter.ts';
export { openWatch, waitCaughtUp } from './watch-session.ts';
export type { WatchSession } from './watch-session.ts';
