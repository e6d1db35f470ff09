// Why: plain HTTP spoken to an HTTPS port got 400 to every request and the run
// printed hundreds of FAIL lines before "not tested"; a port that accepts connections and never answers
// kept the run silent for a minute. Each misconfiguration must end the run with exit 3 within seconds
// and one line that names it.
import { afterAll, describe, expect, it } from 'vitest';
import { spawn } from 'node:child_process';
import { createServer as createTcpServer, type Server as TcpServer, type Socket } from 'node:net';
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { json, startHttp, startHttps, type TestServer } from '../harness/servers.ts';

const bin = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../../bin/svc-conformance.mjs');
const dir = mkdtempSync(path.join(tmpdir(), 'svc-conformance-preflight-transport-'));
const servers: TestServer[] = [];
const tcpServers: TcpServer[] = [];
const sockets: Socket[] = [];
afterAll(async () => {
  for (const s of sockets) s.destroy();
  await Promise.all([...servers.map((s) => s.close()), ...tcpServers.map((s) => new Promise((resolve) => s.close(resolve)))]);
});

/** A raw TCP server: `onData` gets each connection's first bytes (undefined: it never answers). */
async function tcpTarget(onData?: (socket: Socket) => void): Promise<number> {
  const s = createTcpServer((socket) => {
    sockets.push(socket);
    socket.on('error', () => undefined);
    if (onData !== undefined) socket.once('data', () => onData(socket));
  });
  tcpServers.push(s);
  await new Promise<void>((resolve) => s.listen(0, '127.0.0.1', resolve));
  return (s.address() as { port: number }).port;
}

function run(server: string, name: string): Promise<{ code: number | null; stdout: string; stderr: string; ms: number; reports: string }> {
  const reports = path.join(dir, name);
  const started = Date.now();
  return new Promise((resolve) => {
    const child = spawn(process.execPath, [bin, 'run', '--server', server, '--reports', reports, '--suite', 'rest-crud'], {
      env: { ...process.env, KUBECONFIG: '' },
    });
    let stdout = '',
      stderr = '';
    child.stdout.on('data', (d: Buffer) => (stdout += d.toString()));
    child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
    child.on('exit', (code) => resolve({ code, stdout, stderr, ms: Date.now() - started, reports }));
  });
}

function expectOneLine(r: { code: number | null; stderr: string; stdout: string }, pattern: RegExp): void {
  expect(r.code, r.stderr).toBe(3);
  const lines = r.stderr.trim().split('\n');
  expect(lines, r.stderr).toHaveLength(1);
  expect(lines[0]).toMatch(pattern);
  expect(r.stdout).not.toMatch(/FAIL/);
}

const versionAnswer: Parameters<typeof startHttp>[0] = (_req, res) => json(res, 200, { gitVersion: 'v1.24.0' });

describe('the first contact names a wrong scheme within 10 s (alone: the bound is not shared with other runs)', () => {
  it('http:// to an HTTPS port (a TLS server that hangs up on plain text): names the scheme within 10 s', async () => {
    const https = await startHttps(versionAnswer);
    servers.push(https);
    const port = new URL(https.url).port;
    const r = await run(`http://127.0.0.1:${port}`, 'http-to-https');
    expectOneLine(
      r,
      new RegExp(
        `^svc-conformance: cannot reach http://127\\.0\\.0\\.1:${port}: the port speaks HTTPS \\(TLS\\), not plain HTTP: .*https://127\\.0\\.0\\.1:${port}$`,
      ),
    );
    expect(r.ms).toBeLessThan(10_000);
  });
});

describe.concurrent('the first contact names a misconfiguration in one line (exit 3)', () => {
  it("http:// to a Go server's HTTPS port (400 'Client sent an HTTP request to an HTTPS server' to everything): names the scheme", async () => {
    const port = await tcpTarget((s) => s.end('HTTP/1.0 400 Bad Request\r\n\r\nClient sent an HTTP request to an HTTPS server.\n'));
    const r = await run(`http://127.0.0.1:${port}`, 'http-to-go-https');
    expectOneLine(r, /: the port speaks HTTPS \(TLS\), not plain HTTP: the server URL \(from --server\) should start with https:\/\//);
  });

  it('https:// to a plain HTTP port: names the scheme', async () => {
    const http = await startHttp(versionAnswer);
    servers.push(http);
    const port = new URL(http.url).port;
    const r = await run(`https://127.0.0.1:${port}`, 'https-to-http');
    expectOneLine(r, new RegExp(`: the port speaks plain HTTP, not HTTPS \\(TLS\\): .*http://127\\.0\\.0\\.1:${port}$`));
  });

  it('a port that accepts connections and never answers: one line naming the silence', async () => {
    const port = await tcpTarget();
    const r = await run(`http://127.0.0.1:${port}`, 'silent');
    expectOneLine(r, /: it accepts connections but answered neither GET \/version nor GET \/api within 5 s/);
    // Five seconds of silence and two of the other protocol, plus the CLI's start on a busy machine.
    expect(r.ms).toBeLessThan(30_000);
  });

  it('500 to every request: one line listing the probes and their answers, notTested reports', async () => {
    const all500 = await startHttp((_req, res) =>
      json(res, 500, { kind: 'Status', apiVersion: 'v1', status: 'Failure', reason: 'InternalError', message: 'etcd is down', code: 500 }),
    );
    servers.push(all500);
    const r = await run(all500.url, 'all-500');
    expectOneLine(
      r,
      /^svc-conformance: not tested: the target answers an error to every probe \(GET \/version 500, GET \/api 500, POST \S+selfsubjectaccessreviews 500, POST \/api\/v1\/namespaces\?dryRun=All 500\).*etcd is down/,
    );
    const summary = JSON.parse(readFileSync(path.join(r.reports, 'summary.json'), 'utf8')) as { verdict: string; notTested: string[] };
    expect(summary.verdict).toBe('notTested');
    expect(summary.notTested[0]).toMatch(/answers an error to every probe/);
  });

  it('one answer that is not an error lets the run go on (the rule needs every probe to fail)', async () => {
    // /version answers; everything else is 500: the checks run and say what they found.
    const half = await startHttp((req, res) =>
      req.url === '/version' ? json(res, 200, { gitVersion: 'v1.24.0' }) : json(res, 500, { kind: 'Status', code: 500, message: 'no' }),
    );
    servers.push(half);
    const r = await run(half.url, 'half-500');
    expect(r.stderr).not.toMatch(/answers an error to every probe/);
    expect(r.stderr).toMatch(/run id \w+/);
  });
});
