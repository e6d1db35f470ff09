// Why: a failure whose failing request is the case's own setup (the create of its namespace) had a
// reproducer that stopped at that request with exit 2, "cannot run": the one script a partial target
// needs most decided nothing. The request the failure is about is now sent and judged: exit 1 while
// the target refuses it, 0 once it serves it.
import { describe, expect, it } from 'vitest';
import { execFile } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { referenceServer } from '../../helpers/reference-server.ts';
import { runPlanned } from '../../helpers/planned-run.ts';
import { hasCurl } from './curl.ts';

describe.skipIf(!hasCurl)('the reproducer of a failed setup request (skipped: no curl binary)', () => {
  it('exits 1 against a target that refuses the namespace create, 0 against one that serves it', async () => {
    const faulty = await referenceServer({ faults: ['namespaces-not-creatable'] });
    const clean = await referenceServer();
    try {
      const { records } = await runPlanned({
        options: { server: faulty.url, check: ['generated-names'], runs: 1 },
        seed: 1,
        runId: 'setup1',
      });
      const cx = records.find((r) => r.verdict === 'fail')?.counterexample;
      expect(cx?.clause).toBe('rest:4.1/post');
      expect(cx!.curl).toMatch(/^call 0 \\\n\s+-X POST/m);
      const file = path.join(mkdtempSync(path.join(tmpdir(), 'setup-repro-')), 'replay.sh');
      writeFileSync(file, cx!.curl);
      const runScript = (url: string) =>
        new Promise<{ code: number | null; out: string }>((resolve) => {
          execFile('bash', [file], { encoding: 'utf8', env: { ...process.env, SERVER: url } }, (err, stdout) =>
            resolve({ code: err ? ((err as { code?: number }).code ?? null) : 0, out: stdout }),
          );
        });
      const against = await runScript(faulty.url);
      expect(against.code, against.out).toBe(1);
      expect(against.out).toMatch(/answered 403/);
      expect((await runScript(clean.url)).code).toBe(0);
    } finally {
      await faulty.close();
      await clean.close();
    }
  }, 60_000);

  it('in namespaces named by --namespace, decides twice in a row and leaves the namespaces, holding none of its objects', async () => {
    const namespaces = ['team-a', 'team-b'];
    const faulty = await referenceServer({ faults: ['namespaces-not-creatable', 'wrong-list-kind'], namespaces });
    const clean = await referenceServer({ faults: ['namespaces-not-creatable'], namespaces });
    try {
      const { records } = await runPlanned({
        options: { server: faulty.url, namespace: namespaces, check: ['crud-sequences'], runs: 5 },
        seed: 4242,
        runId: 'given1',
      });
      const cx = records.find((r) => r.verdict === 'fail' && r.clause === 'rest:2.4.1')?.counterexample;
      expect(cx, 'the planted fault is caught').toBeDefined();
      expect(cx!.curl).not.toMatch(/-X POST[^\n]*\n?[^\n]*\/api\/v1\/namespaces['"]?\s/);
      const file = path.join(mkdtempSync(path.join(tmpdir(), 'given-repro-')), 'replay.sh');
      writeFileSync(file, cx!.curl);
      const runScript = (url: string) =>
        new Promise<{ code: number | null; out: string }>((resolve) => {
          execFile('bash', [file], { encoding: 'utf8', env: { ...process.env, SERVER: url } }, (err, stdout) =>
            resolve({ code: err ? ((err as { code?: number }).code ?? null) : 0, out: stdout }),
          );
        });
      expect((await runScript(faulty.url)).code).toBe(1);
      expect((await runScript(faulty.url)).code).toBe(1);
      expect((await runScript(clean.url)).code).toBe(0);
      expect((await runScript(clean.url)).code).toBe(0);
      for (const ns of namespaces) {
        const got = await fetch(`${clean.url}/api/v1/namespaces/${ns}`);
        expect(got.status, ns).toBe(200);
        const left = (await (await fetch(`${clean.url}/api/v1/namespaces/${ns}/configmaps`)).json()) as { items: unknown[] };
        expect(left.items, ns).toEqual([]);
      }
    } finally {
      await faulty.close();
      await clean.close();
    }
  }, 60_000);
});
