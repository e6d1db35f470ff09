// The pace (harness/transport/pace.ts) turns observed durations into stretched deadlines: never below the
// nominal value, never above its cap, the median ignoring a few long-by-design requests, the max
// keeping the one slow start that counts, old observations ageing out.
import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { Pace, stretched } from '../../../harness/transport/pace.ts';

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
  it('the order kept as observations come and age out gives the median and max a sort of the recent ones gives', () => {
    fc.assert(
      fc.property(
        fc.array(fc.oneof(fc.nat(200), fc.constantFrom(-1, Number.NaN, 25, 25)), { maxLength: 200 }),
        fc.constantFrom('median', 'max'),
        fc.integer({ min: 1, max: 9 }),
        (obs, statistic, keep) => {
          const p = new Pace({ nominalMs: 10, maxFactor: 100, statistic, keep });
          const recent: number[] = [];
          for (const ms of obs) {
            p.note(ms);
            if (Number.isFinite(ms) && ms >= 0) recent.push(ms);
            const window = recent.slice(-keep).sort((a, b) => a - b);
            const seen = window.length === 0 ? 0 : statistic === 'max' ? window.at(-1)! : window[Math.floor((window.length - 1) / 2)]!;
            expect(p.factor()).toBe(window.length === 0 ? 1 : Math.min(100, Math.max(1, seen / 10)));
          }
        },
      ),
    );
  });
});
