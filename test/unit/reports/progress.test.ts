// The live progress of a run, on fake streams with a fake clock.
import { describe, expect, it } from 'vitest';
import { clock, estimateLeftMs, oneLineReason, Progress } from '../../../reports/progress.ts';

function stream(isTTY: boolean, columns?: number) {
  const chunks: string[] = [];
  return { chunks, text: () => chunks.join(''), s: { isTTY, columns, write: (t: string) => chunks.push(t) } };
}

describe('run progress', () => {
  it('clock and estimate: minutes and seconds; no estimate before the first check ended or after the last', () => {
    expect(clock(75_000)).toBe('1:15');
    expect(clock(3_725_000)).toBe('1:02:05');
    expect(estimateLeftMs(10_000, 0, 4)).toBeUndefined();
    expect(estimateLeftMs(10_000, 1, 4)).toBe(30_000);
    expect(estimateLeftMs(10_000, 4, 4)).toBeUndefined();
    // Of 155 checks, none before 8 ended.
    expect(estimateLeftMs(10_000, 7, 155)).toBeUndefined();
    expect(estimateLeftMs(8_000, 8, 155)).toBe(147_000);
  });

  it('not a terminal: the target first, then one plain line per check with done/total, elapsed and estimate; no control characters', () => {
    let now = 0;
    const out = stream(false);
    const p = new Progress(out.s, { now: () => now });
    p.target('https://10.0.0.1:6443', 'v1.24.3', 'kubeconfig /k');
    p.begin(3);
    now = 5_000;
    p.checkStarted('a');
    now = 15_000;
    p.checkDone('rest-crud', 'a', { kind: 'ok' });
    now = 20_000;
    p.checkDone('rest-watch', 'b', { kind: 'fail', clauses: ['rest:6.1.1'] });
    p.checkDone('rest-watch', 'c', {
      kind: 'error',
      reason: 'ClientDestroyedError: The client is destroyed\n    at Client.request (undici/lib/x.js:1:2)',
    });
    p.end();
    const lines = out.text().split('\n').filter(Boolean);
    expect(lines[0]).toBe('svc-conformance: target https://10.0.0.1:6443, version v1.24.3 (kubeconfig /k)');
    expect(lines[1]).toBe('[1/3 0:15 ~0:20 left] rest-crud a: ok');
    expect(lines[2]).toBe('[2/3 0:20 ~0:08 left] rest-watch b: FAIL rest:6.1.1');
    expect(lines[3]).toBe('[3/3 0:20] rest-watch c: ERROR ClientDestroyedError: The client is destroyed');
    expect(out.text()).not.toMatch(/[\r\u001b]/);
  });

  it('a terminal that reports 0 columns gets plain lines too, never lines cut to a guessed width', () => {
    const out = stream(true, 0);
    const p = new Progress(out.s, { now: () => 0 });
    p.begin(1);
    p.checkDone('rest-crud', 'a-check-with-a-rather-long-name-indeed', { kind: 'ok' });
    p.end();
    expect(out.text()).toBe('[1/1 0:00] rest-crud a-check-with-a-rather-long-name-indeed: ok\n');
  });

  it('a terminal: a status line with what runs, cleared before every other line and at the end', () => {
    let now = 0;
    const out = stream(true, 60);
    const p = new Progress(out.s, { now: () => now, tickMs: 60_000 });
    p.begin(2);
    now = 3_000;
    p.checkStarted('watch-resume');
    expect(out.chunks.at(-1)).toBe('\r\u001b[K[0/2 0:03] · running watch-resume');
    p.line('svc-conformance: a note');
    expect(out.text()).toContain('\r\u001b[Ksvc-conformance: a note\n\r\u001b[K[0/2 0:03] · running watch-resume');
    p.end();
    expect(out.chunks.at(-1)).toBe('\r\u001b[K');
  });

  it('a reason is one line: its first line without a stack, shortened', () => {
    expect(oneLineReason('boom\n    at f (x.js:1:1)')).toBe('boom');
    expect(oneLineReason('x'.repeat(300)).length).toBe(200);
  });
});
