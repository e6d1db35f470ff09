/**
 * A capability-probe finding that fails its clause ("not served: PUT of an object") gets a
 * counterexample like a check's failure: the requests that showed it and their answers, the answer the
 * spec needs, and a standalone reproducer that exits 1 while the target answers as a server without the
 * feature and 0 once it serves it (harness/reproducers/curl.ts, harness/reproducers/node-test-file.ts).
 */
import { evaluateNeeds } from '../reference/answer-checks.ts';
import { featureById } from '../reference/features.ts';
import type { ProbeReproduction, ProbedFinding } from '../harness/interpreters/index.ts';
import { describeExchange, toCurlScript } from '../harness/reproducers/index.ts';
import { toNodeTest } from '../harness/reproducers/index.ts';
import { answerData, observedAnswers } from '../harness/reproducers/index.ts';
import type { Counterexample, NeedShown } from './results.ts';

/** What the gate knows of the run for a finding's counterexample. */
export interface ProbeRunFacts {
  readonly seed: number;
  /** The command a person reruns the probe with (the run's own command line). */
  readonly replay: string;
  /** The run's label key and id: the probe's objects carry them. */
  readonly runLabel?: string;
  readonly runId?: string;
}

/** The needs as the recorded answers fared against them (every one unmet: the finding is that). */
function needsShown(r: ProbeReproduction): NeedShown[] {
  const results = evaluateNeeds(r.needs, (i) => (r.exchanges[i] ? answerData(r.exchanges[i]!) : undefined));
  return r.needs.map((n, i) => ({ ...n, observed: results[i]!.observed, met: results[i]!.ok }));
}

/** The counterexample of a finding recorded as a failure; undefined where the probe kept no reproduction. */
export function probeCounterexample(f: ProbedFinding, observed: string, run: ProbeRunFacts): Counterexample | undefined {
  const r = f.reproduction;
  if (r === undefined || r.exchanges.length === 0) return undefined;
  const feature = featureById(f.feature);
  const needs = needsShown(r);
  // Recorded answers that already meet every need would make a script that passes a target that fails.
  if (needs.every((n) => n.met)) return undefined;
  const expected = `${feature.title} served (${r.needs.map((n) => n.says).join('; ')})`;
  const about = { clause: feature.clause, expected, observed, replay: run.replay };
  const options = { server: r.server, needs, about };
  return {
    check: 'capability-probe',
    clause: feature.clause,
    expected,
    observed,
    steps: r.exchanges.map(describeExchange),
    curl: toCurlScript(r.exchanges, options),
    nodeTest: toNodeTest(r.exchanges, options),
    needs,
    answers: observedAnswers(r.exchanges, (labels) => run.runLabel !== undefined && labels?.[run.runLabel] === run.runId),
    requestCount: r.exchanges.length,
    seed: run.seed,
    replay: run.replay,
  };
}
