// Why: Allure results carry the clause, suite, seed and the curl transcript of a failure, and
// a second run into the same folder does not leave the first run's results beside its own.
import { describe, expect, it } from 'vitest';
import { execFile } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const bin = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../../bin/svc-conformance.mjs');
const dir = mkdtempSync(path.join(tmpdir(), 'svc-conformance-allure-'));
const run = (args: string[]) =>
  new Promise<number | null>((resolve) => {
    execFile(
      process.execPath,
      [bin, 'run', '--reports', dir, ...args],
      { timeout: 180_000, env: { ...process.env, KUBECONFIG: '' } },
      (e) => resolve(e === null ? 0 : typeof e.code === 'number' ? e.code : null),
    );
  });

interface AllureResult {
  status: string;
  labels: { name: string; value: string }[];
  parameters: { name: string; value: string }[];
  steps: { name: string; attachments: { source: string }[] }[];
}
const results = (): AllureResult[] => {
  const d = path.join(dir, 'allure-results');
  return readdirSync(d)
    .filter((f) => f.endsWith('-result.json'))
    .map((f) => JSON.parse(readFileSync(path.join(d, f), 'utf8')) as AllureResult);
};

describe('Allure results', () => {
  it("label each check with its clauses, suite and seed, and attach a failure's curl transcript; one run per folder", async () => {
    expect(await run(['--seed', '11', '--runs', '5', '--check', 'health-endpoints', '--fault', 'health-exclude-ignored'])).toBe(1);
    const [failed] = results();
    expect(failed?.status).toBe('failed');
    expect(failed?.labels).toEqual(
      expect.arrayContaining([
        { name: 'clause', value: 'rest:4.2/exclude' },
        { name: 'suite', value: 'rest-health' },
      ]),
    );
    expect(failed?.parameters).toEqual(expect.arrayContaining([{ name: 'seed', value: '11' }]));
    const curl = failed?.steps.find((s) => s.name === 'rest:4.2/exclude curl transcript')?.attachments[0];
    expect(readFileSync(path.join(dir, 'allure-results', curl!.source), 'utf8')).toMatch(/curl [\s\S]*exclude=/);

    expect(await run(['--seed', '12', '--runs', '2', '--check', 'names-and-scope'])).toBe(0);
    const after = results();
    expect(after.map((r) => r.labels.find((l) => l.name === 'check')?.value)).toEqual(['names-and-scope']);
  });
});
