/**
 * Runs independent checks concurrently, at most `parallel` at once. Each check keeps its own
 * transcript, footprint and case labels (runner/run-check.ts) and leases its namespaces exclusively
 * (harness/case/namespace-pool.ts), so no verdict depends on what runs beside it. Results are looked up by
 * check id, so reports follow check order, never completion order.
 */
import type { AnyCheck, CheckEnv } from '../harness/case/index.ts';
import type { CheckRecord } from './results.ts';
import { emptyFootprint, type CheckFootprint } from '../harness/case/index.ts';
import { runCheck, type RunCheckOptions } from './run-check.ts';
import { unfinishedRecords } from './run-stop.ts';
import { Slots, waiterLimitOf } from './slots.ts';
import { featureNeedsOf } from '../suites/checks/feature-needs.ts';
import { startsBesideSlots } from './long-waits.ts';

/**
 * Checks that wait on what a target may never do: the events of their own writes, a type they define
 * to be served. They never hold every slot at once (runner/slots.ts).
 */
export const waitsOnTarget = (checkId: string): boolean =>
  featureNeedsOf(checkId).some((f) => f === 'watch-delivery' || f === 'crd-serving');

/** Suits a 2-core machine and a real cluster: most of a check's time is waiting on the target. */
export const DEFAULT_PARALLEL = 4;

/**
 * Checks that take longest against a real cluster start first (longest-processing-time order), so the
 * run does not end waiting on one long check started last: namespace deletions waited out one case
 * after another, shrinking through 3-second waits for a future resourceVersion, long random sequences.
 * Only the start order changes; reports follow check order.
 */
const LONG_FIRST = [
  'paging-snapshot',
  'crud-sequences',
  'names-and-scope',
  'daemon-leader-lease',
  'too-large-resource-version',
  'apply-sequences-configmaps',
  'dry-run-sequences',
  'deprecated-versions',
  'negotiation-accept-lists',
  'watch-bookmarks',
  'table-shape',
];

export function startOrder<T extends { readonly id: string }>(checks: readonly T[]): T[] {
  const rank = (id: string) => {
    const i = LONG_FIRST.indexOf(id);
    return i < 0 ? LONG_FIRST.length : i;
  };
  return [...checks].sort((a, b) => rank(a.id) - rank(b.id));
}

export interface CheckOutcome {
  readonly records: CheckRecord[];
  readonly footprint: CheckFootprint;
  /** The run stopped (`halted`) before the check's turn: it did not start and reports nothing. */
  readonly notStarted?: true;
}

export interface Scheduled {
  result(checkId: string): Promise<CheckOutcome>;
  /** Settles when every scheduled check has. */
  readonly done: Promise<void>;
}

export interface ScheduleOptions {
  /** Epoch ms (the run's `--timeout`): a check whose turn comes after it reports its clauses not started. */
  readonly deadline?: number;
  readonly now?: () => number;
  /** True once the run stops (SIGTERM, Ctrl-C): no further check starts. */
  readonly halted?: () => boolean;
  /** A check's turn came and it starts (the live progress names it). */
  readonly onStart?: (checkId: string) => void;
}

export function scheduleChecks(
  checks: readonly AnyCheck[],
  env: CheckEnv,
  opts: RunCheckOptions,
  parallel: number,
  o: ScheduleOptions = {},
): Scheduled {
  const { deadline = Infinity, now = Date.now } = o;
  const limit = Math.max(1, parallel);
  const slots = new Slots(limit, waiterLimitOf(limit));
  const results = new Map<string, Promise<CheckOutcome>>();
  for (const check of startOrder(checks)) {
    results.set(
      check.id,
      (async () => {
        const free = startsBesideSlots(check.id, limit) ? () => undefined : await slots.take(waitsOnTarget(check.id));
        const footprint = emptyFootprint(check.id);
        try {
          if (o.halted?.() === true) return { records: [], footprint, notStarted: true as const };
          if (now() >= deadline) return { records: unfinishedRecords([check], new Set(), 'run timeout'), footprint };
          o.onStart?.(check.id);
          return { records: await runCheck(check, env, opts, footprint), footprint };
        } finally {
          free();
        }
      })(),
    );
  }
  const done = Promise.allSettled([...results.values()]).then(() => undefined);
  return {
    result: (id) => results.get(id) ?? Promise.reject(new Error(`check ${id} was not scheduled`)),
    done,
  };
}
