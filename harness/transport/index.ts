/**
 * The transport room of harness/, its only door: code outside this folder imports from here, code inside
 * imports its siblings directly.
 *
 * How the suite reaches a target: the exchange type, the HTTP client and its retries, the kubeconfig,
 * redaction, the run's pace and deadlines, the guard, identities and the preflights. Depends on no other room.
 */
export { checkReachable, createTargetClient, serialiseBody } from './client.ts';
export { ACCEPT_GZIP, InfrastructureError, queryToString, RECORD_TO, recordedBy } from './exchange.ts';
export type { Exchange, ExchangeRecorder, QueryPair, StreamResponse, Target, TargetRequest, TargetResponse } from './exchange.ts';
export { tapExchanges } from './exchange-tap.ts';
export type { ExchangeTap } from './exchange-tap.ts';
export { createGuardedTarget, registerCleanup, runIdentity } from './guard.ts';
export type { CleanupHandle, GuardedTarget } from './guard.ts';
export { identitiesClient, restrictedUserLearner } from './identities.ts';
export { JsonDocumentStream } from './json-stream.ts';
export { ConfigError, loadTargetConfig } from './kubeconfig.ts';
export type { TargetConfig } from './kubeconfig.ts';
export { undici } from './lazy-undici.ts';
export { probeNamespaceSetup, setupNamespaceName } from './namespace-setup.ts';
export { answerPace, daemonPace, requestPace, stretched } from './pace.ts';
export type { Pace } from './pace.ts';
export { preflight } from './preflight.ts';
export { isSecretHeader, redactText } from './redact.ts';
export { registerRunDeadline, runBudgetLeftMs } from './run-deadline.ts';
export { Transcript } from './transcript.ts';
export { firstContact } from './transport-preflight.ts';
export * from './pace-trend.ts';
