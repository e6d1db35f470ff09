/**
 * `tsx scripts/dev/partial-reproducer-decisions.ts [--keep DIR] [MODE...]`: do the reproducers of a
 * default run against a partial embedded server decide? For each `--without` mode alone and all of
 * them together (or the modes named): a default run of the compiled CLI (`bin/svc-conformance.mjs
 * run --seed 4242 --without MODE`), then every reproducer script it wrote run against a fresh embedded
 * server without the same features (it must exit 1: the failure is present) and a full one (it must
 * exit 0). Prints one line per mode and the totals; docs/partial-targets.md quotes them.
 */
import { execFile } from 'node:child_process';
import { mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { partialModes, type PartialModeName } from '../../targets/api-server/partial-modes.ts';
import { outcomeOf, servePartialForReproducers, type Outcome } from './reproducer-outcomes.ts';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const SEED = process.env['REPRO_SEED'] ?? '4242';
const args = process.argv.slice(2);
const keepAt = args.indexOf('--keep');
const keep = keepAt >= 0 ? args[keepAt + 1] : undefined;
const named = args.filter((a, i) => !a.startsWith('--') && args[i - 1] !== '--keep');
const all = partialModes.map((m) => m.name);
const unknown = named.filter((n) => !(all as readonly string[]).includes(n));
if (unknown.length > 0) {
  process.stderr.write(`no partial mode ${unknown.join(', ')} (npx svc-conformance list-faults names them)\n`);
  process.exit(2);
}
const sets: PartialModeName[][] = named.length > 0 ? [named as PartialModeName[]] : [...all.map((m) => [m]), [...all]];

function run(cmd: string, argv: readonly string[], env: Record<string, string> = {}): Promise<number> {
  return new Promise((resolve) => {
    execFile(cmd, [...argv], { env: { ...process.env, ...env }, timeout: 600_000, maxBuffer: 64 << 20 }, (err) =>
      resolve(err ? (typeof (err as { code?: unknown }).code === 'number' ? (err as { code: number }).code : -1) : 0),
    );
  });
}

const totals = new Map<Outcome, number>();
for (const modes of sets) {
  const label = modes.length === all.length ? 'all modes' : modes.join(' ');
  const dir = keep !== undefined ? path.join(keep, label.replace(/ /g, '_')) : mkdtempSync(path.join(tmpdir(), 'partial-repro-'));
  const without = modes.flatMap((m) => ['--without', m]);
  const exit = await run(process.execPath, [
    path.join(root, 'bin/svc-conformance.mjs'),
    'run',
    '--seed',
    SEED,
    ...without,
    '--reports',
    dir,
  ]);
  const cx = path.join(dir, 'counterexamples');
  let scripts: string[] = [];
  try {
    scripts = readdirSync(cx).filter((f) => f.endsWith('.sh'));
  } catch {
    // A run without failures writes no counterexamples.
  }
  const partial = await servePartialForReproducers(modes);
  const full = await servePartialForReproducers([]);
  const cells: string[] = [];
  try {
    for (const s of scripts) {
      const against = await run('bash', [path.join(cx, s)], { SERVER: partial.server.url, TOKEN: partial.token });
      const clean = await run('bash', [path.join(cx, s)], { SERVER: full.server.url, TOKEN: full.token });
      const o = outcomeOf(against, clean);
      totals.set(o, (totals.get(o) ?? 0) + 1);
      cells.push(`${s.replace(/-\d+\.sh$/, '')}: ${against}/${clean}`);
    }
  } finally {
    await Promise.all([partial.server.close(), full.server.close()]);
    if (keep === undefined) rmSync(dir, { recursive: true, force: true });
  }
  process.stdout.write(`| ${label} | ${exit} | ${scripts.length} | ${cells.join('; ') || '-'} |\n`);
}
const n = (o: Outcome) => totals.get(o) ?? 0;
process.stdout.write(
  `\nReproducers: ${n('right')} decided and right, ${n('undecided')} undecided, ${n('wrong')} wrong, ${n('could not run')} could not run.\n`,
);
process.exitCode = n('wrong') + n('undecided') + n('could not run') > 0 ? 1 : 0;
