/**
 * The records of one failure found and shrunk: for each failed clause its counterexample (readable
 * steps, curl script or the check's own reproducer, the answers, seed and path), or an error where the
 * failure rested on a write's 5xx that did not repeat.
 */
import fc from 'fast-check';
import { evaluateNeeds, mapAt, type AnswerAt, type AnswerNeed } from '../reference/answer-checks.ts';
import type { Judgement } from '../reference/judgement.ts';
import { answerData, observedAnswers, toCurlScript, toNodeTest } from '../harness/reproducers/index.ts';
import { ClauseViolation, Tally, type ShrinkBudget } from '../harness/case/index.ts';
import type { CheckRecord, Counterexample, NeedShown } from './results.ts';
import { examplesOption, type CheckRunState, type RunCheckOptions } from './check-run-state.ts';
import { caseProperty } from './case-property.ts';

/** Replays of a case that failed on a write's 5xx before its failure is believed. */
const SERVER_ERROR_REPLAYS = 2;

/** The failure records of one violation found and shrunk (an unrepeated 5xx's failure is an error). */
export async function violationRecords(
  run: CheckRunState,
  err: ClauseViolation,
  details: fc.RunDetails<[unknown]>,
  budget: ShrinkBudget,
): Promise<CheckRecord[]> {
  const records: CheckRecord[] = [];
  if (details.failed) run.inputs.set(err, details.counterexample?.[0]);
  // The first excused failure the check went on past travels with the first failure reported, once.
  if (details.failed && run.excusedFirst !== undefined && !run.excusedAttached && err.excusedEarlier === undefined) {
    err.excusedEarlier = run.excusedFirst;
    run.excusedAttached = true;
  }
  // A failure that may rest on a write's 5xx stands only if the case fails so again when replayed.
  const replayed =
    err.serverErrors.some((e) => !e.repeated) && err.repeatedInPlace !== true
      ? await replayCase(run, details.seed, details.counterexamplePath ?? undefined)
      : undefined;
  // An excused failure the case went on past is reported with its own counterexample, as when it stopped the case.
  for (const v of [err, ...(err.excusedEarlier !== undefined ? [err.excusedEarlier] : [])]) {
    // The answers are the exchanges', the same for every failure of the case (a watch body is parsed once, not per failure).
    const answers = observedAnswers(v.exchanges, (labels) => labels?.[run.env.profile.runLabel] === run.env.runId);
    for (const f of v.failures) {
      if (
        v === err &&
        replayed !== undefined &&
        !replayed.every((r) => r !== undefined && r.serverErrors.length > 0 && r.failures.some((g) => g.clause === f.clause))
      ) {
        records.push({ clause: f.clause, check: run.check.id, verdict: 'error', count: 0, note: unrepeatedNote(v, replayed.length) });
        continue;
      }
      const cex = counterexampleOf(run, v, f, details, answers);
      const cutShort = budget.cutShort;
      if (v.journalEntry !== undefined)
        run.journal.links.push({ clause: f.clause, expected: f.expected, observed: f.observed, entry: v.journalEntry });
      records.push({ clause: f.clause, check: run.check.id, verdict: 'fail', count: 1, counterexample: cex, note: cutShort });
    }
  }
  return records;
}

/** The counterexample of one failure `f` of the violation `v`: what a person reads and replays. */
function counterexampleOf(
  run: CheckRunState,
  v: ClauseViolation,
  f: Judgement,
  details: fc.RunDetails<[unknown]>,
  answers: Counterexample['answers'],
): Counterexample {
  const { check, env, opts } = run;
  const input = run.inputs.get(v);
  // A process's answer (a loader's exit, a daemon's start) is no exchange to resolve: the judged answer is the observation.
  const needs =
    check.reproducer !== undefined
      ? (f.needs ?? []).map((n) => ({ ...n, observed: f.observed, met: false }))
      : needsShown(f.needs ?? [], v);
  const reproducerOptions = {
    server: env.target.server,
    needs,
    // The check compacted the target's history (a hook): its watches may rest on versions that left it.
    ...((env.exchangeSink?.footprint.reach?.compactions ?? 0) > 0 ? { compacted: true } : {}),
    about: {
      clause: f.clause,
      expected: f.expected,
      observed: f.observed,
      replay: replayOf(check.id, details.seed, details.counterexamplePath, opts),
    },
  };
  return {
    check: check.id,
    clause: f.clause,
    expected: f.expected,
    observed: f.observed,
    expectedValue: f.expectedValue,
    observedValue: f.observedValue,
    diff: f.diff,
    class: f.class,
    input: f.input,
    observedStatus: f.observedStatus,
    observedReason: f.observedReason,
    steps: [
      ...(input === undefined ? [] : sentSteps(check.describe(input), v.stepsSent)),
      ...(env.backgroundWrites?.describe(v.exchanges) ?? []),
    ],
    curl:
      check.reproducer !== undefined && input !== undefined
        ? check.reproducer(input, f, env, reproducerOptions.about)
        : toCurlScript(v.exchanges, reproducerOptions),
    ...(needs.length > 0 && check.reproducer === undefined ? { nodeTest: toNodeTest(v.exchanges, { ...reproducerOptions, needs }) } : {}),
    ...(needs.length > 0 ? { needs } : {}),
    answers,
    requestCount: v.exchanges.length,
    seed: details.seed,
    ...(details.counterexamplePath ? { path: details.counterexamplePath } : {}),
    history: v.evidence,
    replay: replayOf(check.id, details.seed, details.counterexamplePath, opts),
  };
}

const replayOf = (checkId: string, seed: number, path: string | null | undefined, opts: RunCheckOptions): string =>
  `${opts.replayCommand ?? 'npx svc-conformance run'} --check ${checkId} --seed ${seed}${path ? ` --path ${path}` : ''}`;

/**
 * A failure's needs with their `at` resolved to requests of the counterexample, each evaluated on the
 * recorded answers. A need naming an answer the case did not record is left out; needs that the
 * recorded answers all meet do not describe this failure (a judge's slip), so none are kept: the
 * reproducer then says it cannot decide rather than pass a target that still fails.
 */
function needsShown(needs: readonly AnswerNeed[], err: ClauseViolation): NeedShown[] {
  const indexOf = (seq: number | undefined): number | undefined => {
    if (seq === undefined || seq === 0) return undefined;
    const i = err.exchanges.findIndex((e) => e.seq === seq);
    return i < 0 ? undefined : i;
  };
  const judged = indexOf(err.answersJudged.judged);
  const carrying = (rv: string): number | undefined => {
    for (let i = (judged ?? err.exchanges.length) - 1; i >= 0; i--) {
      if ((err.exchanges[i]!.response?.json as { metadata?: { resourceVersion?: unknown } } | undefined)?.metadata?.resourceVersion === rv)
        return i;
    }
    return undefined;
  };
  const resolve = (at: AnswerAt): number | undefined =>
    at === 'judged'
      ? judged
      : 'page' in at
        ? indexOf(err.answersJudged.pages?.[at.page])
        : 'carrying' in at
          ? carrying(at.carrying)
          : at.request;
  const resolved: AnswerNeed[] = [];
  for (const n of needs) {
    let missing = false;
    const test = mapAt(n.test, (at) => {
      const i = resolve(at);
      if (i === undefined) missing = true;
      return { request: i ?? -1 };
    });
    if (!missing) resolved.push({ ...n, test });
  }
  const results = evaluateNeeds(resolved, (i) => (err.exchanges[i] ? answerData(err.exchanges[i]!) : undefined));
  if (results.every((r) => r.ok)) return [];
  return resolved.map((n, i) => ({ ...n, observed: results[i]!.observed, met: results[i]!.ok }));
}

/** The described steps that were sent: those begun before the failure, and how many were not. */
function sentSteps(steps: readonly string[], sent: number | undefined): string[] {
  if (sent === undefined || sent >= steps.length) return [...steps];
  return [...steps.slice(0, sent), `(${steps.length - sent} later step(s) not sent: the case stopped at this failure)`];
}

/** The violation of each replay of the case at `path` (undefined where it passed or broke otherwise). */
async function replayCase(run: CheckRunState, seed: number, path: string | undefined): Promise<(ClauseViolation | undefined)[]> {
  if (path === undefined) return [undefined];
  const out: (ClauseViolation | undefined)[] = [];
  for (let i = 0; i < SERVER_ERROR_REPLAYS; i++) {
    // The same examples: the path counts them first.
    const again = await fc.check(caseProperty(run, new Tally()), { seed, path, endOnFailure: true, examples: examplesOption(run) });
    out.push(again.failed && again.errorInstance instanceof ClauseViolation ? again.errorInstance : undefined);
  }
  return out;
}

function unrepeatedNote(err: ClauseViolation, replays: number): string {
  const first = err.serverErrors.find((e) => !e.repeated)!;
  return `infrastructure: ${first.request} answered ${first.status} and the case failed (${err.failures.map((f) => f.clause).join(', ')}); replayed ${replays} times it did not fail so again: a 5xx that does not repeat is not the target's answer`;
}
