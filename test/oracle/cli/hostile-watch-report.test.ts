// Why: a nightly run tells a failure when it finds it, not only in the reports at its end:
// a run of the watch suite against a server that drops events says `failure found (rest:6.1.1 ...` on
// its terminal within two minutes, then ends nonconformant with the clause failed.
import { describe, expect, it } from 'vitest';
import path from 'node:path';
import { reportsFolder, runCli, summaryOf } from './hostile-run.ts';

const dir = reportsFolder();

describe('a watch fault is reported within two minutes', () => {
  let run: ReturnType<typeof runCli> | undefined;
  const reports = path.join(dir, 'watch-drop-events');

  it('the failure is told as soon as it is found', async () => {
    run = runCli(['--suite', 'rest-watch', '--fault', 'watch-drop-events', '--reports', reports]);
    const started = run;
    // Woken by each line the run writes (no polling); a run that ends without telling fails here at once.
    const told = () => /failure found \(rest:6\.1\.1/.test(started.stderr());
    await new Promise<void>((resolve, reject) => {
      const check = () => {
        if (!told()) return;
        started.child.stderr!.off('data', check);
        resolve();
      };
      started.child.stderr!.on('data', check);
      void started.exited.then((code) => (told() ? resolve() : reject(new Error(`the run ended (${code}) without telling the failure:\n${started.stderr()}`))));
      check();
    });
  }, 120_000);

  it('the run ends with rest:6.1.1 failed in its reports', async () => {
    if (!run) throw new Error('the run of the previous test did not start');
    const code = await run.exited;
    expect(code, run.stderr()).toBe(1);
    const s = summaryOf(reports);
    expect(s.clauses.find((c) => c.id === 'rest:6.1.1')?.status).toBe('failed');
    // The whole run (shrinking within its budget, confirmation) took 72-101 s alone on two cores; the
    // limit leaves room for a machine shared with other runs.
  }, 180_000);
});
