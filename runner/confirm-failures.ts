/**
 * Confirmation of failures before they are reported: a check runs beside others in
 * shared namespaces, so a failure must be explained by its own requests. Each failing case is replayed
 * alone (its check only, from its seed and path); when no replay alone fails again, it is replayed
 * beside background writes (harness/case/background-writes.ts), which move cluster-wide resourceVersions
 * between its requests as other checks' writes did. The replay itself is injected (the run's check
 * stage runs the check in-process, runner/phases/settle.ts); this module only schedules, counts and labels.
 *
 *   alone 2/2                     -> reproduces alone         (the printed replay fails)
 *   alone 1/2                     -> flaky
 *   alone 0/2, with writes 2/2    -> needs concurrent writes  (the printed replay has --background-writes)
 *   alone 0/2, with writes 1/2    -> flaky
 *   alone 0/2, with writes 0/2    -> not reproduced
 *   every replay failed another clause of the case first -> not confirmed (replays failed earlier)
 *   time bound reached first      -> not confirmed (time)
 *
 * For `reproduces alone` and `needs concurrent writes` the counterexample shown is the replay's, whose
 * transcript is the one its replay command and curl script repeat (with the background writes in place).
 */
import type { CheckRecord, Confirmation, ConfirmationLabel, Counterexample } from './results.ts';

export type ReplayMode = 'alone' | 'writes';

export interface ConfirmOptions {
  /** Replays per mode (`--confirm N`). */
  readonly times: number;
  /** Clock reading after which no replay starts; the failures left are `not confirmed (time)`. */
  readonly deadline: number;
  readonly now: () => number;
  readonly replay: (check: string, cx: Counterexample, mode: ReplayMode) => Promise<readonly CheckRecord[]>;
  /**
   * Failures an expectations entry excuses by its signature: known, so not replayed (a green nightly
   * stays cheap). A failure of a listed clause that no signature matches is a regression: replayed.
   */
  readonly known?: (r: CheckRecord) => boolean;
  readonly log: (line: string) => void;
  /**
   * Waits `ms` of real time. Given, a replay still running at the deadline is left behind and counts for
   * nothing, so confirmation ends within the bound it announced; absent, a replay that started in time
   * runs to its end (the self-tests' fake clocks).
   */
  readonly sleep?: (ms: number) => Promise<void>;
}

/** Replays of one failing case, counted per clause it failed. */
interface Group {
  readonly check: string;
  readonly cx: Counterexample;
  readonly clauses: readonly string[];
  readonly alone: Map<string, number>;
  readonly writes: Map<string, number>;
  aloneRuns: number;
  writesRuns: number;
  /** Replays that failed none of the group's clauses but another one (they stopped before reaching them), and those clauses. */
  stoppedEarlier: number;
  readonly earlierClauses: Set<string>;
  /** The latest failing replay's counterexample per clause and mode. */
  readonly shown: Map<string, Counterexample>;
}

const groupKey = (r: CheckRecord) => `${r.check}\u0000${r.counterexample!.seed}\u0000${r.counterexample!.path}`;

export async function confirmFailures(records: readonly CheckRecord[], o: ConfirmOptions): Promise<CheckRecord[]> {
  const groups = new Map<string, Group>();
  for (const r of records) {
    const cx = r.counterexample;
    if (r.verdict !== 'fail' || cx?.path === undefined || o.known?.(r) === true) continue;
    const g = groups.get(groupKey(r));
    if (g) {
      if (!g.clauses.includes(r.clause)) (g.clauses as string[]).push(r.clause);
      continue;
    }
    groups.set(groupKey(r), {
      check: r.check,
      cx,
      clauses: [r.clause],
      alone: new Map(),
      writes: new Map(),
      aloneRuns: 0,
      writesRuns: 0,
      stoppedEarlier: 0,
      earlierClauses: new Set(),
      shown: new Map(),
    });
  }

  const replayInto = async (g: Group, mode: ReplayMode): Promise<boolean> => {
    const left = o.deadline - o.now();
    if (left <= 0) return false;
    const replay = o.replay(g.check, g.cx, mode);
    const again = o.sleep === undefined ? await replay : await Promise.race([replay, o.sleep(left).then(() => undefined)]);
    if (again === undefined) return false;
    const counts = mode === 'alone' ? g.alone : g.writes;
    if (mode === 'alone') g.aloneRuns++;
    else g.writesRuns++;
    const otherFailures = again.filter((x) => x.verdict === 'fail' && !g.clauses.includes(x.clause));
    if (otherFailures.length > 0 && !again.some((x) => x.verdict === 'fail' && g.clauses.includes(x.clause))) {
      g.stoppedEarlier++;
      for (const x of otherFailures) g.earlierClauses.add(x.clause);
    }
    for (const clause of g.clauses) {
      const hit = again.find((x) => x.verdict === 'fail' && x.clause === clause);
      if (hit === undefined) continue;
      counts.set(clause, (counts.get(clause) ?? 0) + 1);
      if (hit.counterexample) g.shown.set(`${mode}\u0000${clause}`, hit.counterexample);
    }
    return true;
  };

  const done = new Map<string, { confirmation: Confirmation; shown?: Counterexample }>();
  for (const [key, g] of groups) {
    let complete = true;
    for (let i = 0; i < o.times && complete; i++) complete = await replayInto(g, 'alone');
    const neverAlone = complete && g.clauses.some((c) => (g.alone.get(c) ?? 0) === 0);
    for (let i = 0; i < o.times && neverAlone && complete; i++) complete = await replayInto(g, 'writes');
    for (const clause of g.clauses) {
      const c = confirmationOf(g, clause, o.times);
      const shown =
        c.label === 'reproduces alone'
          ? g.shown.get(`alone\u0000${clause}`)
          : c.label === 'needs concurrent writes'
            ? g.shown.get(`writes\u0000${clause}`)
            : undefined;
      done.set(`${key}\u0000${clause}`, { confirmation: c, shown });
      o.log(`svc-conformance: confirmed ${clause} (${g.check}): ${confirmationLabel(c)}`);
    }
  }

  return records.map((r) => {
    const cx = r.counterexample;
    if (r.verdict !== 'fail' || cx === undefined) return r;
    const label: ConfirmationLabel | undefined =
      cx.path === undefined ? 'not confirmed (no replay path)' : o.known?.(r) === true ? 'not confirmed (known failure)' : undefined;
    if (label !== undefined) return { ...r, counterexample: { ...cx, confirmation: { label, runs: 0, reproduced: 0 } } };
    const d = done.get(`${groupKey(r)}\u0000${r.clause}`)!;
    // The replay's own counterexample where it reproduced; the run's where it did not.
    return { ...r, counterexample: { ...(d.shown ?? cx), confirmation: d.confirmation } };
  });
}

function confirmationOf(g: Group, clause: string, times: number): Confirmation {
  const alone = g.alone.get(clause) ?? 0;
  const writes = g.writes.get(clause) ?? 0;
  const base = {
    runs: g.aloneRuns,
    reproduced: alone,
    ...(g.writesRuns > 0 ? { withWrites: { runs: g.writesRuns, reproduced: writes } } : {}),
  };
  // Replays that disagree decide `flaky` however many were left when time ran out.
  const mixed = (hits: number, runs: number) => hits > 0 && hits < runs;
  if (mixed(alone, g.aloneRuns)) return { label: 'flaky', ...base };
  if (g.aloneRuns < times) return { label: 'not confirmed (time)', ...base };
  if (alone === times) return { label: 'reproduces alone', ...base };
  if (mixed(writes, g.writesRuns)) return { label: 'flaky', ...base };
  if (g.writesRuns < times) return { label: 'not confirmed (time)', ...base };
  if (writes === times) return { label: 'needs concurrent writes', ...base };
  // Every replay met another failure first: none reached this one, which is not shown to be gone.
  if (alone === 0 && writes === 0 && g.stoppedEarlier === g.aloneRuns + g.writesRuns)
    return { label: 'not confirmed (replays failed earlier)', ...base, stoppedEarlierBy: [...g.earlierClauses].sort() };
  return { label: 'not reproduced', ...base };
}

/** What a run's confirmation works within: the replays, its stop and its time. */
export interface RunConfirmation {
  readonly times: number;
  /** `--confirm-time`; absent: `confirmationBudgetMs` of the run so far. */
  readonly budgetMs: number | undefined;
  readonly eventualWindowMs: number;
  readonly started: number;
  readonly stop: { readonly reason: unknown; readonly deadline: number; readonly stopped: Promise<unknown> };
  readonly known: ((r: CheckRecord) => boolean) | undefined;
  readonly log: (line: string) => void;
  readonly replay: ConfirmOptions['replay'];
}

/**
 * A run's failures confirmed within the time it may take and the run's own deadline. A stopped run
 * confirms nothing more: its failures are reported `not confirmed (time)`, without a line per failure
 * saying so (the reports do); a signal during confirmation stops it, and what is not confirmed yet is
 * labelled so.
 */
export async function confirmWithinBudget(found: readonly CheckRecord[], c: RunConfirmation): Promise<CheckRecord[]> {
  const { stop, log } = c;
  const stopped = stop.reason !== undefined;
  const budgetMs = stopped
    ? 0
    : Math.min(c.budgetMs ?? confirmationBudgetMs(Date.now() - c.started, c.eventualWindowMs), Math.max(0, stop.deadline - Date.now()));
  if (!stopped) log(`svc-conformance: confirming failures (${c.times} replays each, at most ${Math.round(budgetMs / 1000)} s)`);
  const options: ConfirmOptions = {
    times: c.times,
    deadline: Date.now() + budgetMs,
    now: Date.now,
    known: c.known,
    log,
    replay: c.replay,
    // The bound announced above holds even for a replay that waits out windows of its own.
    sleep: (ms) => new Promise<void>((resolve) => setTimeout(resolve, Math.min(ms, 2 ** 31 - 1)).unref()),
  };
  const unconfirmedNow = () => confirmFailures(found, { ...options, deadline: 0, log: () => undefined });
  return stopped ? unconfirmedNow() : Promise.race([confirmFailures(found, options), stop.stopped.then(unconfirmedNow)]);
}

/** Every failure labelled without replays: confirmation off (`--no-confirm`). */
export function unconfirmed(records: readonly CheckRecord[]): CheckRecord[] {
  return records.map((r) =>
    r.verdict === 'fail' && r.counterexample
      ? { ...r, counterexample: { ...r.counterexample, confirmation: { label: 'not confirmed (off)', runs: 0, reproduced: 0 } } }
      : r,
  );
}

/**
 * The time confirmation may take, from the run's own settings: as long as the run itself took (so it
 * at most doubles a run), at least a minute, and at least two eventual windows (one replay may wait
 * one out legitimately).
 */
export function confirmationBudgetMs(runWallMs: number, eventualWindowMs: number): number {
  return Math.max(60_000, 2 * eventualWindowMs, runWallMs);
}

/**
 * The confirmation label of a failure as a person reads it, with the replays behind it:
 *   confirmationLabel({ label: 'reproduces alone', runs: 2, reproduced: 2 })
 *     -> 'reproduces alone (2/2 replays alone failed again)'
 */
export function confirmationLabel(c: Confirmation): string {
  if (c.runs === 0 && c.withWrites === undefined) return c.label;
  if (c.stoppedEarlierBy !== undefined) return `${c.label} (every replay failed ${c.stoppedEarlierBy.join(', ')} first)`;
  const alone = `${c.reproduced}/${c.runs} replays alone`;
  const counts =
    c.withWrites === undefined
      ? `${alone} failed again`
      : `${alone}, ${c.withWrites.reproduced}/${c.withWrites.runs} beside background writes failed again`;
  return `${c.label} (${counts})`;
}
