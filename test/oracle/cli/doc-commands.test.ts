// Every `svc-conformance` command the README and the pages of docs/ show runs as written. A `run` is
// planned (--dry-run: nothing starts, nothing is sent, but every option is parsed and planned); the
// read-only commands run as they are; the others (servers that run until Ctrl-C, `compare`, `matrix`)
// are held to their command's --help: the subcommand exists and has every option the line uses. A
// renamed option or check fails here, as it would fail the reader who pastes the line.
import { describe, expect, it } from 'vitest';
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { shellCommands } from '../../helpers/markdown.ts';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../..');
const bin = path.join(root, 'bin', 'svc-conformance.mjs');
const env = { ...process.env, KUBECONFIG: '', NODE_OPTIONS: '' };

/** Subcommands that only read, run as they are written. */
const READ_ONLY = [/^--version$/, /^(list-checks|list-faults)( |$)/, /^versions /, / --help$/];

const ran = new Map<string, { status: number | null; out: string }>();

/**
 * The reader's own files the pages name (a kubeconfig, a token file): `run --dry-run` reads them as a
 * run would, so each is stood in for by a fixture of that kind; every other word runs as written.
 */
const fixtures = mkdtempSync(path.join(os.tmpdir(), 'doc-commands-'));
const kubeconfig = path.join(fixtures, 'kubeconfig');
const token = path.join(fixtures, 'token');
writeFileSync(
  kubeconfig,
  [
    'apiVersion: v1',
    'kind: Config',
    'current-context: my-cluster',
    'clusters: [{ name: c, cluster: { server: "https://10.0.0.1:6443" } }]',
    'users: [{ name: u, user: { token: t } }]',
    'contexts: [{ name: my-cluster, context: { cluster: c, user: u } }]',
    '',
  ].join('\n'),
);
writeFileSync(token, 't\n');
const READERS_FILES: readonly [RegExp, string][] = [
  [/(?<=--kubeconfig )(~\/\.kube\/config|\/tmp\/[\w.-]+\.kubeconfig)(?= |$)/g, kubeconfig],
  [/(?<=--token-file )\.\/token(?= |$)/g, token],
];
const withFixtures = (line: string): string => READERS_FILES.reduce((l, [re, file]) => l.replace(re, file), line);

/** Runs the CLI with `line` as bash would split it (quotes, `~`), from the repository; each line once. */
function cli(line: string): { status: number | null; out: string } {
  const known = ran.get(line);
  if (known !== undefined) return known;
  const r = spawnSync('bash', ['-c', `${JSON.stringify(process.execPath)} ${JSON.stringify(bin)} ${withFixtures(line)}`], {
    cwd: root,
    encoding: 'utf8',
    timeout: 60_000,
    env,
  });
  const result = { status: r.status, out: `${r.stdout}${r.stderr}` };
  ran.set(line, result);
  return result;
}

/** The words of `line` as bash splits them. */
function words(line: string): string[] {
  return spawnSync('bash', ['-c', `printf '%s\\0' ${line}`], { encoding: 'utf8', env })
    .stdout.split('\0')
    .slice(0, -1);
}

/** A command's help, descending into subcommands its help lists (`nodeagent validate`). */
function helpOf(args: readonly string[]): { path: string[]; help: string; rest: string[] } | undefined {
  const first = cli(`${JSON.stringify(args[0])} --help`);
  // An unknown command's --help is the top level's: its usage line does not name the command.
  if (first.status !== 0 || !first.out.includes(`Usage: svc-conformance ${args[0]} `)) return undefined;
  const found = { path: [args[0]!], help: first.out, rest: args.slice(1) };
  while (found.rest.length > 0 && !found.rest[0]!.startsWith('-')) {
    const listed = found.help.split(/^Commands:$/m)[1] ?? '';
    if (!new RegExp(`^\\s+${found.rest[0]!.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}[\\s\\[<]`, 'm').test(listed)) break;
    const deeper = cli(`${[...found.path, found.rest[0]!].map((w) => JSON.stringify(w)).join(' ')} --help`);
    if (deeper.status !== 0) break;
    found.path.push(found.rest.shift()!);
    found.help = deeper.out;
  }
  return found;
}

/** Why a shown command does not run as written, or undefined when it does (or is not ours). */
function commandProblem(command: string): string | undefined {
  const m = /^(?:npx )?svc-conformance(?: (.*?))?\s*&?$/.exec(command);
  if (!m) return undefined;
  const args = m[1] ?? '';
  if (/^run( |$)/.test(args) || READ_ONLY.some((r) => r.test(args))) {
    const r = cli(/^run( |$)/.test(args) ? `${args} --dry-run` : args);
    return r.status === 0 ? undefined : `exit ${r.status}: ${r.out.trim().split('\n')[0]}`;
  }
  const found = helpOf(words(args));
  if (found === undefined) return `no such command: ${words(args)[0]}`;
  const unknown = found.rest
    .filter((w) => w.startsWith('--'))
    .map((w) => w.split('=')[0]!)
    .filter((o) => !new RegExp(`(^|[\\s,])${o}([\\s,=<\\[]|$)`, 'm').test(found.help));
  return unknown.length === 0 ? undefined : `\`${found.path.join(' ')}\` has no ${unknown.join(', ')}`;
}

const pages = [
  'README.md',
  ...readdirSync(path.join(root, 'docs'))
    .filter((f) => f.endsWith('.md'))
    .map((f) => `docs/${f}`),
];

describe('the commands of the README and docs/', () => {
  it('run as written (`run` with --dry-run; servers, compare and matrix against their --help)', { timeout: 300_000 }, () => {
    const shown = pages.flatMap((page) => shellCommands(readFileSync(path.join(root, page), 'utf8')).map((c) => ({ page, c })));
    const ours = shown.filter(({ c }) => /^(npx )?svc-conformance\b/.test(c));
    expect(ours.filter(({ page }) => page === 'README.md').length).toBeGreaterThan(5);
    expect(ours.length).toBeGreaterThan(20);
    expect(ours.map(({ page, c }) => [page, c, commandProblem(c)]).filter(([, , problem]) => problem !== undefined)).toEqual([]);
  });

  it('would be reported with an option the command lacks, a bad pattern, or an unknown command', { timeout: 120_000 }, () => {
    expect(commandProblem('npx svc-conformance run --no-such-option')).toMatch(/^exit 2: /);
    expect(commandProblem('svc-conformance run --focus "("')).toMatch(/^exit 2: /);
    expect(commandProblem('svc-conformance serve --profile k8s --no-such-option &')).toBe('`serve` has no --no-such-option');
    expect(commandProblem('npx svc-conformance nodeagent validate --no-such-option ./x.yaml')).toBe(
      '`nodeagent validate` has no --no-such-option',
    );
    expect(commandProblem('svc-conformance servee --profile k8s')).toBe('no such command: servee');
    expect(commandProblem('svc-conformance serve --profile k8s --kubeconfig-out /tmp/x &')).toBeUndefined();
    expect(commandProblem('npm ci')).toBeUndefined();
  });
});
