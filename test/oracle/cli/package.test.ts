// SLOW (about a minute): packs the package with `npm pack`, installs the tarball into an empty folder
// as a user's CI would (`npm i --omit=dev`; the dependencies come from the npm cache or registry), and
// runs the installed command from a folder of its own, as a user who never cloned the repository would.
// It guards the `files` list of package.json and the runtime dependencies: a file dist/ or the suites
// need at run time but the tarball lacks, or a development package the compiled CLI still reaches for
// (tsx, esbuild: the reference daemon is bundled when dist/ is built), fails here, not in a user's CI.
import { describe, expect, it } from 'vitest';
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../..');
const work = mkdtempSync(path.join(tmpdir(), 'svc-conformance-pack-'));
const npm = (args: string[], cwd: string) =>
  spawnSync('npm', args, {
    cwd,
    encoding: 'utf8',
    timeout: 240_000,
    env: { ...process.env, npm_config_update_notifier: 'false', npm_config_fund: 'false', npm_config_audit: 'false' },
  });

/** Development packages the installed product must run without. */
const DEVELOPMENT_ONLY = ['tsx', 'esbuild', 'typescript', 'vitest'];

describe('the packed package', () => {
  it('holds the compiled CLI, the daemon bundle, docs, expectations and a LICENSE, and no TypeScript or development script', () => {
    const listed = npm(['pack', '--dry-run', '--ignore-scripts', '--json'], root);
    expect(listed.status, listed.stderr).toBe(0);
    const files = (JSON.parse(listed.stdout) as { files: { path: string }[] }[])[0]!.files.map((f) => f.path);
    expect(files).toEqual(
      expect.arrayContaining([
        'LICENSE',
        'README.md',
        'package.json',
        'bin/svc-conformance.mjs',
        'dist/cli.js',
        'dist/controller-daemon/main.mjs',
        'docs/schemas/summary.schema.json',
      ]),
    );
    expect(files.some((f) => f.startsWith('expectations/') && f.endsWith('.yaml'))).toBe(true);
    const shipped =
      /^(bin|dist|docs|expectations)\/|^(LICENSE|README\.md|package\.json|scripts\/dist-state\.mjs|scripts\/etcd-compact\.mjs|harness\/processes\/spawn-helper\.mjs)$/;
    expect(files.filter((f) => !shipped.test(f))).toEqual([]);
    expect(
      files.filter((f) => /\.(c|m)?ts$/.test(f) || f.startsWith('scripts/dev/') || f.startsWith('test/') || f.endsWith('.map')),
    ).toEqual([]);
    const manifest = JSON.parse(readFileSync(path.join(root, 'package.json'), 'utf8')) as { dependencies: Record<string, string> };
    expect(Object.keys(manifest.dependencies).filter((d) => DEVELOPMENT_ONLY.includes(d))).toEqual([]);
  });

  it(
    'installs with --omit=dev into an empty folder; `--version` and a short run, the daemon suite included, work without the repository, tsx or esbuild',
    { timeout: 480_000 },
    (ctx) => {
      // dist/ is built by the oracle project's global setup; `prepare` would rebuild it under other tests.
      const packed = npm(['pack', '--ignore-scripts', '--pack-destination', work], root);
      expect(packed.status, packed.stderr).toBe(0);
      const tarball = path.join(work, readdirSync(work).find((f) => f.endsWith('.tgz'))!);
      const project = path.join(work, 'project');
      mkdirSync(project);
      writeFileSync(path.join(project, 'package.json'), '{"name":"adopter","private":true}\n');
      const installed = npm(['i', '--omit=dev', '--prefer-offline', '--no-audit', '--no-fund', tarball], project);
      if (installed.status !== 0 && /ENOTFOUND|EAI_AGAIN|ECONNREFUSED|ETIMEDOUT|ENETUNREACH/.test(installed.stderr)) {
        ctx.skip(
          `npm could not reach a registry for the dependencies: ${installed.stderr.split('\n').find((l) => /ENOTFOUND|EAI_AGAIN|ECONNREFUSED|ETIMEDOUT|ENETUNREACH/.test(l))}`,
        );
      }
      expect(installed.status, installed.stderr).toBe(0);
      const modules = path.join(project, 'node_modules');
      const present = DEVELOPMENT_ONLY.flatMap((name) => [
        path.join(modules, name),
        path.join(modules, 'svc-conformance', 'node_modules', name),
      ]).filter((p) => existsSync(p));
      expect(present, 'development packages installed beside the product').toEqual([]);

      const bin = path.join(project, 'node_modules', '.bin', 'svc-conformance');
      const elsewhere = path.join(work, 'elsewhere');
      mkdirSync(elsewhere);
      // No tsx on the command line and none registered: the installed dist/ is what runs.
      const env = { ...process.env, KUBECONFIG: '', NODE_OPTIONS: '' };
      const version = spawnSync(bin, ['--version'], { cwd: elsewhere, encoding: 'utf8', timeout: 60_000, env });
      expect(version.status, version.stderr).toBe(0);
      expect(version.stdout.trim()).toBe(
        (JSON.parse(readFileSync(path.join(root, 'package.json'), 'utf8')) as { version: string }).version,
      );

      const help = spawnSync(bin, ['run', '--help'], { cwd: elsewhere, encoding: 'utf8', timeout: 60_000, env });
      expect(help.status, help.stderr).toBe(0);
      expect(help.stderr, 'the installed dist/ must run, not the sources through tsx').toBe('');

      // The shipped expectations by name, resolved inside the installed package, not the current folder.
      const listed = spawnSync(bin, ['list-expectations', '-o', 'json'], { cwd: elsewhere, encoding: 'utf8', timeout: 60_000, env });
      expect(listed.status, listed.stderr).toBe(0);
      const shipped = JSON.parse(listed.stdout) as { name: string; path: string }[];
      expect(shipped.map((e) => e.name)).toEqual(['upstream-kube-apiserver', 'upstream-kube-controller-manager', 'upstream-kubelet']);
      for (const e of shipped) expect(e.path.startsWith(path.join(project, 'node_modules', 'svc-conformance', 'expectations'))).toBe(true);
      const byName = spawnSync(bin, ['run', '--dry-run', '--profile', 'k8s', '--expectations', 'upstream-kube-apiserver'], {
        cwd: elsewhere,
        encoding: 'utf8',
        timeout: 60_000,
        env,
      });
      expect(byName.status, byName.stderr).toBe(0);

      const reports = path.join(elsewhere, 'out');
      // The whole daemon suite: its checks start the reference daemon as a process, dozens of times, from
      // the bundle in dist/ (without it they would need esbuild or tsx, and this install has neither).
      const run = spawnSync(
        bin,
        [
          'run',
          '--focus',
          '^crud-sequences$',
          '--focus',
          '^nodeagent-valid-configs$',
          '--focus',
          '^controller-daemon$',
          '--runs',
          '2',
          '--reports',
          reports,
        ],
        {
          cwd: elsewhere,
          encoding: 'utf8',
          timeout: 300_000,
          env,
        },
      );
      expect(run.stderr).not.toMatch(/running the sources through tsx/);
      expect(run.status, run.stderr).toBe(0);
      const summary = JSON.parse(readFileSync(path.join(reports, 'summary.json'), 'utf8')) as {
        verdict: string;
        totals: { passed: number };
        clauses: { id: string; status: string }[];
      };
      expect(summary.verdict).toBe('conformant');
      expect(summary.totals.passed).toBeGreaterThan(0);
      const daemonPassed = summary.clauses.filter((c) => c.id.startsWith('node:2.6/') && c.status === 'passed').length;
      expect(daemonPassed, 'the daemon suite judged its clauses from the install').toBeGreaterThan(30);
    },
  );
});
