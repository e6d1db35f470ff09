/**
 * Whether a target slowed down steadily over a run. The request pace (harness/transport/pace.ts) stretches the
 * suite's windows as the target slows, never past its cap, so a target that keeps slowing is still
 * judged; but waits cut at the cap, and results that rest on timing, are read differently once the
 * report says so. Named only for a steady rise: the median round trip of each fifth of the run's
 * requests (in the order they were answered) no lower than the fifth before (within a tenth), the last
 * at least 3 times and 50 ms above the first. A busy moment that passes is not a slowdown.
 *
 *   slowdownOf([5, 5, ..., 40, ..., 300], 8) -> { segmentsMs: [5, 20, 60, 150, 300], factor: 60, line: 'the target slowed down steadily: ...' }
 */
export interface Slowdown {
  /** The median round trip of each fifth of the run's requests, in milliseconds. */
  readonly segmentsMs: readonly number[];
  /** Last fifth's median over the first's. */
  readonly factor: number;
  readonly line: string;
}

const SEGMENTS = 5;
/** Fewer requests than this per fifth say nothing of a trend. */
const MIN_PER_SEGMENT = 20;
const MIN_FACTOR = 3;
const MIN_RISE_MS = 50;
/** A fifth may be this much faster than the one before and the rise still count as steady (noise). */
const NOISE = 0.9;

function median(xs: readonly number[]): number {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.floor((s.length - 1) / 2)]!;
}

/** `durationsMs`: round trips in the order answered; `capFactor`: how far the pace stretches a window at most. */
export function slowdownOf(durationsMs: readonly number[], capFactor: number): Slowdown | undefined {
  const size = Math.floor(durationsMs.length / SEGMENTS);
  if (size < MIN_PER_SEGMENT) return undefined;
  const segmentsMs = Array.from({ length: SEGMENTS }, (_, i) => Math.round(median(durationsMs.slice(i * size, (i + 1) * size))));
  const first = segmentsMs[0]!;
  const last = segmentsMs[SEGMENTS - 1]!;
  const steady = segmentsMs.every((m, i) => i === 0 || m >= segmentsMs[i - 1]! * NOISE);
  const factor = last / Math.max(first, 1);
  if (!steady || factor < MIN_FACTOR || last - first < MIN_RISE_MS) return undefined;
  const shown = Math.round(factor * 10) / 10;
  return {
    segmentsMs,
    factor: shown,
    line: `the target slowed down steadily: median round trip ${first} ms in the first fifth of the run's requests, ${last} ms in the last (${shown}x; by fifths ${segmentsMs.join(', ')} ms); waits stretch with it up to ${capFactor}x their nominal length, and a wait cut there decides nothing`,
  };
}
