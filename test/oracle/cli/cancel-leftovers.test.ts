// Why: CI's cancel (SIGINT, then SIGTERM seconds later) and a person's second Ctrl-C
// ended the run at once: no report, no list of what it left on the cluster, no command to remove it,
// and the run's namespaces stayed. Against a served target (the reference server, as an external one,
// behind a proxy that holds every DELETE so the run's own cleanup cannot finish in time): the cancelled
// run exits, prints what is left and the command that removes it, writes both into summary.json with
// the verdict "interrupted", and that command leaves nothing of the run. A run killed outright
// (SIGKILL) is cleaned the same way, and `cleanup --dry-run` deletes nothing.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { ReferenceServer } from '../../../targets/api-server/index.ts';
import { profiles } from '../../../reference/profile.ts';
import type { Target } from '../../../harness/transport/exchange.ts';
import { findRunObjects } from '../../../runner/run-objects.ts';
import { referenceBehindProxy, type ProxiedReference, type TargetProxy } from './target-proxy.ts';

const bin = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../../bin/svc-conformance.mjs');
const dir = mkdtempSync(path.join(tmpdir(), 'svc-conformance-cancel-'));
const profile = profiles.svc;
let server: ReferenceServer;
let proxy: TargetProxy;
let client: Target;

let served: ProxiedReference;

beforeAll(async () => {
  served = await referenceBehindProxy(profile);
  ({ server, proxy, client } = served);
});
afterAll(() => served.close());

interface Started {
  child: ChildProcess;
  runId: string;
  stderr: () => string;
  stdout: () => string;
  exited: Promise<number | null>;
}

/** A default run against the proxy, once it has created namespaces of its own on the server. */
const startRun = (reports: string): Promise<Started> => startRunWith(reports, []);

async function startRunWith(reports: string, extra: readonly string[]): Promise<Started> {
  const child = spawn(process.execPath, [bin, 'run', '--server', proxy.url, '--reports', reports, ...extra], {
    env: { ...process.env, KUBECONFIG: '' },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stderr = '';
  let stdout = '';
  child.stderr!.on('data', (d: Buffer) => (stderr += d.toString()));
  child.stdout!.on('data', (d: Buffer) => (stdout += d.toString()));
  const exited = new Promise<number | null>((resolve) =>
    child.on('exit', (code, signal) => resolve(code ?? (signal === 'SIGKILL' ? 137 : null))),
  );
  let runId: string | undefined;
  for (const until = Date.now() + 60_000; Date.now() < until; await sleep(200)) {
    runId ??= /run id (\w+)/.exec(stderr)?.[1];
    if (runId !== undefined && (await objectsOf(runId)).some((o) => o.kind === 'Namespace'))
      return { child, runId, stderr: () => stderr, stdout: () => stdout, exited };
  }
  child.kill('SIGKILL');
  throw new Error(`the run created no namespace within 60 s:\n${stderr}`);
}

const objectsOf = async (runId: string) =>
  (await findRunObjects(client, profile.runLabel, { runId })).objects.filter((o) => !o.terminating);
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

function cli(args: string[]): Promise<{ code: number | null; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, [bin, ...args], { env: { ...process.env, KUBECONFIG: '' } });
    let stdout = '',
      stderr = '';
    child.stdout.on('data', (d: Buffer) => (stdout += d.toString()));
    child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
    child.on('exit', (code) => resolve({ code, stdout, stderr }));
  });
}

interface Summary {
  verdict: string;
  errors: string[];
  leftovers?: { kind: string; name: string; state: string; command: string }[];
  cleanupCommand?: string;
}

describe('a cancelled run leaves nothing it does not name', () => {
  it("SIGINT, then SIGTERM 2 s later (CI's cancel): exits, names what is left and the command; that command removes all of it", async () => {
    const reports = path.join(dir, 'cancel');
    const run = await startRun(reports);
    const command = `svc-conformance cleanup --run-id ${run.runId} --server ${proxy.url}`;
    proxy.mode = 'hold-deletes';
    try {
      run.child.kill('SIGINT');
      await sleep(2_000);
      const termAt = Date.now();
      run.child.kill('SIGTERM');
      const code = await run.exited;
      const stderr = run.stderr();
      expect(code, stderr).toBe(130);
      // The hurried end is bounded, whatever the target holds (a generous limit, not a speed claim).
      expect(Date.now() - termAt).toBeLessThan(20_000);
      expect(stderr).toContain(`remove what run ${run.runId} leaves with: ${command}`);

      const summary = JSON.parse(readFileSync(path.join(reports, 'summary.json'), 'utf8')) as Summary;
      expect(summary.verdict).toBe('interrupted');
      expect(summary.cleanupCommand).toBe(command);
      const left = summary.leftovers ?? [];
      expect(left.length, stderr).toBeGreaterThan(0);
      expect(stderr).toMatch(new RegExp(`run ${run.runId} left ${left.length} object\\(s\\) behind`));
      for (const l of left) expect(stderr).toContain(`${l.kind} ${l.name} (${l.state}): ${l.command}`);
      // What the report names is what is there.
      const there = (await findRunObjects(client, profile.runLabel, { runId: run.runId })).objects.map((o) => o.name).sort();
      expect(left.map((l) => l.name).sort()).toEqual(there);
      expect(summary.errors.some((e) => e.includes(`remove them with: ${command}`))).toBe(true);
      // The held deletes never reached the server.
      expect(proxy.held).toBeGreaterThan(0);
    } finally {
      proxy.release();
      proxy.mode = 'pass';
    }

    const cleaned = await cli(command.split(' ').slice(1));
    expect(cleaned.code, cleaned.stdout + cleaned.stderr).toBe(0);
    expect(cleaned.stdout).toMatch(/nothing is left/);
    expect((await findRunObjects(client, profile.runLabel, { runId: run.runId })).objects).toEqual([]);
  }, 120_000);

  it('--timeout 10s while the target holds every delete: ends within the documented bound, names what is left, blames no target', async () => {
    const reports = path.join(dir, 'timeout');
    const started = Date.now();
    const run = await startRunWith(reports, ['--timeout', '10s']);
    proxy.mode = 'hold-deletes';
    try {
      const code = await run.exited;
      const stderr = run.stderr();
      expect(code, stderr).toBe(3);
      // D + the grace, the bounded cleanup and its last listing (13 s), the reports and the CLI's start:
      // a generous limit for a busy machine, not a speed claim.
      expect(Date.now() - started).toBeLessThan(10_000 + 13_000 + 15_000);
      expect(stderr).toMatch(/run timeout after \d+ s/);
      // Checks cut by the run's own stop are never a target that cannot be reached.
      expect(stderr + run.stdout()).not.toMatch(/cannot reach/);
      // After the reports are written, no check's line: nothing the reports do not show.
      const after = stderr.slice(stderr.indexOf('reports written'));
      expect(after).not.toMatch(/^\[\s*\d+\/\d+/m);
      const summary = JSON.parse(readFileSync(path.join(reports, 'summary.json'), 'utf8')) as Summary;
      expect(summary.verdict).not.toBe('interrupted');
      expect((summary.leftovers ?? []).length, stderr).toBeGreaterThan(0);
      for (const l of summary.leftovers ?? []) expect(stderr).toContain(l.name);
    } finally {
      proxy.release();
      proxy.mode = 'pass';
    }
    const cleaned = await cli(['cleanup', '--run-id', run.runId, '--server', proxy.url]);
    expect(cleaned.code, cleaned.stdout).toBe(0);
    expect((await findRunObjects(client, profile.runLabel, { runId: run.runId })).objects).toEqual([]);
  }, 120_000);

  it('SIGKILL: cleanup --dry-run lists the run’s objects and deletes nothing; cleanup removes them all', async () => {
    const run = await startRun(path.join(dir, 'killed'));
    run.child.kill('SIGKILL');
    await run.exited;
    // What the killed run had sent lands before the listing, not between it and the dry run's.
    await proxy.settled();
    const before = (await objectsOf(run.runId)).map((o) => o.name).sort();
    expect(before.length).toBeGreaterThan(0);

    const dry = await cli(['cleanup', '--run-id', run.runId, '--server', proxy.url, '--dry-run']);
    expect(dry.code, dry.stderr).toBe(0);
    for (const name of before) expect(dry.stdout).toContain(name);
    expect((await objectsOf(run.runId)).map((o) => o.name).sort()).toEqual(before);

    const real = await cli(['cleanup', '--run-id', run.runId, '--server', proxy.url]);
    expect(real.code, real.stdout + real.stderr).toBe(0);
    expect((await findRunObjects(client, profile.runLabel, { runId: run.runId })).objects).toEqual([]);
    // Nothing of any run of the suite is left on the server (namespaces and labelled cluster-scoped objects).
    expect((await findRunObjects(client, profile.runLabel, 'all')).objects).toEqual([]);
  }, 120_000);
});
