/**
 * The probes before the checks create one namespace, not two: the capability probe works in the one the
 * namespace-setup probe made (its guard saw the run create it) and deletes it, so the checks start with
 * no namespace of the run's left, and a run without the setup probe still makes the capability probe's
 * own. Seen from a recording proxy in front of the target, through the executor, with a stage that runs
 * nothing.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createServer, request, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { startEmbeddedTarget, type EmbeddedTarget } from '../../../runner/embedded.ts';
import { executeRun, type RunOutcome } from '../../../runner/executor.ts';
import { planRun } from '../../../runner/plan.ts';
import type { CheckStage } from '../../../runner/check-stage.ts';
import { profiles } from '../../../reference/profile.ts';

const dir = mkdtempSync(path.join(tmpdir(), 'probe-namespace-'));
let embedded: EmbeddedTarget;
let proxy: Server;
let proxyUrl: string;
/** Every request the target got, as `METHOD path`, in order. */
const seen: string[] = [];
/** Requests (`METHOD path`) answered 403 once, unforwarded: a delete the probe cannot make. */
const refuseOnce = new Set<string>();

beforeAll(async () => {
  embedded = await startEmbeddedTarget({}, profiles.svc);
  writeFileSync(path.join(dir, 'token'), embedded.token!);
  const upstream = new URL(embedded.config.server);
  proxy = createServer((req, res) => {
    const line = `${req.method} ${req.url!.split('?')[0]}`;
    seen.push(line);
    if (refuseOnce.delete(line)) {
      res.writeHead(403, { 'content-type': 'application/json' });
      res.end(JSON.stringify({ kind: 'Status', apiVersion: 'v1', status: 'Failure', reason: 'Forbidden', code: 403 }));
      return;
    }
    const out = request({ host: upstream.hostname, port: upstream.port, method: req.method, path: req.url, headers: req.headers }, (up) => {
      res.writeHead(up.statusCode!, up.headers);
      res.flushHeaders();
      up.pipe(res);
    });
    out.on('error', () => res.destroy());
    req.pipe(out);
  });
  await new Promise<void>((resolve) => proxy.listen(0, '127.0.0.1', resolve));
  proxyUrl = `http://127.0.0.1:${(proxy.address() as AddressInfo).port}`;
});
afterAll(async () => {
  proxy.closeAllConnections();
  await new Promise((resolve) => proxy.close(resolve));
  await embedded.close();
});

/** The requests sent before the first check would start, and those of the whole run. */
async function probesOf(
  extra: { preflight?: boolean },
  runId = newId(),
): Promise<{ before: string[]; runId: string; outcome: RunOutcome }> {
  seen.length = 0;
  const planned = planRun(
    {
      server: proxyUrl,
      tokenFile: path.join(dir, 'token'),
      profile: 'svc',
      runs: 1,
      suite: ['rest-crud'],
      reports: dir,
      output: 'text',
      confirm: false,
      timeout: 120_000,
      eventualWindow: 3_000,
      ...extra,
    },
    { seed: 1, runId, cwd: dir },
  );
  let before: string[] = [];
  const stage: CheckStage = async (req) => {
    before = [...seen];
    return { records: [], errors: [], footprints: [], finished: req.checks.map((c) => c.id) };
  };
  const outcome = await executeRun(planned.plan!, { log: () => undefined, stage });
  return { before, runId, outcome };
}

const newId = () =>
  `ns${Math.floor(Math.random() * 1e6)
    .toString()
    .padStart(6, '0')}`;

const namespacePosts = (reqs: readonly string[]) => reqs.filter((r) => r === 'POST /api/v1/namespaces');

describe('the probes before the checks', () => {
  it('make one namespace: the capability probe works in the setup probe’s and deletes it', async () => {
    const { before, runId } = await probesOf({});
    const setup = `svc-conformance-${runId}-setup`;
    expect(namespacePosts(before)).toHaveLength(1);
    // The capability probe wrote in it and deleted it before the first check.
    expect(before).toContain(`POST /api/v1/namespaces/${setup}/configmaps`);
    expect(before).toContain(`DELETE /api/v1/namespaces/${setup}`);
    expect(before.some((r) => r.includes('-capabilities'))).toBe(false);
  }, 60_000);

  it('without the setup probe (--no-preflight) the capability probe makes its own', async () => {
    const { before, runId } = await probesOf({ preflight: false });
    expect(namespacePosts(before)).toHaveLength(1);
    expect(before).toContain(`DELETE /api/v1/namespaces/svc-conformance-${runId}-capabilities`);
  }, 60_000);

  it("a setup namespace the probe could not delete is the run's cleanup's, by its label", async () => {
    const runId = newId();
    const setup = `DELETE /api/v1/namespaces/svc-conformance-${runId}-setup`;
    refuseOnce.add(setup);
    const { before, outcome } = await probesOf({}, runId);
    expect(before.filter((r) => r === setup)).toHaveLength(1);
    expect(seen.filter((r) => r === setup)).toHaveLength(2);
    expect(outcome.run.swept?.leftovers).toEqual([]);
  }, 60_000);
});
