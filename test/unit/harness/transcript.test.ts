import { describe, expect, it } from 'vitest';
import type { Exchange } from '../../../harness/transport/exchange.ts';
import { Transcript } from '../../../harness/transport/transcript.ts';

const ex = (seq: number): Exchange => ({
  seq,
  request: { method: 'GET', path: `/p${seq}` },
  transportError: 'x',
  startedAtMs: 0,
  durationMs: 0,
});

describe('Transcript', () => {
  it('records unbound, filters by seq, clears, and keeps only the newest beyond its capacity', () => {
    const t = new Transcript(3);
    const record = t.record;
    [1, 2, 3, 4].forEach((s) => record(ex(s)));
    expect(t.all().map((e) => e.seq)).toEqual([2, 3, 4]);
    expect(t.since(2).map((e) => e.seq)).toEqual([3, 4]);
    expect(t.lastSeq()).toBe(4);
    t.clear();
    expect([t.all(), t.lastSeq()]).toEqual([[], 0]);
  });
});
