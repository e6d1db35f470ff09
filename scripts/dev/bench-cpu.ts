/**
 * The CPU part of the bench's whole runs: every node process of the run is profiled through a
 * preload (scripts/dev/cpu-profile-preload.mjs), and the whole process tree's user+sys time is read from
 * /proc/self/stat (the children's times a process collects as it reaps them), before and after.
 * Figures only: nothing here asserts on time.
 */
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { bundleModulesOf, cpuSummaryLines, summariseCpu, type ProcessProfile } from './cpu-profile-summary.ts';
import { distDir, packageRoot } from '../dist-state.mjs';

export interface TreeCpu {
  readonly user: number;
  readonly system: number;
}

/**
 * Started before a child is spawned; called after it has been reaped: the user and sys seconds of the
 * child and every descendant it reaped (a process orphaned on the way is not counted). Undefined
 * without /proc.
 */
export function treeCpuMeter(): () => TreeCpu | undefined {
  const before = reapedChildrenCpu();
  return () => {
    const after = reapedChildrenCpu();
    return before !== undefined && after !== undefined
      ? { user: after.user - before.user, system: after.system - before.system }
      : undefined;
  };
}

/** user and sys seconds of this process's reaped descendants; undefined without /proc. */
function reapedChildrenCpu(): { user: number; system: number } | undefined {
  let stat: string;
  try {
    stat = readFileSync('/proc/self/stat', 'utf8');
  } catch {
    return undefined;
  }
  // After the command name (in parentheses, may hold spaces): state is field 3, cutime 16, cstime 17.
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  const ticks = clockTicks();
  return { user: Number(fields[13]) / ticks, system: Number(fields[14]) / ticks };
}

let ticksPerSecond: number | undefined;
function clockTicks(): number {
  if (ticksPerSecond === undefined) {
    try {
      ticksPerSecond = Number(execFileSync('getconf', ['CLK_TCK'], { encoding: 'utf8' }).trim()) || 100;
    } catch {
      ticksPerSecond = 100;
    }
  }
  return ticksPerSecond;
}

/** Which source module each line of dist/*.js came from, so the CLI's samples land in their folders. */
function distBundles(): Map<string, (readonly [number, string])[]> {
  const out = new Map<string, (readonly [number, string])[]>();
  let files: string[] = [];
  try {
    files = readdirSync(distDir).filter((f) => f.endsWith('.js'));
  } catch {
    return out;
  }
  for (const f of files) out.set(pathToFileURL(path.join(distDir, f)).href, bundleModulesOf(readFileSync(path.join(distDir, f), 'utf8')));
  return out;
}

export interface CpuProfiling {
  /** The environment to start the run with. */
  readonly env: NodeJS.ProcessEnv;
  /** After the run has exited and been reaped: the table, and the profiles removed. */
  readonly finish: (wallSeconds: number) => string[];
}

export function cpuProfiling(): CpuProfiling {
  const dir = mkdtempSync(path.join(tmpdir(), 'svc-bench-cpu-'));
  const preload = pathToFileURL(path.join(packageRoot, 'scripts', 'dev', 'cpu-profile-preload.mjs')).href;
  const tree = treeCpuMeter();
  return {
    env: {
      ...process.env,
      SVC_CONFORMANCE_CPU_PROFILE_DIR: dir,
      NODE_OPTIONS: `${process.env['NODE_OPTIONS'] ?? ''} --import=${preload}`.trim(),
    },
    finish: (wallSeconds) => {
      try {
        const processes = readdirSync(dir).flatMap((f): ProcessProfile[] => {
          try {
            return [JSON.parse(readFileSync(path.join(dir, f), 'utf8')) as ProcessProfile];
          } catch {
            return [];
          }
        });
        if (processes.length === 0) return ['  CPU profile: no process wrote one (was the preload refused?)'];
        return cpuSummaryLines(summariseCpu(processes, pathToFileURL(packageRoot).href, distBundles()), tree(), wallSeconds);
      } finally {
        rmSync(dir, { recursive: true, force: true });
      }
    },
  };
}
