// Why: against a partial target one setup failure hid everything: a server that generates no uid,
// creationTimestamp or resourceVersion stopped 48 checks at their first request, and one that refuses
// namespace creation stopped 64 with dozens of copies of one failure. Generated metadata is now judged
// once, by generated-metadata; a run that cannot create its namespaces ends with one line, or works in
// the namespaces the user names (--namespace) and judges the same clauses as in its own.
import { describe, expect, it } from 'vitest';
import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const bin = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../../bin/svc-conformance.mjs');
const dir = mkdtempSync(path.join(tmpdir(), 'svc-conformance-partial-setup-'));

interface Clause {
  readonly id: string;
  readonly status: string;
  readonly notes?: readonly string[];
  readonly counterexamples: readonly { readonly check: string; readonly curl: string }[];
}
interface Summary {
  readonly verdict: string;
  readonly clauses: readonly Clause[];
}

function run(reports: string, ...args: string[]): Promise<{ code: number | null; stderr: string; summary: Summary }> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, [bin, 'run', '--seed', '7', '--no-confirm', '--reports', reports, ...args], {
      env: { ...process.env, KUBECONFIG: '' },
    });
    let stderr = '';
    child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
    child.stdout.resume();
    child.on('exit', (code) =>
      resolve({ code, stderr, summary: JSON.parse(readFileSync(path.join(reports, 'summary.json'), 'utf8')) as Summary }),
    );
  });
}

const statuses = (s: Summary) => new Map(s.clauses.map((c) => [c.id, c.status]));
const SUITES = ['--suite', 'rest-crud', '--suite', 'rest-paging', '--suite', 'rest-watch', '--runs', '2'];
/** The clauses of the one check that creates and deletes namespaces of its own (names-and-scope) alone. */
const OWN_NAMESPACE_CLAUSES = [
  'rest:2.2.3',
  'rest:2.2.4',
  'rest:2.2.5',
  'rest:4.1/get-collection',
  'rest:4.1/get-namespace',
  'rest:4.1/get-namespaces',
];

describe('a target that refuses namespace creation (namespaces-not-creatable)', () => {
  it('ends not tested, exit 3, with one line naming the refused request and --namespace', async () => {
    const r = await run(path.join(dir, 'refused'), '--fault', 'namespaces-not-creatable', ...SUITES);
    expect(r.code).toBe(3);
    const lines = r.stderr.trim().split('\n');
    expect(lines, r.stderr).toHaveLength(1);
    expect(lines[0]).toMatch(
      /^svc-conformance: not tested: the run cannot create its namespaces: POST \/api\/v1\/namespaces answered 403 Forbidden: .*--namespace NAME/,
    );
    expect(r.summary.verdict).toBe('notTested');
  }, 60_000);

  it('with --namespace judges the same clauses as a run in namespaces of its own, and leaves the namespaces', async () => {
    const [own, given] = await Promise.all([
      run(path.join(dir, 'own'), ...SUITES),
      run(path.join(dir, 'given'), '--fault', 'namespaces-not-creatable', '--namespace', 'team-a', '--namespace', 'team-b', ...SUITES),
    ]);
    expect(own.code).toBe(0);
    expect(given.code, given.stderr).toBe(0);
    const a = statuses(own.summary);
    const b = statuses(given.summary);
    const differ = [...a].filter(([id, s]) => b.get(id) !== s).map(([id]) => id);
    expect(differ.sort()).toEqual([...OWN_NAMESPACE_CLAUSES].sort());
    for (const id of OWN_NAMESPACE_CLAUSES) {
      const c = given.summary.clauses.find((x) => x.id === id)!;
      expect(c.status).toBe('notChecked');
      expect(c.notes?.join(' ')).toMatch(/creates and deletes namespaces of its own, and the run was given --namespace/);
    }
    expect(given.stderr).not.toMatch(/refused|SafetyError|leftover|left \d+ object/i);
  }, 180_000);
});

describe('a target that generates no metadata (no-generated-metadata)', () => {
  it('fails rest:2.3 uid/creationTimestamp/resourceVersion and rest:2.8 once, in generated-metadata; checks that need versions are blocked, not failed', async () => {
    const [bad, good] = await Promise.all([
      run(path.join(dir, 'ngm'), '--fault', 'no-generated-metadata', '--suite', 'rest-crud', '--suite', 'rest-paging', '--runs', '2'),
      run(path.join(dir, 'clean'), '--suite', 'rest-crud', '--suite', 'rest-paging', '--runs', '2'),
    ]);
    expect(bad.code).toBe(1);
    const generated = ['rest:2.3/metadata.uid', 'rest:2.3/metadata.creationTimestamp', 'rest:2.3/metadata.resourceVersion', 'rest:2.8'];
    expect(
      bad.summary.clauses
        .filter((c) => c.status === 'failed')
        .map((c) => c.id)
        .sort(),
    ).toEqual([...generated].sort());
    for (const id of generated) {
      const c = bad.summary.clauses.find((x) => x.id === id)!;
      expect(new Set(c.counterexamples.map((x) => x.check)), id).toEqual(new Set(['generated-metadata']));
      expect(statuses(good.summary).get(id), id).toBe('passed');
    }
    // Paging follows versions: blocked with the reason, never failed on a resourceVersion the suite made up.
    const paging = bad.summary.clauses.find((x) => x.id === 'rest:4.4.1')!;
    expect(paging.status).toBe('notChecked');
    expect(paging.notes?.join(' ')).toMatch(/^blocked: the target answered a write without metadata.resourceVersion/);
    // generateName needs no version: judged as on the full server.
    expect(statuses(bad.summary).get('rest:2.3/metadata.name')).toBe('passed');
  }, 180_000);
});
