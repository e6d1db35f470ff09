/**
 * How slow the target answers right now, learned from the run's own observations, so the suite's
 * self-imposed deadlines (the ones no spec clause fixes: a readiness wait, a probe timeout, an
 * eventual window) stretch on a busy machine instead of turning slowness into a verdict.
 * A deadline is its nominal value times the factor by which the observed durations exceed their
 * nominal one, never less than nominal and never more than `maxFactor` times it:
 *
 *   const p = new Pace({ nominalMs: 1000, maxFactor: 10, statistic: 'max' });
 *   p.stretch(15_000) -> 15000;  p.note(4000); p.stretch(15_000) -> 60000;  p.note(60_000); p.stretch(15_000) -> 150000
 *
 * Running out of a stretched deadline is still never a failure of the target: the caller's verdict
 * is `inconclusive` (the spec fixes no bound) or `error` (the suite or the transport broke).
 */
import { slowdownOf, type Slowdown } from './pace-trend.ts';

export interface PaceOptions {
  /** How long one observed operation takes on an unloaded machine. */
  readonly nominalMs: number;
  /** The stretch never exceeds this factor (a bound on how long a broken target can hold the run). */
  readonly maxFactor: number;
  /**
   * `median` for frequent operations where a few are long by design (requests: a read waiting for a
   * future resourceVersion); `max` for rare ones where each counts (daemon starts).
   */
  readonly statistic: 'median' | 'max';
  /** How many recent observations count; older ones age out as the load changes. Default 32. */
  readonly keep?: number;
  /** Keep every observation of the run too, to tell whether the target slowed down steadily (harness/transport/pace-trend.ts). */
  readonly trend?: boolean;
}

export class Pace {
  private readonly recent: number[] = [];
  /** The same observations in ascending order, kept as they come and go: every request reads the median. */
  private readonly sorted: number[] = [];
  private readonly all: number[] = [];

  constructor(private readonly o: PaceOptions) {}

  note(ms: number): void {
    if (!Number.isFinite(ms) || ms < 0) return;
    if (this.o.trend === true) this.all.push(ms);
    this.recent.push(ms);
    this.sorted.splice(insertionPoint(this.sorted, ms), 0, ms);
    if (this.recent.length > (this.o.keep ?? 32)) {
      const old = this.recent.shift()!;
      this.sorted.splice(insertionPoint(this.sorted, old) - 1, 1);
    }
  }

  get observations(): number {
    return this.recent.length;
  }

  /** Observed over nominal, at least 1, at most `maxFactor`. */
  factor(): number {
    if (this.recent.length === 0) return 1;
    const sorted = this.sorted;
    const seen = this.o.statistic === 'max' ? sorted[sorted.length - 1]! : sorted[Math.floor((sorted.length - 1) / 2)]!;
    return Math.min(this.o.maxFactor, Math.max(1, seen / this.o.nominalMs));
  }

  stretch(ms: number): number {
    return Math.round(ms * this.factor());
  }

  /** Whether the run's observations rose steadily (only with `trend`). */
  slowdown(): Slowdown | undefined {
    return slowdownOf(this.all, this.o.maxFactor);
  }

  /** The longest any stretch can become. */
  cap(ms: number): number {
    return Math.round(ms * this.o.maxFactor);
  }
}

/** The index after the last element of ascending `xs` that is <= x. */
function insertionPoint(xs: readonly number[], x: number): number {
  let lo = 0;
  let hi = xs.length;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if (xs[mid]! <= x) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

/** A deadline stretched by `pace` when there is one (environments built by hand in tests have none). */
export const stretched = (pace: Pace | undefined, ms: number): number => (pace ? pace.stretch(ms) : ms);

/**
 * Request round trips: an unloaded embedded server answers in a few milliseconds, a remote cluster in
 * tens. The median of the recent requests over 25 ms scales the eventual and watch windows, at most 8x.
 */
export const requestPace = (): Pace => new Pace({ nominalMs: 25, maxFactor: 8, statistic: 'median', keep: 64, trend: true });

/**
 * Controller daemon starts (launch to serving, or to exit): a second on an unloaded machine. The
 * slowest recent one over that scales every daemon wait, at most 10x.
 */
export const daemonPace = (): Pace => new Pace({ nominalMs: 1000, maxFactor: 10, statistic: 'max', keep: 8 });

/**
 * Answers of a serving daemon (a probe, a TLS handshake): a few milliseconds unloaded. The slowest
 * recent one over 500 ms lengthens the first timeout of the next probes (twice that answer for a 1 s
 * timeout), at most 20x, so a daemon seen answering late is not asked again with a timeout it misses.
 */
export const answerPace = (): Pace => new Pace({ nominalMs: 500, maxFactor: 20, statistic: 'max', keep: 16 });
