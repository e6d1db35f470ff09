import { describe, expect, it } from 'vitest';
import { buildRunResult } from '../../../reports/aggregate.ts';
import {
  ExpectationsError,
  expectationsForRun,
  mergeExpectations,
  parseExpectations,
  unknownExpectationIds,
  type Expectations,
} from '../../../reports/expectations.ts';
import type { CheckRecord } from '../../../runner/results.ts';
import { catalog, cx, rec } from './fixtures.ts';

const YAML_FILE = `# nightly against our shim
knownFailures:
  - clause: rest:4.4.6
    reason: tokens never expire
`;

function runWith(records: CheckRecord[], expectations: Expectations) {
  return buildRunResult({
    records,
    catalog,
    expectations,
    profile: 'svc',
    seed: 1,
    server: null,
    nodeagentLoader: null,
    startedAt: '2025-01-01T00:00:00Z',
    durationMs: 0,
    version: '0.1.0',
    errors: [],
  });
}

function errorOf(text: string, file: string): ExpectationsError {
  try {
    parseExpectations(text, file);
  } catch (e) {
    expect(e).toBeInstanceOf(ExpectationsError);
    return e as ExpectationsError;
  }
  throw new Error('expected parseExpectations to throw');
}

describe('parseExpectations', () => {
  it('reads YAML', () => {
    expect(parseExpectations(YAML_FILE, 'e.yaml').knownFailures).toEqual([
      { clause: 'rest:4.4.6', reason: 'tokens never expire', at: 'e.yaml:3' },
    ]);
  });

  it('reads JSON, tabs and all', () => {
    const json = '{\n\t"knownFailures": [\n\t\t{ "clause": "node:2.2/maxPods", "reason": "defaults to 100" }\n\t]\n}\n';
    expect(parseExpectations(json, 'e.json').knownFailures).toEqual([
      { clause: 'node:2.2/maxPods', reason: 'defaults to 100', at: 'e.json:3' },
    ]);
  });

  it('accepts an empty file and an empty list', () => {
    expect(parseExpectations('', 'e.yaml').knownFailures).toEqual([]);
    expect(parseExpectations('knownFailures: []\n', 'e.yaml').knownFailures).toEqual([]);
  });

  it('names file, line and field path of a wrong type, on one line', () => {
    const text = 'knownFailures:\n  - clause: rest:4.4.6\n    reason: ok\n  - clause: 44\n    reason: x\n';
    const e = errorOf(text, 'exp.yaml');
    expect(e.message).toBe('exp.yaml:4: knownFailures[1].clause: expected a string, got number');
    expect(e.line).toBe(4);
    expect(e.fieldPath).toBe('knownFailures[1].clause');
    expect(e.message).not.toContain('\n');
  });

  it('names the line in JSON too', () => {
    const e = errorOf('{\n  "knownFailures": [\n    { "clause": "rest:4.4.6" }\n  ]\n}\n', 'e.json');
    expect(e.message).toBe('e.json:3: knownFailures[0].reason: missing (required)');
  });

  it('reports syntax errors with their line', () => {
    const e = errorOf('knownFailures:\n  - clause: rest:4.4.6\n  bad: [\n', 'bad.yaml');
    expect(e.message).toMatch(/^bad\.yaml:3: not valid JSON or YAML: \S/);
    expect(e.line).toBe(3);
    expect(e.message).not.toContain('\n');
  });

  it.each([
    ['knownFailure:\n  - clause: rest:1\n', 'e.yaml:1: knownFailure: unknown key (expected only knownFailures)'],
    [
      'knownFailures:\n  - clause: rest:1\n    reason: r\n    resaon: r\n',
      'e.yaml:4: knownFailures[0].resaon: unknown key (expected clause, observed, reason, source, when)',
    ],
    ['knownFailures: rest:1\n', 'e.yaml:1: knownFailures: expected a list, got string'],
    ['- rest:1\n', 'e.yaml:1: (root): expected a mapping with key knownFailures, got a list'],
    [
      'knownFailures:\n  - clause: "4.4.6"\n    reason: r\n',
      `e.yaml:2: knownFailures[0].clause: not a clause id like 'rest:4.4.6': "4.4.6"`,
    ],
    ['knownFailures:\n  - clause: rest:1\n    reason: "  "\n', 'e.yaml:3: knownFailures[0].reason: must not be empty'],
    [
      'knownFailures:\n  - clause: rest:1\n    reason: a\n  - clause: rest:1\n    reason: b\n',
      'e.yaml:4: knownFailures[1].clause: rest:1 is already listed at knownFailures[0]',
    ],
  ])('rejects %j', (text, message) => {
    expect(errorOf(text, 'e.yaml').message).toBe(message);
  });

  it('lists known failures the catalog does not know', () => {
    const e = parseExpectations(
      'knownFailures:\n  - {clause: "rest:4.4.6", reason: r}\n  - {clause: "rest:4.4.66", reason: typo}\n',
      'e.yaml',
    );
    expect(unknownExpectationIds(e, new Set(catalog.map((c) => c.id)))).toEqual(['rest:4.4.66']);
  });
});

describe('expectations in the verdict', () => {
  const expectations = parseExpectations(YAML_FILE, 'e.yaml');
  const knownFail = rec('rest:4.4.6', 'fail', { counterexample: cx({ clause: 'rest:4.4.6' }) });

  it('a known failure keeps the run conformant', () => {
    const r = runWith([knownFail, rec('rest:4.4.3', 'pass')], expectations);
    expect(r.verdict).toBe('conformant');
    const clause = r.clauses.find((c) => c.id === 'rest:4.4.6');
    expect(clause).toMatchObject({ status: 'failed', expectedFailure: true });
    expect(clause?.notes[0]).toBe('known failure (any failure of the clause): tokens never expire');
    // Without the file the same run is nonconformant: the file, not luck, made the difference.
    expect(runWith([knownFail], { knownFailures: [] }).verdict).toBe('nonconformant');
  });

  it('a regression elsewhere makes the run nonconformant', () => {
    const r = runWith([knownFail, rec('rest:4.4.3', 'fail')], expectations);
    expect(r.verdict).toBe('nonconformant');
    expect(r.clauses.find((c) => c.id === 'rest:4.4.3')?.expectedFailure).toBeUndefined();
  });

  it('a listed clause that passes without a signature is not exercised, never "now passing"', () => {
    const r = runWith([rec('rest:4.4.6', 'pass')], expectations);
    const clause = r.clauses.find((c) => c.id === 'rest:4.4.6');
    expect(clause?.status).toBe('passed');
    expect(clause?.expectation?.entries[0]).toMatchObject({ outcome: 'notExercised', excuses: 'any failure of the clause' });
    expect(clause?.notes[0]).toMatch(
      /^known failure not exercised in this run: any failure of the clause \(did not occur; the entry names no observation class/,
    );
    expect(r.verdict).toBe('conformant');
  });
});

describe('mergeExpectations (repeated --expectations)', () => {
  it('keeps every entry of every file, and their warnings', () => {
    const a = parseExpectations(YAML_FILE, 'a.yaml');
    const b = parseExpectations(
      'knownFailures:\n  - clause: rest:4.4.6\n    reason: also in b\n  - clause: node:2.2/maxPods\n    reason: loader caps it\n',
      'b.yaml',
    );
    const merged = mergeExpectations([a, b]);
    expect(merged.knownFailures.map((k) => [k.clause, k.at])).toEqual([
      ['rest:4.4.6', 'a.yaml:3'],
      ['rest:4.4.6', 'b.yaml:2'],
      ['node:2.2/maxPods', 'b.yaml:4'],
    ]);
    expect(merged.warnings).toHaveLength(2);
    // One file merged alone is that file.
    expect(mergeExpectations([a])).toEqual(a);
  });
});

describe('a known failure limited to a run condition (when: scale)', () => {
  const file =
    'knownFailures:\n  - clause: rest:4.4.3\n    reason: loses items in long selector chains\n    when: scale\n  - clause: rest:4.4.6\n    reason: tokens never expire\n';
  const e = parseExpectations(file, 'e.yaml');

  it('is read with its condition, and an unknown condition is one clear error with its line', () => {
    expect(e.knownFailures[0]).toEqual({
      clause: 'rest:4.4.3',
      reason: 'loses items in long selector chains',
      when: { scale: true },
      at: 'e.yaml:2',
    });
    expect(errorOf(file.replace('when: scale', 'when: nightly'), 'e.yaml').message).toBe(
      'e.yaml:4: knownFailures[0].when: unknown condition "nightly" (write scale, or a mapping of scale, profile, capability, release)',
    );
  });

  it('excuses the failure in a --scale run only; elsewhere it is not listed at all', () => {
    const scaleRun = expectationsForRun(e, { scale: true });
    const plainRun = expectationsForRun(e, { scale: false });
    expect(scaleRun.knownFailures.map((k) => k.clause)).toEqual(['rest:4.4.3', 'rest:4.4.6']);
    expect(plainRun.knownFailures.map((k) => k.clause)).toEqual(['rest:4.4.6']);
    const failing = rec('rest:4.4.3', 'fail', { counterexample: cx({ clause: 'rest:4.4.3' }) });
    expect(runWith([failing], scaleRun).verdict).toBe('conformant');
    expect(runWith([failing], plainRun).verdict).toBe('nonconformant');
    expect(runWith([rec('rest:4.4.3', 'pass')], plainRun).clauses.find((c) => c.id === 'rest:4.4.3')?.expectation).toBeUndefined();
  });

  it('merged, an entry without the condition holds in every run', () => {
    const plain = parseExpectations('knownFailures:\n  - clause: rest:4.4.3\n    reason: always\n', 'p.yaml');
    expect(expectationsForRun(mergeExpectations([e, plain]), { scale: false }).knownFailures.map((k) => k.reason)).toEqual([
      'tokens never expire',
      'always',
    ]);
  });
});

describe('an entry naming a clause the catalog lacks', () => {
  const text =
    'knownFailures:\n  - clause: rest:4.4.3\n    reason: real\n    observed: {status: 500}\n  - clause: rest:4.4.33\n    reason: typo\n    observed: {status: 500}\n';
  it('with the catalog: an error at its file and line, with the nearest ids', () => {
    const ids = catalog.map((c) => c.id);
    expect(() => parseExpectations(text, 'e.yaml', ids)).toThrow(
      /^e\.yaml:5: knownFailures\[1\]\.clause: unknown clause id rest:4\.4\.33; did you mean rest:4\.4\.3/,
    );
  });
  it('without it (the file alone), accepted as before', () => {
    expect(parseExpectations(text, 'e.yaml').knownFailures).toHaveLength(2);
  });
});
