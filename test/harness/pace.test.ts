// The pace (harness/pace.ts) turns observed durations into stretched deadlines: never below the
// nominal value, never above its cap, the median ignoring a few long-by-design requests, the max
// keeping the one slow start that counts, old observations ageing out.
import { describe, expect, it } from 'vitest';
import { Pace, stretched } from '../../harness/pace.ts';

describe('Pace', () => {
  it('with no observation, or only fast ones, a deadline stays nominal', () => {
    const p = new Pace({ nominalMs: 1000, maxFactor: 10, statistic: 'max' });
    expect(p.stretch(15_000)).toBe(15_000);
    p.note(200);
    expect(p.stretch(15_000)).toBe(15_000);
    expect(stretched(undefined, 15_000)).toBe(15_000);
  });
  it('max: the slowest recent start stretches the deadline, up to the cap', () => {
    const p = new Pace({ nominalMs: 1000, maxFactor: 10, statistic: 'max' });
    p.note(300);
    p.note(4000);
    expect(p.stretch(15_000)).toBe(60_000);
    p.note(500_000);
    expect(p.stretch(15_000)).toBe(p.cap(15_000));
    expect(p.cap(15_000)).toBe(150_000);
  });
  it('median: a few long requests do not stretch, a slow majority does', () => {
    const p = new Pace({ nominalMs: 25, maxFactor: 8, statistic: 'median', keep: 5 });
    for (const ms of [5, 5, 5, 3000, 3000]) p.note(ms);
    expect(p.stretch(5000)).toBe(5000);
    for (const ms of [100, 100, 100]) p.note(ms);
    expect(p.stretch(5000)).toBe(20_000);
  });
  it('old observations age out as the load changes; nonsense is ignored', () => {
    const p = new Pace({ nominalMs: 1000, maxFactor: 10, statistic: 'max', keep: 2 });
    p.note(9000);
    p.note(100);
    p.note(100);
    p.note(Number.NaN);
    p.note(-5);
    expect(p.observations).toBe(2);
    expect(p.stretch(1000)).toBe(1000);
  });
});
