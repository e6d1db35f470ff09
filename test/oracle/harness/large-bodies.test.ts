// A reproducer must run whatever the size of the bodies it sends. A request body was one argument of
// curl, and Linux refuses an argument over 128 KiB: the concurrent workload's 128 KiB pads made every
// such request fail with "Argument list too long", so the script decided nothing, and its long runs of
// one letter made it 6.4 MB (and each report holding it as big).
import { execFile, execFileSync } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { SHELL_REP, toCurlScript } from '../../../harness/reproducers/curl.ts';
import type { Exchange } from '../../../harness/transport/exchange.ts';
import { referenceServer } from '../../helpers/reference-server.ts';
import { hasCurl } from './curl.ts';

const PAD = 'y'.repeat(131_072);

function exchange(seq: number, path_: string, body: unknown, status: number): Exchange {
  const text = JSON.stringify(body);
  return {
    seq,
    request: { method: 'POST', path: path_, headers: { 'content-type': 'application/json' }, body },
    response: { status, headers: { 'content-type': 'application/json' }, bodyText: text, json: body },
    startedAtMs: seq,
    durationMs: 1,
  };
}

const NS = 'svc-conformance-bigbody-1';
const exchanges: Exchange[] = [
  exchange(1, '/api/v1/namespaces', { apiVersion: 'v1', kind: 'Namespace', metadata: { name: NS } }, 201),
  exchange(
    2,
    `/api/v1/namespaces/${NS}/configmaps`,
    {
      apiVersion: 'v1',
      kind: 'ConfigMap',
      metadata: { name: 'big' },
      data: { pad: PAD, short: 'zzzz', edge: `${'0'.repeat(256)}-${'1'.repeat(255)}` },
    },
    201,
  ),
];

describe('reproducers with large bodies', () => {
  it('rep writes a character as many times as asked', () => {
    const out = execFileSync('bash', ['-c', `${SHELL_REP}\nrep y 300; printf '|'; rep 0 256; printf '|'; rep a 1`], { encoding: 'utf8' });
    expect(out).toBe(`${'y'.repeat(300)}|${'0'.repeat(256)}|a`);
  });

  it('a 128 KiB pad is written with rep, and the body goes through a pipe, not as an argument', () => {
    const script = toCurlScript(exchanges, { server: 'http://127.0.0.1:1' });
    expect(script.length).toBeLessThan(20_000);
    expect(script).toContain(SHELL_REP);
    expect(script).toContain('"$(rep y 131072)"');
    expect(script).toContain('"$(rep 0 256)"');
    // A run one shorter than the threshold stays as it is.
    expect(script).toContain('1'.repeat(255));
    expect(script).toContain("--data-binary @<(printf '%s' ");
    // A small body stays an argument, as before.
    expect(script).toMatch(/--data-binary '\{"apiVersion":"v1","kind":"Namespace"/);
  });

  it.skipIf(!hasCurl)('runs against a server and sends the body byte for byte (skipped: no curl binary)', async () => {
    const server = await referenceServer();
    try {
      const file = path.join(mkdtempSync(path.join(tmpdir(), 'svc-bigbody-')), 'replay.sh');
      writeFileSync(file, toCurlScript(exchanges, { server: server.url }));
      // Asynchronous: the server answers from this process's event loop, which a sync child would block.
      const { out, err } = await new Promise<{ out: string; err: string }>((resolve) => {
        execFile(
          'bash',
          [file],
          { encoding: 'utf8', maxBuffer: 64 * 1024 * 1024, env: { ...process.env, SERVER: server.url } },
          (_e, stdout, stderr) => resolve({ out: stdout, err: stderr }),
        );
      });
      expect(err).not.toMatch(/Argument list too long/);
      // The created object as the server answered it: the pad and the runs arrived whole.
      expect(out).toContain(`"pad":"${PAD}"`);
      expect(out).toContain(`"edge":"${'0'.repeat(256)}-${'1'.repeat(255)}"`);
    } finally {
      await server.close();
    }
  });
});
