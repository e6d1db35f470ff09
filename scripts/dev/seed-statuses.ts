/**
 * Which clauses' statuses move with the seed: reads the summary.json of several runs (files or report
 * folders) and prints each clause whose status is not the same in all of them, with the status per
 * run. A clause's verdict should come from the target, not from which cases a seed happened to draw.
 *
 *   npx tsx scripts/dev/seed-statuses.ts [--prefix node:] results/s1 results/s2 results/s3
 *
 * Exit 0 when every clause has one status, 1 when some move, 2 on a missing or unreadable summary.
 */
import { existsSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import type { SummaryJson } from '../../reports/summary-json.ts';

const args = process.argv.slice(2);
const at = args.indexOf('--prefix');
const prefix = at >= 0 ? (args[at + 1] ?? '') : '';
const inputs = at >= 0 ? args.filter((_, i) => i !== at && i !== at + 1) : args;
if (inputs.length < 2) {
  process.stderr.write('seed-statuses: give at least two summary.json files or report folders\n');
  process.exit(2);
}

const runs = inputs.map((input) => {
  const file = existsSync(input) && statSync(input).isDirectory() ? path.join(input, 'summary.json') : input;
  try {
    const s = JSON.parse(readFileSync(file, 'utf8')) as SummaryJson;
    return { label: `seed ${s.seed}`, statuses: new Map(s.clauses.map((c) => [c.id, c.status as string])) };
  } catch (e) {
    process.stderr.write(`seed-statuses: cannot read ${file}: ${e instanceof Error ? e.message.split('\n')[0] : String(e)}\n`);
    process.exit(2);
  }
});

const ids = [...new Set(runs.flatMap((r) => [...r.statuses.keys()]))].filter((id) => id.startsWith(prefix)).sort();
let moved = 0;
for (const id of ids) {
  const per = runs.map((r) => r.statuses.get(id) ?? 'absent');
  if (new Set(per).size === 1) continue;
  moved++;
  process.stdout.write(`${id}: ${runs.map((r, i) => `${r.label} ${per[i]}`).join(', ')}\n`);
}
process.stdout.write(`${moved} of ${ids.length} clauses${prefix ? ` under ${prefix}` : ''} move with the seed over ${runs.length} runs\n`);
process.exit(moved > 0 ? 1 : 0);
