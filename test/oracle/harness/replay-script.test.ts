// Why: a failure's curl script is a reproduction a person runs more than once: fresh
// namespaces each time, versions and continue tokens learned from that run's answers, cleanup at exit.
import { describe, expect, it } from 'vitest';
import { execFile } from 'node:child_process';
import { writeFileSync, mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { referenceServer } from '../../helpers/reference-server.ts';
import { runPlanned } from '../../helpers/planned-run.ts';
import { hasCurl } from './curl.ts';

describe.skipIf(!hasCurl)('replay scripts (skipped: no curl binary)', () => {
  it('run twice against the same server, each time in new namespaces, exit 1 while the fault is there, 0 against a clean server, and leave none behind', async () => {
    const server = await referenceServer({ faults: ['page-rv-drift'] });
    try {
      const { records } = await runPlanned({
        options: { server: server.url, check: ['paging-snapshot'], runs: 40 },
        seed: 3,
        runId: 'replay1',
      });
      const cx = records.find((r) => r.verdict === 'fail')?.counterexample;
      expect(cx, 'the planted fault is caught').toBeDefined();
      const script = cx!.curl;
      expect(script).toMatch(/NS1=.*\$RANDOM/);
      expect(script).toMatch(/L1=\$\(learn /);
      expect(script).toContain('trap cleanup EXIT');
      const file = path.join(mkdtempSync(path.join(tmpdir(), 'replay-')), 'replay.sh');
      writeFileSync(file, script);
      // Asynchronous: the server answers from this process's event loop, which a sync child would block.
      const runScript = async (url: string) =>
        new Promise<{ code: number | null; out: string }>((resolve) => {
          execFile('bash', [file], { encoding: 'utf8', cwd: path.dirname(file), env: { ...process.env, SERVER: url } }, (err, stdout) =>
            resolve({ code: err ? ((err as { code?: number }).code ?? null) : 0, out: stdout }),
          );
        });
      const runs = [await runScript(server.url), await runScript(server.url)];
      for (const { code, out } of runs) {
        // The drift is still there: the script checks page 2's resourceVersion against page 1's and says so.
        expect(code).toBe(1);
        expect(out).toMatch(/FAILS page 2 reports page 1's metadata.resourceVersion/);
        expect(out).not.toMatch(/HTTP\/1\.1 (409|400|404|410)/);
        expect(out).toMatch(/HTTP\/1\.1 201/);
        // Each body ends before the next answer's status line.
        expect(out).not.toMatch(/}=== request/);
        expect(out).not.toMatch(/}HTTP\//);
      }
      const created = (out: string) => [...out.matchAll(/"name":"(svc-conformance-[^"]*-r\d+)"/g)].map((m) => m[1]);
      expect(created(runs[0]!.out)[0]).not.toEqual(created(runs[1]!.out)[0]);
      const left = JSON.parse(await fetch(`${server.url}/api/v1/namespaces`).then((r) => r.text())) as {
        items: { metadata: { name: string } }[];
      };
      expect(left.items.map((n) => n.metadata.name).filter((n) => /-r\d+$/.test(n))).toEqual([]);
      // Against a server without the fault, the same script finds the answer the model needed.
      const clean = await referenceServer();
      try {
        const fixed = await runScript(clean.url);
        expect(fixed.out).toMatch(/ok +page 2 reports page 1's metadata.resourceVersion/);
        expect(fixed.code).toBe(0);
      } finally {
        await clean.close();
      }
    } finally {
      await server.close();
    }
  }, 180_000); // An upper bound for a hang: forty cases, their shrinking and three script runs took over a minute under load.
});
