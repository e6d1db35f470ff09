// Why: a target that refuses the run's identity was reported "nonconformant:
// rest:4.1/post failed" as if it broke the spec. The preflight asks first and stops with exit 3 and one
// line naming what was refused and what the suite needs; the reports are still written, notTested.
import { afterAll, describe, expect, it } from 'vitest';
import { spawn } from 'node:child_process';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import { existsSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { Ajv } from 'ajv';
import { summaryJsonSchema } from '../../../reports/summary-schema.ts';

const bin = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../../bin/svc-conformance.mjs');
const dir = mkdtempSync(path.join(tmpdir(), 'svc-conformance-preflight-'));
const token = path.join(dir, 'token');
writeFileSync(token, 'not-a-real-token\n');
const servers: Server[] = [];
afterAll(async () => Promise.all(servers.map((s) => new Promise((resolve) => s.close(resolve)))));

type Handler = (req: IncomingMessage, body: string, res: ServerResponse) => void;
async function fakeTarget(handle: Handler): Promise<string> {
  const s = createServer((req, res) => {
    let body = '';
    req.on('data', (d: Buffer) => (body += d.toString()));
    req.on('end', () => handle(req, body, res));
  });
  servers.push(s);
  await new Promise<void>((resolve) => s.listen(0, '127.0.0.1', resolve));
  const addr = s.address();
  if (addr === null || typeof addr === 'string') throw new Error('no port');
  return `http://127.0.0.1:${addr.port}`;
}
const json = (res: ServerResponse, status: number, body: unknown) => {
  res.writeHead(status, { 'content-type': 'application/json' });
  res.end(JSON.stringify(body));
};
const status = (code: number, reason: string, message: string) => ({
  kind: 'Status',
  apiVersion: 'v1',
  metadata: {},
  status: 'Failure',
  reason,
  message,
  code,
});

/** The CLI against `server`, asynchronously: the fake target answers from this process meanwhile. */
function run(server: string, reports: string, ...extra: string[]): Promise<{ code: number | null; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, [bin, 'run', '--server', server, '--token-file', token, '--reports', reports, ...extra], {
      env: { ...process.env, KUBECONFIG: '' },
    });
    let stdout = '',
      stderr = '';
    child.stdout.on('data', (d: Buffer) => (stdout += d.toString()));
    child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
    child.on('exit', (code) => resolve({ code, stdout, stderr }));
  });
}

function expectOneLine(stderr: string, pattern: RegExp): void {
  const lines = stderr.trim().split('\n');
  expect(lines, stderr).toHaveLength(1);
  expect(lines[0]).toMatch(pattern);
}

function expectNotTestedReports(reports: string, line: RegExp): void {
  for (const f of ['summary.json', 'summary.md', 'index.html', 'junit.xml']) expect(existsSync(path.join(reports, f)), f).toBe(true);
  const summary = JSON.parse(readFileSync(path.join(reports, 'summary.json'), 'utf8')) as {
    verdict: string;
    notTested: string[];
    totals: { passed: number; failed: number };
    clauses: { status: string }[];
  };
  const validate = new Ajv({ strict: true, allowUnionTypes: true, allErrors: true })
    .addFormat('date-time', true)
    .compile(summaryJsonSchema);
  expect(validate(summary), JSON.stringify(validate.errors)).toBe(true);
  expect(summary.verdict).toBe('notTested');
  expect(summary.notTested).toHaveLength(1);
  expect(summary.notTested[0]).toMatch(line);
  expect(summary.totals.passed + summary.totals.failed).toBe(0);
  expect(readFileSync(path.join(reports, 'summary.md'), 'utf8')).toMatch(/svc-conformance: not tested/);
}

describe('preflight: a target that cannot be worked with stops the run before any check', () => {
  it('403 to everything: exit 3, one line naming the refused permission (verb, resource) and what the suite needs', async () => {
    const server = await fakeTarget((_req, _body, res) => json(res, 403, status(403, 'Forbidden', 'forbidden: User "x" cannot do that')));
    const reports = path.join(dir, '403');
    const r = await run(server, reports);
    expect(r.code, r.stderr).toBe(3);
    const line =
      /^svc-conformance: not tested: the target refuses the run's identity: create namespaces \(POST \/api\/v1\/namespaces\?dryRun=All answered 403 Forbidden.*the suite needs to create, get, list and delete namespaces/;
    expectOneLine(r.stderr, line);
    expectNotTestedReports(reports, /refuses the run's identity: create namespaces/);
  });

  it('401 to everything: exit 3, one line naming authentication', async () => {
    const server = await fakeTarget((_req, _body, res) => json(res, 401, status(401, 'Unauthorized', 'Unauthorized')));
    const reports = path.join(dir, '401');
    const r = await run(server, reports);
    expect(r.code, r.stderr).toBe(3);
    expectOneLine(
      r.stderr,
      /^svc-conformance: not tested: the target does not authenticate the run's credentials \(from --server\): POST \/apis\/authorization\.svc\.io\/v1\/selfsubjectaccessreviews answered 401 Unauthorized.*needs credentials the target accepts$/,
    );
    expectNotTestedReports(reports, /does not authenticate/);
  });

  it("a review that denies one permission: exit 3, the line names it; the review is asked in the profile's group", async () => {
    const asked: string[] = [];
    const server = await fakeTarget((req, body, res) => {
      if (req.method === 'POST' && req.url === '/apis/authorization.k8s.io/v1/selfsubjectaccessreviews') {
        const ssar = JSON.parse(body) as { spec: { resourceAttributes: { verb: string; resource: string } } };
        const { verb, resource } = ssar.spec.resourceAttributes;
        asked.push(`${verb} ${resource}`);
        return json(res, 201, {
          ...ssar,
          status: verb === 'watch' && resource === 'configmaps' ? { allowed: false, reason: 'no rule grants watch' } : { allowed: true },
        });
      }
      // Discovery and /version: nothing that names a group, so no profile mismatch is found.
      json(res, 404, status(404, 'NotFound', 'not found'));
    });
    const reports = path.join(dir, 'denied');
    const r = await run(server, reports, '--profile', 'k8s', '--suite', 'rest-watch');
    expect(r.code, r.stderr).toBe(3);
    expectOneLine(
      r.stderr,
      /^svc-conformance: not tested: the target's authorizer denies the run's identity: watch configmaps in namespace svc-conformance-\w+-preflight \(SelfSubjectAccessReview: allowed false, no rule grants watch\); the suite needs/,
    );
    expect(asked).toContain('create namespaces');
    expect(asked).toContain('patch configmaps');
  });
});

describe('the vacuity guard behind the preflight', () => {
  it('--no-preflight against a target that answers 403 to everything: the checks run, fail, and the run is nonconformant (exit 1) and says it judged too little', async () => {
    const server = await fakeTarget((_req, _body, res) => json(res, 403, status(403, 'Forbidden', 'forbidden')));
    const reports = path.join(dir, 'vacuous');
    const r = await run(server, reports, '--no-preflight', '--suite', 'rest-crud', '--runs', '2', '--no-confirm');
    // A failure found is a failure reported (docs/verdict-rules.md): the preflight, on by default, is what
    // turns such a target into "not tested" before any check runs.
    expect(r.code, r.stderr).toBe(1);
    const summary = JSON.parse(readFileSync(path.join(reports, 'summary.json'), 'utf8')) as {
      verdict: string;
      incomplete: { because: string[]; lines: string[] };
      totals: { failed: number };
      scorecard: { answers: Record<string, number>; exercised: { notTested: boolean } };
    };
    expect(summary.verdict).toBe('nonconformant');
    expect(summary.totals.failed).toBeGreaterThan(0);
    expect(summary.incomplete.because).toEqual(['judged too little']);
    expect(summary.incomplete.lines[0]).toMatch(/^not tested: /);
    expect(summary.scorecard.exercised.notTested).toBe(true);
    expect(summary.scorecard.answers['4xx']).toBeGreaterThan(0);
    expect(summary.scorecard.answers['2xx']).toBe(0);
    expect(r.stdout).toMatch(
      /Incomplete \(judged too little\):\n  not tested: [\s\S]*Verdict: nonconformant: \d+ failures?, \d+ clauses? judged; incomplete: judged too little/,
    );
  });
});
