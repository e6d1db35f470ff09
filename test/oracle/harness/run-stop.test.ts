// Why: a run stopped by --timeout or SIGTERM reports the checks it did not finish as
// notChecked with the reason, never as passed, and no check starts once the deadline has passed.
import { describe, expect, it } from 'vitest';
import { unfinishedRecords, stopLine } from '../../../runner/run-stop.ts';
import { armRunStop } from '../../../runner/phases/stop.ts';
import { scheduleChecks } from '../../../runner/scheduler.ts';
import { checkById } from '../../../suites/checks/index.ts';
import type { CheckEnv } from '../../../harness/case/index.ts';

describe('a stopped run', () => {
  it('names every clause of every unfinished check, and only those', () => {
    const recs = unfinishedRecords(
      [
        { id: 'a', clauses: ['rest:1.1', 'rest:1.2'] },
        { id: 'b', clauses: ['rest:2.1'] },
      ] as never,
      new Set(['a']),
      'SIGTERM',
    );
    expect(recs).toEqual([{ clause: 'rest:2.1', check: 'b', verdict: 'notChecked', count: 0, note: 'SIGTERM: check b did not finish' }]);
    expect(stopLine('run timeout', 5_400, 1, 2)).toBe(
      'run timeout after 5 s: 1 of 2 checks did not finish; their clauses are notChecked ("run timeout")',
    );
    expect(stopLine('run timeout', 120_200, 0, 4)).toBe('run timeout after 120 s: every check had finished; failures are not confirmed');
  });

  it('starts no check after the deadline: its clauses come back notChecked without a request', async () => {
    const check = checkById('crud-sequences')!;
    // An env whose every use throws: the check must not touch it.
    const env = new Proxy(
      {},
      {
        get: () => {
          throw new Error('the check ran');
        },
      },
    ) as CheckEnv;
    const s = scheduleChecks([check], env, { seed: 1, runs: 1 }, 1, { deadline: 1_000, now: () => 2_000 });
    const { records } = await s.result(check.id);
    expect(records.map((r) => r.clause)).toEqual([...check.clauses]);
    expect(records.every((r) => r.verdict === 'notChecked' && r.note === 'run timeout: check crud-sequences did not finish')).toBe(true);
  });

  it('starts no check once the run is halted (SIGTERM): it reports nothing, the executor names it', async () => {
    const check = checkById('crud-sequences')!;
    const env = new Proxy(
      {},
      {
        get: () => {
          throw new Error('the check ran');
        },
      },
    ) as CheckEnv;
    const started: string[] = [];
    const s = scheduleChecks([check], env, { seed: 1, runs: 1 }, 1, { halted: () => true, onStart: (id) => started.push(id) });
    expect(await s.result(check.id)).toMatchObject({ records: [], notStarted: true });
    expect(started).toEqual([]);
  });
});

describe('the signals a run hears', () => {
  it('are only those its caller listens for: stop, then hurry, then abort; disposing stops listening', async () => {
    let heard: ((s: NodeJS.Signals) => void) | undefined;
    let listening = false;
    const calls: string[] = [];
    const stop = armRunStop(60_000, {
      onHurry: (s) => calls.push(`hurry ${s}`),
      onAbort: (s) => calls.push(`abort ${s}`),
      listen: (on) => {
        heard = on;
        listening = true;
        return () => (listening = false);
      },
    });
    heard!('SIGINT');
    expect(stop.reason).toBe('SIGINT');
    expect(await stop.stopped).toBe('SIGINT');
    heard!('SIGTERM');
    expect(stop.hurriedBy).toBe('SIGTERM');
    heard!('SIGINT');
    expect(calls).toEqual(['hurry SIGTERM', 'abort SIGINT']);
    stop.dispose();
    expect(listening).toBe(false);
  });

  it('are none without a listener: an in-process run leaves the process its own handlers', () => {
    const before = [process.listenerCount('SIGINT'), process.listenerCount('SIGTERM')];
    const stop = armRunStop(60_000, { onHurry: () => undefined, onAbort: () => undefined });
    expect([process.listenerCount('SIGINT'), process.listenerCount('SIGTERM')]).toEqual(before);
    stop.dispose();
  });
});
