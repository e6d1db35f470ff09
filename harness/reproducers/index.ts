/**
 * The reproducers room of harness/, its only door: code outside this folder imports from here, code inside
 * imports its siblings directly.
 *
 * Reproducers a person runs without the suite: curl scripts, node test files, process reproducers, and the
 * observed answers they are judged by. Depends on transport only.
 */
export { describeExchange, toCurlScript } from './curl.ts';
export { toNodeTest } from './node-test-file.ts';
export { answerData, observedAnswers } from './observed-answers.ts';
export type { ObservedAnswer } from './observed-answers.ts';
export { daemonReproducer, loaderReproducer, processSteps } from './process-reproducers.ts';
export type { ProcessAbout } from './process-reproducers.ts';
