// SLOW (about a minute): packs the package with `npm pack`, installs the tarball into an empty folder
// with `npm i` (the dependencies come from the npm cache or registry), and runs the installed command
// from a folder of its own, as a user who never cloned the repository would (issue 30). It guards the
// `files` list of package.json and the runtime dependencies: a source dist/ or the suites need at run
// time but the tarball lacks fails here, not in a user's CI.
import { describe, expect, it } from 'vitest';
import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const work = mkdtempSync(path.join(tmpdir(), 'svc-conformance-pack-'));
const npm = (args: string[], cwd: string) =>
  spawnSync('npm', args, { cwd, encoding: 'utf8', timeout: 240_000, env: { ...process.env, npm_config_update_notifier: 'false', npm_config_fund: 'false', npm_config_audit: 'false' } });

describe('the packed package', () => {
  it('installs into an empty folder; `svc-conformance --version` and a short run work without the repository or a TypeScript loader', { timeout: 480_000 }, (ctx) => {
    // dist/ is built by the oracle project's global setup; `prepare` would rebuild it under other tests.
    const packed = npm(['pack', '--ignore-scripts', '--pack-destination', work], root);
    expect(packed.status, packed.stderr).toBe(0);
    const tarball = path.join(work, readdirSync(work).find((f) => f.endsWith('.tgz'))!);
    const project = path.join(work, 'project');
    mkdirSync(project);
    writeFileSync(path.join(project, 'package.json'), '{"name":"adopter","private":true}\n');
    const installed = npm(['i', '--prefer-offline', '--no-audit', '--no-fund', tarball], project);
    if (installed.status !== 0 && /ENOTFOUND|EAI_AGAIN|ECONNREFUSED|ETIMEDOUT|ENETUNREACH/.test(installed.stderr)) {
      ctx.skip(`npm could not reach a registry for the dependencies: ${installed.stderr.split('\n').find((l) => /ENOTFOUND|EAI_AGAIN|ECONNREFUSED|ETIMEDOUT|ENETUNREACH/.test(l))}`);
    }
    expect(installed.status, installed.stderr).toBe(0);

    const bin = path.join(project, 'node_modules', '.bin', 'svc-conformance');
    const elsewhere = path.join(work, 'elsewhere');
    mkdirSync(elsewhere);
    // No tsx on the command line and none registered: the installed dist/ is what runs.
    const env = { ...process.env, KUBECONFIG: '', NODE_OPTIONS: '' };
    const version = spawnSync(bin, ['--version'], { cwd: elsewhere, encoding: 'utf8', timeout: 60_000, env });
    expect(version.status, version.stderr).toBe(0);
    expect(version.stdout.trim()).toBe((JSON.parse(readFileSync(path.join(root, 'package.json'), 'utf8')) as { version: string }).version);

    const help = spawnSync(bin, ['run', '--help'], { cwd: elsewhere, encoding: 'utf8', timeout: 60_000, env });
    expect(help.status, help.stderr).toBe(0);
    expect(help.stderr, 'the installed dist/ must run, not the sources through tsx').toBe('');

    // The shipped expectations by name, resolved inside the installed package, not the current folder.
    const listed = spawnSync(bin, ['list-expectations', '-o', 'json'], { cwd: elsewhere, encoding: 'utf8', timeout: 60_000, env });
    expect(listed.status, listed.stderr).toBe(0);
    const shipped = JSON.parse(listed.stdout) as { name: string; path: string }[];
    expect(shipped.map((e) => e.name)).toEqual(['upstream-kube-apiserver', 'upstream-kube-controller-manager', 'upstream-kubelet']);
    for (const e of shipped) expect(e.path.startsWith(path.join(project, 'node_modules', 'svc-conformance', 'expectations'))).toBe(true);
    const byName = spawnSync(bin, ['run', '--dry-run', '--profile', 'k8s', '--expectations', 'upstream-kube-apiserver'], { cwd: elsewhere, encoding: 'utf8', timeout: 60_000, env });
    expect(byName.status, byName.stderr).toBe(0);

    const reports = path.join(elsewhere, 'out');
    const run = spawnSync(bin, ['run', '--check', 'crud-sequences', '--check', 'nodeagent-valid-configs', '--check', 'daemon-help-table', '--runs', '2', '--reports', reports], {
      cwd: elsewhere,
      encoding: 'utf8',
      timeout: 300_000,
      env,
    });
    expect(run.stderr).not.toMatch(/running the sources through tsx/);
    expect(run.status, run.stderr).toBe(0);
    const summary = JSON.parse(readFileSync(path.join(reports, 'summary.json'), 'utf8')) as { verdict: string; totals: { passed: number } };
    expect(summary.verdict).toBe('conformant');
    expect(summary.totals.passed).toBeGreaterThan(0);
  });
});
