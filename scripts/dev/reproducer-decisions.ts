/**
 * `npm run reproducers:decide [-- FAULT...] [--write FILE] [--keep DIR]`: for every planted fault of the
 * API server (or the ones named), a run that finds it, and its reproducers run against a faulty and a
 * clean embedded server (scripts/dev/reproducer-outcomes.ts). Prints a Markdown table: per fault the
 * worst outcome of its right-clause reproducers, and the totals. docs/reproducer-decisions.md is made
 * so. `--keep DIR` writes every reproducer and its last output lines there, to read why it decided so.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { faults, type Fault } from '../../targets/api-server/faults.ts';
import { measureFault, type FaultMeasure } from './reproducer-outcomes.ts';

const RUNS = Number(process.env['REPRO_RUNS'] ?? 25);
const SEED = Number(process.env['REPRO_SEED'] ?? 20261122);
const POOL = Number(process.env['REPRO_POOL'] ?? 2);

const args = process.argv.slice(2);
const option = (name: string) => {
  const at = args.indexOf(name);
  return at >= 0 ? args[at + 1] : undefined;
};
const writeTo = option('--write');
const keep = option('--keep');
const named = args.filter((a, i) => !a.startsWith('--') && args[i - 1] !== '--write' && args[i - 1] !== '--keep');
const unknown = named.filter((n) => !faults.some((f) => f.name === n));
if (unknown.length > 0) {
  process.stderr.write(`no planted fault ${unknown.join(', ')} (npx svc-conformance list-faults names them)\n`);
  process.exit(2);
}
const chosen: readonly Fault[] = named.length > 0 ? faults.filter((f) => named.includes(f.name)) : faults;

const out: FaultMeasure[] = new Array(chosen.length);
let next = 0;
const worker = async () => {
  while (next < chosen.length) {
    const i = next++;
    const f = chosen[i]!;
    out[i] = await measureFault(f, { runs: RUNS, seed: SEED });
    process.stderr.write(`  ${i + 1}/${chosen.length} ${f.name}: ${out[i]!.outcome}\n`);
    if (keep !== undefined) {
      const dir = path.join(keep, f.name);
      mkdirSync(dir, { recursive: true });
      out[i]!.rows.forEach((r, k) => {
        writeFileSync(path.join(dir, `${k + 1}.sh`), r.cx.curl);
        writeFileSync(
          path.join(dir, `${k + 1}.txt`),
          [
            `clause ${r.clause} check ${r.check} faulty ${r.faulty} clean ${r.clean} -> ${r.outcome}`,
            `expected: ${r.cx.expected}`,
            `observed: ${r.cx.observed}`,
            `replay: ${r.cx.replay}`,
            `faulty: ${r.tail.faulty}`,
            `clean: ${r.tail.clean}`,
            '',
          ].join('\n'),
        );
      });
    }
  }
};
await Promise.all(Array.from({ length: Math.min(POOL, chosen.length) }, worker));

const lines: string[] = [];
const say = (l = '') => {
  lines.push(l);
  process.stdout.write(`${l}\n`);
};
const count = (o: FaultMeasure['outcome']) => out.filter((m) => m.outcome === o).length;
const all = out.flatMap((m) => m.rows);
const rowCount = (o: string) => all.filter((r) => r.outcome === o).length;
const nodeRows = all.filter((r) => r.nodeTest !== undefined);
say(
  `Budget: ${RUNS} runs per property, seed ${SEED}. Each reproducer runs against a fresh embedded server with the fault (must exit 1) and a clean one (must exit 0).`,
);
say();
say(
  `Faults (worst right-clause reproducer): ${count('right')} decided and right, ${count('undecided')} undecided, ${count('wrong')} wrong, ${count('could not run')} could not run, ${count('not found')} not found; of ${out.length}.`,
);
const decidedOne = out.filter(
  (m) => m.rows.some((r) => m.clauses.includes(r.clause) && r.outcome === 'right') && !m.rows.some((r) => r.outcome === 'wrong'),
).length;
say(`Faults with at least one reproducer of their clause decided and right, and none wrong: ${decidedOne} of ${out.length}.`);
say(
  `Reproducers (every failure of those runs): ${rowCount('right')} right, ${rowCount('undecided')} undecided, ${rowCount('wrong')} wrong, ${rowCount('could not run')} could not run; of ${all.length}. Node test files: ${nodeRows.filter((r) => r.nodeTest!.agrees).length}/${nodeRows.length} agree with their script.`,
);
say();
say('| fault | outcome | reproducers (clause: exit against fault/clean) |');
say('|---|---|---|');
for (const m of out) {
  const cells = m.rows.map(
    (r) =>
      `${r.clause}: ${r.faulty}/${r.clean}${m.clauses.includes(r.clause) ? '' : ' (other clause)'}${r.nodeTest && !r.nodeTest.agrees ? ' (node test disagrees)' : ''}`,
  );
  say(`| ${m.fault} | ${m.outcome}${m.crash ? ` (crashed: ${m.crash.slice(0, 80)})` : ''} | ${cells.join('; ') || '-'} |`);
}
if (writeTo !== undefined)
  writeFileSync(
    writeTo,
    `# Do the reproducers decide?\n\nMade by \`npm run reproducers:decide -- --write ${writeTo}\`. Exit statuses of a reproducer: 0 the target behaves, 1 the failure is present, 2 it could not run, 3 undecided.\n\n${lines.join('\n')}\n`,
  );
process.exitCode = count('wrong') > 0 ? 1 : 0;
