/**
 * `npm run mutation`: the oracle's strength as a table. Runs each fault's checks against the
 * reference server with that fault planted, and every check against each legal variation, with the
 * default budget of `npm start` (25 runs per property). Prints a Markdown table; `--write FILE` also
 * writes it (docs/oracle-strength.md is made this way).
 */
import { writeFileSync } from 'node:fs';
import { performance } from 'node:perf_hooks';
import { faults } from '../targets/api-server/faults.ts';
import { variations } from '../targets/api-server/variations.ts';
import { checks } from '../suites/checks/index.ts';
import { errorsOf, failuresOf, runAgainst } from './in-process-run.ts';

const RUNS = Number(process.env['MUTATION_RUNS'] ?? 25);
const SEED = Number(process.env['MUTATION_SEED'] ?? 20261122);
const out: string[] = [];
const say = (line: string) => {
  out.push(line);
  process.stdout.write(`${line}\n`);
};

const median = (xs: number[]) => {
  const s = [...xs].sort((a, b) => a - b);
  return s.length === 0 ? NaN : s.length % 2 ? s[(s.length - 1) / 2]! : (s[s.length / 2 - 1]! + s[s.length / 2]!) / 2;
};

say(`## Planted faults (seed ${SEED}, ${RUNS} runs per property)`);
say('');
say('| fault | expected clause | caught | clause reported | requests in shrunk counterexample | time to detection |');
say('|---|---|---|---|---|---|');
let caught = 0;
const sizes: number[] = [];
const times: number[] = [];
for (const f of faults) {
  const t0 = performance.now();
  const records = await runAgainst({ checks: f.checks, faults: [f.name], runs: RUNS, seed: SEED });
  const ms = performance.now() - t0;
  const fails = failuresOf(records);
  const accepted: readonly string[] = [f.clause, ...f.alsoReportedAs];
  const right = fails.filter((r) => accepted.includes(r.clause));
  const ok = right.length > 0 && errorsOf(records).length === 0;
  if (ok) caught++;
  const reported = [...new Set(fails.map((r) => r.clause))].join(', ') || '-';
  const size = Math.min(...fails.map((r) => r.counterexample?.requestCount ?? Infinity));
  if (Number.isFinite(size)) sizes.push(size);
  times.push(ms);
  say(`| ${f.name} | ${f.clause} | ${ok ? 'yes' : 'NO'} | ${reported} | ${Number.isFinite(size) ? size : '-'} | ${(ms / 1000).toFixed(1)} s |`);
}
say('');
say(`Caught with the right clause: ${caught}/${faults.length} (${((caught / faults.length) * 100).toFixed(0)} %). Shrunk counterexamples: median ${median(sizes)} requests, max ${Math.max(...sizes)}. Time to detection: median ${(median(times) / 1000).toFixed(1)} s.`);
say('');
say(`## Legal variations (every check, ${RUNS} runs per property)`);
say('');
say('| variation | flagged | clauses flagged | errors |');
say('|---|---|---|---|');
let clean = 0;
for (const v of variations) {
  const records = await runAgainst({ checks: checks.map((c) => c.id), variations: [v.name], runs: RUNS, seed: SEED });
  const fails = failuresOf(records);
  const errs = errorsOf(records);
  if (fails.length === 0 && errs.length === 0) clean++;
  say(`| ${v.name} | ${fails.length > 0 ? 'YES' : 'no'} | ${[...new Set(fails.map((r) => r.clause))].join(', ') || '-'} | ${errs.length} |`);
}
say('');
say(`Variations passed: ${clean}/${variations.length}.`);

const writeAt = process.argv.indexOf('--write');
if (writeAt > 0 && process.argv[writeAt + 1]) {
  writeFileSync(process.argv[writeAt + 1]!, `# Oracle strength\n\nMade by \`npm run mutation -- --write docs/oracle-strength.md\`.\n\n${out.join('\n')}\n`);
}
process.exitCode = caught === faults.length && clean === variations.length ? 0 : 1;
