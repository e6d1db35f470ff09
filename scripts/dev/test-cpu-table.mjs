#!/usr/bin/env node
// The CPU log of a vitest run (SVC_TEST_CPU_LOG=FILE, test/helpers/cpu-per-file.ts) as a table, the
// costliest files first, with the total:
//   node scripts/dev/test-cpu-table.mjs FILE [TOP]
// Plain JavaScript, so that reading a log starts no transform.
import { readFileSync } from 'node:fs';
import { relative } from 'node:path';

const [file, topArg] = process.argv.slice(2);
if (!file) {
  process.stderr.write('usage: node scripts/dev/test-cpu-table.mjs FILE [TOP]\n');
  process.exit(2);
}
let text;
try {
  text = readFileSync(file, 'utf8');
} catch (e) {
  process.stderr.write(`test-cpu-table: cannot read ${file}: ${e.code ?? e.message}\n`);
  process.exit(2);
}
const lines = text.split('\n').filter((l) => l.trim() !== '');
const rows = lines.map((l) => JSON.parse(l));
const files = rows.filter((r) => typeof r.own === 'number').sort((a, b) => b.cpu - a.cpu);
// Both oracle projects' global setups write vitest's process: the same process, so the last figure.
const main = rows.filter((r) => r.own === undefined).reduce((m, r) => Math.max(m, r.cpu), 0);
const top = Number(topArg ?? files.length);
const fmt = (n) => n.toFixed(1).padStart(7);
const out = ['    CPU  reaped    wall  file'];
for (const r of files.slice(0, top)) out.push(`${fmt(r.cpu)} ${fmt(r.children)} ${fmt(r.wall)}  ${relative(process.cwd(), r.file)}`);
// A worker's start: what its process had spent before the first file it ran (the least `before` of its pid).
const firstBefore = new Map();
for (const r of files) firstBefore.set(r.pid, Math.min(firstBefore.get(r.pid) ?? Infinity, r.before ?? 0));
const starts = [...firstBefore.values()].reduce((s, b) => s + b, 0);
const total = files.reduce((s, r) => s + r.cpu, 0);
out.push(`${fmt(total)} CPU-s in ${files.length} files; workers' starts ${starts.toFixed(1)}; vitest's process ${main.toFixed(1)}`);
process.stdout.write(out.join('\n') + '\n');
