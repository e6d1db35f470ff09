/**
 * CPU-seconds per test file, for measuring `npm test` (docs/performance.md, "The self-tests"): with
 * SVC_TEST_CPU_LOG=FILE, vitest.config.ts loads this as a setup file and each test file appends one JSON
 * line to FILE: its worker's user+sys CPU and that of the processes it started and reaped, from the
 * file's start to its end, and its wall time. A worker runs one file at a time, so the deltas are the
 * file's own; the vitest main process (which transforms the modules) is not in them.
 */
import { appendFileSync, readFileSync } from 'node:fs';
import { afterAll } from 'vitest';

const TICKS_PER_SECOND = 100;

/** User+sys CPU-seconds of the processes this one has reaped (/proc/self/stat's cutime and cstime). */
function reapedChildrenSeconds(): number {
  try {
    const stat = readFileSync('/proc/self/stat', 'utf8');
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return (Number(fields[13]) + Number(fields[14])) / TICKS_PER_SECOND;
  } catch {
    return 0;
  }
}

const ownSeconds = () => {
  const u = process.cpuUsage();
  return (u.user + u.system) / 1e6;
};

const log = process.env.SVC_TEST_CPU_LOG;
if (log) {
  const start = { own: ownSeconds(), children: reapedChildrenSeconds(), wall: performance.now() };
  afterAll(({}, suite) => {
    const own = ownSeconds() - start.own;
    const children = reapedChildrenSeconds() - start.children;
    const file = 'filepath' in suite ? suite.filepath : suite.name;
    // `before`: what the worker had spent before this file (its start, for the first file of a process).
    const line = {
      file,
      own,
      children,
      cpu: own + children,
      wall: (performance.now() - start.wall) / 1000,
      pid: process.pid,
      before: start.own,
    };
    appendFileSync(log, JSON.stringify(line) + '\n');
  });
}
