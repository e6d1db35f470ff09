/**
 * vitest setup file of the conformance run (scripts/run-vitest.ts): the composition root of the suite
 * workers. It hands the harness the embedded reference targets it may not import itself (imports flow
 * one way: harness never imports targets/).
 */
import { provideEmbeddedLoader } from '../harness/nodeagent-loader.ts';
import { embeddedLoader } from '../targets/nodeagent-loader/embedded.ts';
import type { NodeagentFaultName } from '../targets/nodeagent-loader/faults.ts';

provideEmbeddedLoader((profile, faults) => embeddedLoader(profile, faults as NodeagentFaultName[]));
