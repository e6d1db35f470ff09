// action.yml's shell steps, run here as GitHub's runner would run them (its inputs as environment
// variables, GITHUB_OUTPUT and GITHUB_STEP_SUMMARY as files): the run step records the exit code and
// verdict and never fails before the upload (GitHub runs `shell: bash` as `bash --noprofile --norc -eo
// pipefail {0}`), the summary step copies summary.md, the last step fails
// with the run's code. setup-node and upload-artifact are GitHub's own actions and are not run here.
import { describe, expect, it } from 'vitest';
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { parse } from 'yaml';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
type Step = { id?: string; name?: string; uses?: string; run?: string; env?: Record<string, string>; if?: string };
const action = parse(readFileSync(path.join(root, 'action.yml'), 'utf8')) as {
  inputs: Record<string, { default?: string }>;
  outputs: Record<string, { value: string }>;
  runs: { using: string; steps: Step[] };
};
const step = (name: string) => action.runs.steps.find((s) => s.name === name)!;

/** `${{ inputs.x }}` and `${{ steps.y.outputs.z }}` as the runner expands them. */
function expand(env: Record<string, string>, inputs: Record<string, string>, outputs: Record<string, Record<string, string>>): Record<string, string> {
  return Object.fromEntries(
    Object.entries(env).map(([k, v]) => [
      k,
      v.replace(/\$\{\{\s*(inputs\.([\w-]+)|steps\.([\w-]+)\.outputs\.([\w-]+))\s*\}\}/g, (_m, _all, input?: string, id?: string, out?: string) =>
        input !== undefined ? (inputs[input] ?? action.inputs[input]?.default ?? '') : (outputs[id!]?.[out!] ?? ''),
      ),
    ]),
  );
}

function runStep(s: Step, env: Record<string, string>): { status: number | null; output: Record<string, string>; stderr: string } {
  const outFile = path.join(mkdtempSync(path.join(tmpdir(), 'svc-action-out-')), 'out');
  writeFileSync(outFile, '');
  const r = spawnSync('bash', ['--noprofile', '--norc', '-eo', 'pipefail', '-c', s.run!], {
    encoding: 'utf8',
    timeout: 240_000,
    env: { ...process.env, KUBECONFIG: '', ...env, GITHUB_OUTPUT: outFile },
  });
  const output = Object.fromEntries(
    readFileSync(outFile, 'utf8')
      .split('\n')
      .filter(Boolean)
      .map((l) => [l.slice(0, l.indexOf('=')), l.slice(l.indexOf('=') + 1)]),
  );
  return { status: r.status, output, stderr: r.stderr };
}

describe('action.yml', () => {
  it('is a composite action whose every ${{ inputs.* }} is declared', () => {
    expect(action.runs.using).toBe('composite');
    const text = readFileSync(path.join(root, 'action.yml'), 'utf8');
    for (const m of text.matchAll(/inputs\.([\w-]+)/g)) expect(Object.keys(action.inputs)).toContain(m[1]);
    expect(action.runs.steps.some((s) => s.uses?.startsWith('actions/upload-artifact@') && s.if === 'always()')).toBe(true);
  });

  it('run, summary and verdict steps against the embedded target with a planted fault: outputs, step summary, the exit code last', { timeout: 300_000 }, () => {
    const work = mkdtempSync(path.join(tmpdir(), 'svc-action-'));
    const summary = path.join(work, 'step-summary.md');
    writeFileSync(summary, '');
    const base = { GITHUB_WORKSPACE: work, RUNNER_TEMP: work, GITHUB_STEP_SUMMARY: summary };
    const inputs = { args: '--check health-endpoints --runs 5 --fault health-exclude-ignored --no-confirm', reports: 'out' };
    const outputs: Record<string, Record<string, string>> = { install: { bin: path.join(root, 'bin', 'svc-conformance.mjs') } };
    const ran = runStep(step('Run the conformance suites'), { ...base, ...expand(step('Run the conformance suites').env!, inputs, outputs) });
    expect(ran.status, ran.stderr).toBe(0);
    expect(ran.output).toMatchObject({ 'exit-code': '1', verdict: 'nonconformant', reports: path.join(work, 'out') });
    outputs['run'] = ran.output;
    // The run itself wrote no step summary: the summary step does, once.
    expect(readFileSync(summary, 'utf8')).toBe('');
    const summarized = runStep(step('Step summary'), { ...base, ...expand(step('Step summary').env!, inputs, outputs) });
    expect(summarized.status, summarized.stderr).toBe(0);
    const md = readFileSync(summary, 'utf8');
    expect(md).toMatch(/svc-conformance: nonconformant/);
    expect(md.match(/svc-conformance: nonconformant/g)).toHaveLength(1);
    const verdict = runStep(step('Verdict'), { ...base, ...expand(step('Verdict').env!, inputs, outputs) });
    expect(verdict.status).toBe(1);
  });
});
