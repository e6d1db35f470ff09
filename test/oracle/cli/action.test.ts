// action.yml's shell steps, run here as GitHub's runner would run them (its inputs as environment
// variables, GITHUB_OUTPUT and GITHUB_STEP_SUMMARY as files, the workspace as the working folder): the
// run step records the exit code and verdict and never fails before the upload (GitHub runs `shell:
// bash` as `bash --noprofile --norc -eo pipefail {0}`) unless there is nothing to test (an empty
// kubeconfig), the summary step copies summary.md, the last step fails with the run's code; the install
// step packs the checkout and installs the tarball's runtime dependencies only. setup-node and
// upload-artifact are GitHub's own actions and are not run here.
import { describe, expect, it } from 'vitest';
import { spawnSync } from 'node:child_process';
import { chmodSync, cpSync, existsSync, mkdirSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { parse } from 'yaml';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../..');
type Step = { id?: string; name?: string; uses?: string; run?: string; env?: Record<string, string>; if?: string };
const action = parse(readFileSync(path.join(root, 'action.yml'), 'utf8')) as {
  inputs: Record<string, { default?: string }>;
  outputs: Record<string, { value: string }>;
  runs: { using: string; steps: Step[] };
};
const step = (name: string) => action.runs.steps.find((s) => s.name === name)!;

/** `${{ inputs.x }}` and `${{ steps.y.outputs.z }}` as the runner expands them. */
function expand(
  env: Record<string, string>,
  inputs: Record<string, string>,
  outputs: Record<string, Record<string, string>>,
): Record<string, string> {
  return Object.fromEntries(
    Object.entries(env).map(([k, v]) => [
      k,
      v.replace(
        /\$\{\{\s*(inputs\.([\w-]+)|steps\.([\w-]+)\.outputs\.([\w-]+))\s*\}\}/g,
        (_m, _all, input?: string, id?: string, out?: string) =>
          input !== undefined ? (inputs[input] ?? action.inputs[input]?.default ?? '') : (outputs[id!]?.[out!] ?? ''),
      ),
    ]),
  );
}

function runStep(
  s: Step,
  env: Record<string, string>,
): { status: number | null; output: Record<string, string>; stdout: string; stderr: string } {
  const outFile = path.join(mkdtempSync(path.join(tmpdir(), 'svc-action-out-')), 'out');
  writeFileSync(outFile, '');
  const r = spawnSync('bash', ['--noprofile', '--norc', '-eo', 'pipefail', '-c', s.run!], {
    encoding: 'utf8',
    timeout: 300_000,
    cwd: env['GITHUB_WORKSPACE'],
    env: { ...process.env, KUBECONFIG: '', ...env, GITHUB_OUTPUT: outFile },
  });
  const output = Object.fromEntries(
    readFileSync(outFile, 'utf8')
      .split('\n')
      .filter(Boolean)
      .map((l) => [l.slice(0, l.indexOf('=')), l.slice(l.indexOf('=') + 1)]),
  );
  return { status: r.status, output, stdout: r.stdout, stderr: r.stderr };
}

describe('action.yml', () => {
  it('is a composite action whose every ${{ inputs.* }} is declared', () => {
    expect(action.runs.using).toBe('composite');
    const text = readFileSync(path.join(root, 'action.yml'), 'utf8');
    for (const m of text.matchAll(/inputs\.([\w-]+)/g)) expect(Object.keys(action.inputs)).toContain(m[1]);
    expect(action.runs.steps.some((s) => s.uses?.startsWith('actions/upload-artifact@') && s.if === 'always()')).toBe(true);
  });

  it(
    'run, summary and verdict steps against the embedded target with a planted fault: outputs, step summary, the exit code last',
    { timeout: 300_000 },
    () => {
      const work = mkdtempSync(path.join(tmpdir(), 'svc-action-'));
      const summary = path.join(work, 'step-summary.md');
      writeFileSync(summary, '');
      const base = { GITHUB_WORKSPACE: work, RUNNER_TEMP: work, GITHUB_STEP_SUMMARY: summary };
      const inputs = {
        target: 'embedded',
        args: '--check\nhealth-endpoints\n--runs=5\n--fault\nhealth-exclude-ignored\n--no-confirm\n',
        reports: 'out',
      };
      const outputs: Record<string, Record<string, string>> = { install: { bin: path.join(root, 'bin', 'svc-conformance.mjs') } };
      const ran = runStep(step('Run the conformance suites'), {
        ...base,
        ...expand(step('Run the conformance suites').env!, inputs, outputs),
      });
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
    },
  );

  describe('the run step refuses to test nothing, and passes args as written', () => {
    const run = step('Run the conformance suites');
    /** A stand-in for the installed CLI: records its arguments (and the kubeconfig it was given) as JSON. */
    function fakeBin(work: string): {
      bin: string;
      seen: () => { argv: string[]; kubeconfig?: { text: string; mode: number } } | undefined;
    } {
      const record = path.join(work, 'argv.json');
      const bin = path.join(work, 'fake-svc-conformance.mjs');
      writeFileSync(
        bin,
        [
          '#!/usr/bin/env node',
          "import { readFileSync, statSync, writeFileSync } from 'node:fs';",
          'const argv = process.argv.slice(2);',
          "const i = argv.indexOf('--kubeconfig');",
          'const kubeconfig = i < 0 ? undefined : { text: readFileSync(argv[i + 1], "utf8"), mode: statSync(argv[i + 1]).mode & 0o777 };',
          `writeFileSync(${JSON.stringify(record)}, JSON.stringify({ argv, kubeconfig }));`,
          '',
        ].join('\n'),
      );
      chmodSync(bin, 0o755);
      return {
        bin,
        seen: () =>
          existsSync(record)
            ? (JSON.parse(readFileSync(record, 'utf8')) as { argv: string[]; kubeconfig?: { text: string; mode: number } })
            : undefined,
      };
    }
    function runWith(inputs: Record<string, string>) {
      const work = mkdtempSync(path.join(tmpdir(), 'svc-action-run-'));
      const fake = fakeBin(work);
      const r = runStep(run, {
        GITHUB_WORKSPACE: work,
        RUNNER_TEMP: work,
        ...expand(run.env!, { reports: 'out', ...inputs }, { install: { bin: fake.bin } }),
      });
      return { ...r, work, seen: fake.seen() };
    }

    it('an empty kubeconfig: the step fails with one line and the CLI never starts', () => {
      const r = runWith({ kubeconfig: '' });
      expect(r.status).toBe(2);
      expect(r.stdout.trim().split('\n')).toEqual([
        "::error title=svc-conformance::the kubeconfig input is empty (a missing or misspelt secret, or one withheld from a pull request from a fork): nothing to test; pass target: embedded to run against the suite's own reference server",
      ]);
      expect(r.stderr).toBe('');
      expect(r.output).toMatchObject({ 'exit-code': '2', verdict: 'error' });
      expect(r.seen).toBeUndefined();
    });

    it('target: embedded runs the CLI with no target option; beside a kubeconfig, or an unknown target, it is refused', () => {
      const embedded = runWith({ target: 'embedded' });
      expect(embedded.status).toBe(0);
      expect(embedded.seen?.argv).toEqual(['run', '--profile', 'svc', '--reports', path.join(embedded.work, 'out')]);
      const both = runWith({ target: 'embedded', kubeconfig: 'apiVersion: v1' });
      expect(both.status).toBe(2);
      expect(both.stdout).toMatch(/target: embedded and a kubeconfig were both given/);
      expect(both.seen).toBeUndefined();
      expect(runWith({ target: 'cluster', kubeconfig: 'apiVersion: v1' }).status).toBe(2);
    });

    it('a kubeconfig: written for the run alone (mode 0600), passed with its context, removed afterwards', () => {
      const r = runWith({ kubeconfig: 'apiVersion: v1\nkind: Config\n', context: 'ci', profile: 'k8s' });
      expect(r.status).toBe(0);
      const file = path.join(r.work, 'svc-conformance.kubeconfig');
      expect(r.seen?.argv).toEqual([
        'run',
        '--kubeconfig',
        file,
        '--context',
        'ci',
        '--profile',
        'k8s',
        '--reports',
        path.join(r.work, 'out'),
      ]);
      expect(r.seen?.kubeconfig).toEqual({ text: 'apiVersion: v1\nkind: Config\n\n', mode: 0o600 });
      expect(existsSync(file)).toBe(false);
    });

    it('args: one argument per line, intact (no word splitting, no glob expansion even where files match), blank lines and edge blanks dropped', () => {
      const work = mkdtempSync(path.join(tmpdir(), 'svc-action-glob-'));
      // Files the glob would match in the working folder, were it expanded.
      for (const f of ['watch.json', 'watch.yaml']) writeFileSync(path.join(work, f), '');
      const fake = fakeBin(work);
      const args = "--focus\nwatch.*\n\n  --skip  \n[bB]ookmark?\n--hook=restart=systemctl restart my-server\n--seed=42\n'quoted'\n$HOME\n";
      const r = runStep(run, {
        GITHUB_WORKSPACE: work,
        RUNNER_TEMP: work,
        ...expand(run.env!, { target: 'embedded', args, reports: 'out' }, { install: { bin: fake.bin } }),
      });
      expect(r.status, r.stdout + r.stderr).toBe(0);
      expect(fake.seen()?.argv.slice(5)).toEqual([
        '--focus',
        'watch.*',
        '--skip',
        '[bB]ookmark?',
        '--hook=restart=systemctl restart my-server',
        '--seed=42',
        "'quoted'",
        '$HOME',
      ]);
    });

    it('args: an option and its value on one line (the old blank-separated form) is refused in one line, not passed as one odd argument', () => {
      const r = runWith({ target: 'embedded', args: '--seed 42' });
      expect(r.status).toBe(2);
      expect(r.stdout.trim()).toBe(
        "::error title=svc-conformance::args: '--seed 42' is an option and its value on one line; give one argument per line (or write it as option=value)",
      );
      expect(r.seen).toBeUndefined();
    });
  });

  // SLOW (about a minute, most of it npm fetching from its cache or the registry): the default install.
  it(
    'install: packs this checkout and installs the tarball with its runtime dependencies only; the installed command runs',
    { timeout: 480_000 },
    (ctx) => {
      const work = mkdtempSync(path.join(tmpdir(), 'svc-action-install-'));
      // The action's checkout as GitHub fetches it: the repository's files, no node_modules, no dist/.
      const checkout = path.join(work, 'action');
      const files = spawnSync('git', ['ls-files', '-co', '--exclude-standard', '-z'], { cwd: root, encoding: 'utf8' })
        .stdout.split('\0')
        .filter((f) => f !== '' && f !== 'node_modules' && existsSync(path.join(root, f)));
      for (const f of files) {
        mkdirSync(path.dirname(path.join(checkout, f)), { recursive: true });
        cpSync(path.join(root, f), path.join(checkout, f));
      }
      const runnerTemp = path.join(work, 'runner-temp');
      mkdirSync(runnerTemp);
      const install = step('Install svc-conformance');
      const r = runStep(install, {
        GITHUB_ACTION_PATH: checkout,
        RUNNER_TEMP: runnerTemp,
        npm_config_prefer_offline: 'true',
        ...expand(install.env!, {}, {}),
      });
      const offline = /ENOTFOUND|EAI_AGAIN|ECONNREFUSED|ETIMEDOUT|ENETUNREACH/;
      if (r.status !== 0 && offline.test(r.stderr))
        ctx.skip(`npm could not reach a registry: ${r.stderr.split('\n').find((l) => offline.test(l))}`);
      expect(r.status, r.stderr).toBe(0);
      const installed = path.join(runnerTemp, 'svc-conformance-install', 'node_modules');
      expect(r.output['bin']).toBe(path.join(installed, '.bin', 'svc-conformance'));
      // The package as `npm pack` ships it (its dist/ built), and not one development dependency.
      expect(existsSync(path.join(installed, 'svc-conformance', 'dist'))).toBe(true);
      expect(existsSync(path.join(installed, 'svc-conformance', 'test'))).toBe(false);
      for (const dev of ['vitest', 'prettier', 'typescript', 'ajv']) expect(existsSync(path.join(installed, dev)), dev).toBe(false);
      // The action's checkout holds the development tree it built dist/ with; the install above holds none of it.
      const ran = spawnSync(r.output['bin']!, ['run', '--check', 'health-endpoints', '--runs', '2', '--reports', path.join(work, 'out')], {
        cwd: work,
        encoding: 'utf8',
        timeout: 120_000,
        env: { ...process.env, KUBECONFIG: '', NODE_OPTIONS: '' },
      });
      expect(ran.status, ran.stderr).toBe(0);
      expect(ran.stderr).not.toMatch(/running the sources through tsx/);
    },
  );

  it('the verdict output documents every verdict a run reports, and the refusal', () => {
    const described = action.outputs['verdict'] as unknown as { description: string };
    for (const v of ['conformant', 'nonconformant', 'notTested', 'interrupted', 'error']) expect(described.description).toContain(v);
  });
});
