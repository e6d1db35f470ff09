// Every `svc-conformance` command the README shows runs as written: a `run` as its plan (--dry-run:
// nothing starts, nothing is sent, but every option is parsed and planned), the read-only commands as
// they are. A renamed option or check in the README fails here, as it would fail its reader.
import { describe, expect, it } from 'vitest';
import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { shellCommands } from '../docs/markdown.ts';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const bin = path.join(root, 'bin', 'svc-conformance.mjs');

/** Subcommands that only read, run as they are written. */
const READ_ONLY = [/^--version$/, /^(list-checks|list-faults)( |$)/, /^versions /, / --help$/];

/** Why a shown command does not run as written, or undefined when it does (or is not ours). */
function commandProblem(command: string): string | undefined {
  const m = /^(?:npx )?svc-conformance(?: (.*))?$/.exec(command);
  if (!m) return undefined;
  const args = m[1] ?? '';
  let line: string;
  if (/^run( |$)/.test(args)) line = `${args} --dry-run`;
  else if (READ_ONLY.some((r) => r.test(args))) line = args;
  else return 'neither `run` nor a read-only command: this test cannot run it, so it cannot say it works';
  // Through bash, so quotes and `~` mean what they mean to a reader who pastes the line.
  const r = spawnSync('bash', ['-c', `${JSON.stringify(process.execPath)} ${JSON.stringify(bin)} ${line}`], {
    cwd: root,
    encoding: 'utf8',
    timeout: 60_000,
    env: { ...process.env, KUBECONFIG: '', NODE_OPTIONS: '' },
  });
  return r.status === 0 ? undefined : `exit ${r.status}: ${(r.stderr || r.stdout).trim().split('\n')[0]}`;
}

describe("the README's commands", () => {
  it('run as written (`run` with --dry-run)', { timeout: 120_000 }, () => {
    const commands = shellCommands(readFileSync(path.join(root, 'README.md'), 'utf8')).filter((c) => /^(npx )?svc-conformance\b/.test(c));
    expect(commands.length).toBeGreaterThan(5);
    expect(commands.map((c) => [c, commandProblem(c)]).filter(([, problem]) => problem !== undefined)).toEqual([]);
  });

  it('would be reported with an option `run` lacks, a bad pattern, or a command this test cannot run', { timeout: 60_000 }, () => {
    expect(commandProblem('npx svc-conformance run --no-such-option')).toMatch(/^exit 2: /);
    expect(commandProblem('svc-conformance run --focus "("')).toMatch(/^exit 2: /);
    expect(commandProblem('svc-conformance serve --profile k8s')).toMatch(/cannot run it/);
    expect(commandProblem('npm ci')).toBeUndefined();
  });
});
