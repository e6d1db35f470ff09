// Why: a capability-probe finding that fails its clause ("not served: PUT of an object") was a failure
// with no counterexample and no reproducer, the one failure of a partial target a developer acts on
// first. Each such finding now carries the probe's requests and a script whose exit decides: 1 while
// the target answers as a server without the feature, 0 once it serves it.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { execFile } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { startEmbeddedTarget, type EmbeddedTarget } from '../../../runner/embedded.ts';
import { openProbeClients } from '../../../runner/env.ts';
import { probeCapabilities, type ProbedFinding } from '../../../harness/interpreters/capability-probe.ts';
import { gateChecks, PROBE_CHECK } from '../../../runner/capability-gate.ts';
import { checks } from '../../../suites/checks/index.ts';
import { profiles } from '../../../reference/profile.ts';
import { partialModes, type PartialModeName } from '../../../targets/api-server/partial-modes.ts';
import type { CheckRecord } from '../../../runner/results.ts';
import { hasCurl } from './curl.ts';

const profile = profiles.svc;
const facts = { seed: 1, replay: 'npx svc-conformance run --seed 1', runLabel: profile.runLabel, runId: 'repro0001' };

async function probe(without: readonly PartialModeName[]): Promise<{ target: EmbeddedTarget; map: ProbedFinding[] }> {
  const target = await startEmbeddedTarget({ faults: [], variations: [], without: [...without] }, profile);
  const clients = openProbeClients(target.config, facts.runId, profile, 5_000);
  try {
    return {
      target,
      map: await probeCapabilities(clients.guarded, clients.plain, { profile, runId: facts.runId, watchWaitMs: 800, typeWaitMs: 800 }),
    };
  } finally {
    await clients.close();
  }
}

const dir = mkdtempSync(path.join(tmpdir(), 'probe-repro-'));
function runFile(cmd: string, args: string[], t: EmbeddedTarget): Promise<{ code: number; out: string }> {
  return new Promise((resolve) => {
    execFile(
      cmd,
      args,
      { encoding: 'utf8', env: { ...process.env, SERVER: t.server.url, TOKEN: t.token ?? '' }, timeout: 60_000 },
      (err, stdout, stderr) => resolve({ code: err ? ((err as { code?: number }).code ?? -1) : 0, out: `${stdout}${stderr}` }),
    );
  });
}

describe.skipIf(!hasCurl)('reproducers of capability-probe findings (skipped: no curl binary)', () => {
  const all = partialModes.map((m) => m.name);
  let partial: EmbeddedTarget;
  let full: EmbeddedTarget;
  let failed: CheckRecord[];
  beforeAll(async () => {
    const probed = await probe(all);
    partial = probed.target;
    full = await startEmbeddedTarget({ faults: [], variations: [] }, profile);
    failed = gateChecks(checks, probed.map, facts).records.filter((r) => r.verdict === 'fail');
  }, 60_000);
  afterAll(async () => {
    await Promise.all([partial?.close(), full?.close()]);
  });

  it('every failed finding of an all-modes server has a counterexample naming the requests and the answer needed', () => {
    expect(failed.map((r) => r.clause).sort()).toEqual([
      'rest:2.3/metadata.name',
      'rest:4.1/patch-type/apply',
      'rest:4.1/put',
      'rest:4.6.1',
    ]);
    for (const r of failed) {
      const cx = r.counterexample!;
      expect(cx, r.clause).toBeDefined();
      expect(cx.check).toBe('capability-probe');
      expect(cx.steps[0]).toMatch(/^POST \/api\/v1\/namespaces -> 201/);
      expect(cx.needs!.every((n) => !n.met)).toBe(true);
      expect(cx.observed).toMatch(/^not served: /);
    }
    const put = failed.find((r) => r.clause === 'rest:4.1/put')!.counterexample!;
    expect(put.steps.map((s) => s.replace(/svc-conformance-\S+-capabilities/, 'NS'))).toEqual([
      'POST /api/v1/namespaces -> 201',
      'POST /api/v1/namespaces/NS/configmaps -> 201',
      expect.stringMatching(/^PUT \/api\/v1\/namespaces\/NS\/configmaps\/probe-a -> 405/),
    ]);
  });

  it('each script exits 1 against the server without the features and 0 against the full server; its node test agrees', async () => {
    for (const r of failed) {
      const cx = r.counterexample!;
      const base = path.join(dir, r.clause.replace(/[^a-z0-9.]+/gi, '_'));
      writeFileSync(`${base}.sh`, cx.curl);
      writeFileSync(`${base}.test.mjs`, cx.nodeTest!);
      const against = await runFile('bash', [`${base}.sh`], partial);
      expect(against.code, `${r.clause}: ${against.out}`).toBe(1);
      const fixed = await runFile('bash', [`${base}.sh`], full);
      expect(fixed.code, `${r.clause}: ${fixed.out}`).toBe(0);
      // The node test is the same reproducer: checked once, on PUT.
      if (r.clause !== 'rest:4.1/put') continue;
      expect((await runFile(process.execPath, ['--test', `${base}.test.mjs`], partial)).code, r.clause).not.toBe(0);
      expect((await runFile(process.execPath, ['--test', `${base}.test.mjs`], full)).code, r.clause).toBe(0);
    }
  }, 120_000);

  it('a finding recorded notServed (optional, or unbounded in time) is no failure and gets no counterexample', () => {
    const records = gateChecks(
      checks,
      [{ feature: 'paging', state: 'notServed', evidence: 'GET ... answered 200 with all 3 items' }],
      facts,
    ).records;
    expect(records.filter((r) => r.check === PROBE_CHECK).map((r) => [r.verdict, r.counterexample])).toEqual([['notServed', undefined]]);
  });
});
