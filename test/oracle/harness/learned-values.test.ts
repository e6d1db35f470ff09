// Why: a reproducer that repeats a generated name, uid or version the recorded run got (instead of
// learning this run's), or that judges an answer reached by another path than the failing case's,
// cannot decide, or decides wrong. These are the rules that keep it to the model's (docs/architecture.md
// "Oracle rules": generated values are learned, never predicted).
import { describe, expect, it } from 'vitest';
import { execFile } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { Exchange, TargetRequest } from '../../../harness/transport/exchange.ts';
import { generatedValues, learnedValues, needStrings } from '../../../harness/reproducers/learned-values.ts';
import { mustLearn, premises } from '../../../harness/reproducers/replay-premises.ts';
import { isSetup, toCurlScript } from '../../../harness/reproducers/curl.ts';
import { needStatus, type AnswerNeed } from '../../../reference/answer-checks.ts';

let seq = 0;
const ex = (request: TargetRequest, status: number, json?: unknown, startedAtMs = ++seq): Exchange => ({
  seq: ++seq,
  request,
  response: { status, headers: { 'content-type': 'application/json' }, bodyText: JSON.stringify(json ?? {}), json },
  startedAtMs,
  durationMs: 1,
});
const ns = '/api/v1/namespaces/svc-conformance-t1-p1';

describe('learned values', () => {
  it('learns a generated name where a later request reads it, and never a name the client chose', () => {
    const cases = [
      ex({ method: 'POST', path: `${ns}/configmaps`, query: [['dryRun', 'All']], body: { metadata: { generateName: 'x' } } }, 201, {
        metadata: { name: 'x089a9', uid: 'u-1', resourceVersion: '7' },
      }),
      ex({ method: 'POST', path: `${ns}/configmaps`, body: { metadata: { name: 'fixed' } } }, 201, {
        metadata: { name: 'fixed', uid: 'u-2', resourceVersion: '8' },
      }),
      ex({ method: 'GET', path: `${ns}/configmaps/x089a9` }, 200, {}),
      ex({ method: 'GET', path: `${ns}/configmaps/fixed` }, 200, {}),
      ex({ method: 'DELETE', path: `${ns}/configmaps/fixed`, body: { preconditions: { uid: 'u-2', resourceVersion: '8' } } }, 200, {}),
    ];
    const learned = learnedValues(cases);
    expect(learned.map((l) => [l.value, l.from, l.path.join('.')])).toEqual([
      ['x089a9', 0, 'metadata.name'],
      ['u-2', 1, 'metadata.uid'],
      ['8', 1, 'metadata.resourceVersion'],
    ]);
    expect(generatedValues(cases[1]!).has('fixed')).toBe(false);
  });

  it('learns only from a request sent before (a watch is sent where it began, though recorded when it closed)', () => {
    const list = ex({ method: 'GET', path: `${ns}/configmaps` }, 200, { metadata: { resourceVersion: '5' } });
    const watch = ex(
      {
        method: 'GET',
        path: `${ns}/configmaps`,
        query: [
          ['watch', '1'],
          ['resourceVersion', '5'],
        ],
      },
      200,
      undefined,
    );
    // Recorded watch first (closed later in the real run, but sent first here): nothing to learn from.
    expect(learnedValues([list, watch], [], [1, 0])).toEqual([]);
    expect(learnedValues([list, watch]).map((l) => l.value)).toEqual(['5']);
  });

  it('learns the values a need compares with from an answer before the one it reads', () => {
    const cases = [
      ex({ method: 'POST', path: `${ns}/configmaps`, body: { metadata: { name: 'a' } } }, 201, {
        metadata: { name: 'a', uid: 'u-9', resourceVersion: '3' },
      }),
      ex({ method: 'GET', path: `${ns}/configmaps/a` }, 200, { metadata: { name: 'a', uid: 'u-10', resourceVersion: '3' } }),
    ];
    const needs: AnswerNeed[] = [
      { says: 'the uid stays', test: { kind: 'value', at: { request: 1 }, path: ['metadata', 'uid'], equals: 'u-9' } },
    ];
    expect(learnedValues(cases, needStrings(needs, cases.length)).map((l) => [l.value, l.from])).toEqual([['u-9', 0]]);
  });
});

describe('premises', () => {
  it('a 2xx of the failing case whose status no need tests must be a 2xx again; setup and the tested request are free', () => {
    const cases = [
      ex({ method: 'POST', path: '/api/v1/namespaces', body: { metadata: { name: 'svc-conformance-t1-p1' } } }, 201, {}),
      ex({ method: 'GET', path: `${ns}/configmaps`, query: [['limit', '1']] }, 200, { metadata: { continue: 'tok' } }),
      ex(
        {
          method: 'GET',
          path: `${ns}/configmaps`,
          query: [
            ['limit', '1'],
            ['continue', 'tok'],
          ],
        },
        200,
        {},
      ),
      ex({ method: 'POST', path: `${ns}/configmaps`, body: { metadata: { name: 'a' } } }, 201, {}),
    ];
    const needs = [needStatus('the create is refused', [409], { request: 3 })];
    expect(premises(cases, needs, isSetup)).toEqual([
      { request: 1, recorded: 200 },
      { request: 2, recorded: 200 },
    ]);
  });

  it("a learned value matters only where a request sent up to the needs' last answer uses it, and not where a need tests its absence", () => {
    const cases = [
      ex({ method: 'GET', path: `${ns}/configmaps`, query: [['limit', '1']] }, 200, { metadata: { continue: 't1' } }),
      ex(
        {
          method: 'GET',
          path: `${ns}/configmaps`,
          query: [
            ['limit', '1'],
            ['continue', 't1'],
          ],
        },
        200,
        { metadata: { continue: 't2' } },
      ),
      ex(
        {
          method: 'GET',
          path: `${ns}/configmaps`,
          query: [
            ['limit', '1'],
            ['continue', 't2'],
          ],
        },
        200,
        {},
      ),
    ];
    const learned = learnedValues(cases);
    const position = [0, 1, 2];
    const sameOnPage2: AnswerNeed[] = [
      {
        says: 'page 2 as page 1',
        test: {
          kind: 'same',
          at: { request: 1 },
          path: ['metadata', 'resourceVersion'],
          other: { at: { request: 0 }, path: ['metadata', 'resourceVersion'] },
        },
      },
    ];
    expect(mustLearn(learned, sameOnPage2, position).map((l) => l.value)).toEqual(['t1']);
    const noTokenOnPage2: AnswerNeed[] = [
      { says: 'no token', test: { kind: 'value', at: { request: 1 }, path: ['metadata', 'continue'], absent: true } },
      ...sameOnPage2,
    ];
    expect(
      mustLearn(learned, [...noTokenOnPage2, { says: 'x', test: { kind: 'status', at: { request: 2 }, oneOf: [200] } }], position).map(
        (l) => l.value,
      ),
    ).toEqual(['t1']);
  });
});

describe('a reproducer script', () => {
  const run = (script: string, env: Record<string, string>) =>
    new Promise<{ code: number; out: string }>((resolve) => {
      const file = path.join(mkdtempSync(path.join(tmpdir(), 'learned-')), 'r.sh');
      writeFileSync(file, script);
      execFile('bash', [file], { env: { ...process.env, ...env }, encoding: 'utf8' }, (err, stdout, stderr) =>
        resolve({ code: err ? Number((err as { code?: number }).code) : 0, out: stdout + stderr }),
      );
    });

  it('exits 1 only from its verdict: a shell error before it is "could not run" (2), never "the failure is present"', async () => {
    const cases = [ex({ method: 'GET', path: `${ns}/configmaps/a` }, 200, {})];
    const script = toCurlScript(cases, { server: 'http://127.0.0.1:9', needs: [needStatus('reads 404', [404], { request: 0 })] });
    // `false` stands for any command that fails under the script's rules before its verdict.
    const broken = script.replace('\ncall 0 ', '\nset -e; false\ncall 0 ');
    expect(broken).not.toBe(script);
    expect((await run(broken, { PATH: process.env['PATH'] ?? '' })).code).toBe(2);
  });
});
