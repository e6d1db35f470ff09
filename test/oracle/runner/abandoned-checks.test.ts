// Why: a check abandoned when the run stopped went on in the background, and its late
// end (often the error of a request the stop cut) was printed after "reports written", a line no report
// showed. Once the stage hands its part back, an abandoned check is no longer heard of; a second signal
// ends the grace at once.
import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { directStage, type StageRequest } from '../../../runner/check-stage.ts';
import { defaultTargetSettings } from '../../../runner/env.ts';
import type { AnyCheck } from '../../../harness/case/check.ts';
import type { SuiteSettings } from '../../../suites/settings.ts';

/** A check whose one case waits until `release()`: it ends only when the test says so. */
function heldCheck(): { check: AnyCheck; release: () => void } {
  let release!: () => void;
  const held = new Promise<void>((resolve) => (release = resolve));
  const check: AnyCheck = {
    id: 'held-check',
    suite: 'rest-crud',
    title: 'a check that waits',
    clauses: ['rest:4.1/post'],
    arbitrary: () => fc.constant(1),
    describe: () => ['wait'],
    run: async () => held,
  };
  return { check, release };
}

/** The stop comes once the check has started (a stop before it would start nothing). */
const soon = () => new Promise<void>((resolve) => setTimeout(resolve, 30));

const settings: SuiteSettings = {
  // Never contacted: the held check sends nothing.
  target: { server: 'http://127.0.0.1:9', tls: { insecureSkipTlsVerify: false }, headers: {}, source: 'test' },
  profile: 'svc',
  runId: 'abandon1',
  seed: 1,
  runs: 1,
  targetSettings: defaultTargetSettings,
  replayCommand: 'svc-conformance run',
};

/** One check's stage, stopped 30 ms in, with `graceMs` for the running check to end. */
const stopped = (check: AnyCheck, graceMs: number): StageRequest => ({
  checks: [check],
  settings,
  sequential: false,
  second: false,
  total: 1,
  done: 0,
  stop: soon(),
  graceMs,
});

describe('a stage stopped with checks still running', () => {
  it('hands back what ended; a check that ends after that is not reported (no late line)', async () => {
    const { check, release } = heldCheck();
    const done: string[] = [];
    const stage = directStage({ events: { checkDone: (c) => done.push(c.id) } });
    const part = await stage(stopped(check, 100));
    expect(part.finished).toEqual([]);
    release();
    await new Promise((resolve) => setTimeout(resolve, 100));
    expect(done).toEqual([]);
  });

  it('a check that ends within the grace is reported as usual (the control)', async () => {
    const { check, release } = heldCheck();
    const done: string[] = [];
    const stage = directStage({ events: { checkDone: (c) => done.push(c.id) } });
    setTimeout(release, 60);
    const part = await stage(stopped(check, 5_000));
    expect(part.finished).toEqual(['held-check']);
    expect(done).toEqual(['held-check']);
  });

  it('a second signal (hurry) ends the grace at once', async () => {
    const { check, release } = heldCheck();
    const stage = directStage();
    const started = Date.now();
    const part = await stage({ ...stopped(check, 60_000), hurry: Promise.resolve() });
    // Well below the minute of grace (a generous bound, not a speed claim).
    expect(Date.now() - started).toBeLessThan(30_000);
    expect(part.finished).toEqual([]);
    release();
  });

  it('an abandoned check reaches the target no more: its requests after the grace are refused, not sent', async () => {
    // A write of an abandoned check that landed after the run listed what it leaves was named nowhere.
    const paths: string[] = [];
    const server = createServer((req, res) => {
      paths.push(req.url ?? '');
      res.writeHead(200, { 'content-type': 'application/json' }).end('{"kind":"Status","apiVersion":"v1","status":"Success"}');
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    try {
      let release!: () => void;
      const held = new Promise<void>((resolve) => (release = resolve));
      let sent: Promise<unknown> | undefined;
      const check: AnyCheck = {
        ...heldCheck().check,
        run: async (_input, cx) => {
          await held;
          sent = cx.env.target.send({ method: 'GET', path: '/api/v1/namespaces/default/configmaps/late' });
          await sent;
        },
      };
      const target = { ...settings.target, server: `http://127.0.0.1:${(server.address() as AddressInfo).port}` };
      await directStage()({ ...stopped(check, 100), settings: { ...settings, target } });
      release();
      await held;
      await new Promise((resolve) => setTimeout(resolve, 50));
      expect(sent).toBeDefined();
      await expect(sent).rejects.toThrow();
      expect(paths.filter((p) => p.includes('/late'))).toEqual([]);
    } finally {
      server.closeAllConnections();
      await new Promise((resolve) => server.close(resolve));
    }
  });
});
