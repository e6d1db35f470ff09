/**
 * Where a run's CPU goes, from the V8 CPU profiles of its node processes: each sample is
 * charged to the folder of the nearest frame of a file (node's own code is charged to whichever of our
 * files or packages called it), or to `transpiling` when a TypeScript/ESM transform is on its stack.
 * A sampler counts wall-clock ticks, and on a shared machine a process that waits for a core is still
 * sampled, so each process's samples are only shares: they are weighted by that process's own CPU time
 * (process.cpuUsage at exit). Pure: the profiles and bundle maps come in, rows go out.
 *
 *   one process, 2 s of CPU, samples 3 ms reference/ + 1 ms (idle) + 1 ms harness/
 *     -> reference/ 1.5 s, harness/ 0.5 s (idle dropped)
 */

export interface CpuProfileNode {
  readonly id: number;
  readonly callFrame: { readonly functionName: string; readonly url: string; readonly lineNumber: number };
  readonly children?: readonly number[];
}
export interface CpuProfile {
  readonly nodes: readonly CpuProfileNode[];
  readonly samples: readonly number[];
  readonly timeDeltas: readonly number[];
}
export interface ProcessProfile {
  readonly pid: number;
  readonly argv: readonly string[];
  /** process.cpuUsage() at exit, microseconds. */
  readonly cpuUsage: { readonly user: number; readonly system: number };
  readonly profile: CpuProfile;
}

/** For a bundle: the first line of each source module in it (esbuild's `// path/to/file.ts` comments), ascending. */
export type BundleModules = ReadonlyMap<string, readonly (readonly [line: number, source: string])[]>;

export interface CpuRow {
  readonly what: string;
  readonly cpuSeconds: number;
}
export interface CpuSummary {
  readonly byFolder: readonly CpuRow[];
  readonly byProcess: readonly (CpuRow & { readonly processes: number })[];
  /** Sum of the node processes' own CPU time, seconds. */
  readonly nodeCpuSeconds: number;
}

export const NODE_LOADING = 'node: resolving, reading and compiling modules';
export const TRANSPILING = 'transpiling (vite/rolldown/oxc transforms, esbuild, tsx)';
const TRANSPILER_PACKAGES = new Set(['rolldown', 'esbuild', 'tsx', 'get-tsconfig']);
const TRANSPILER_SCOPES = ['@rolldown/', '@oxc-project/', '@esbuild/'];
const FOLDERS = new Set(['reference', 'harness', 'runner', 'reports', 'suites', 'generators', 'targets', 'scripts', 'bin']);
// The daemon's bundle (targets/controller-daemon/bundle.ts): the build's in dist/controller-daemon/, or one
// a run from the sources made in node_modules/.cache (a folder of parts; one file in earlier builds).
const DAEMON_BUNDLE =
  /\/dist\/controller-daemon\/[^/]+\.mjs$|\/node_modules\/\.cache\/svc-conformance\/controller-daemon-[^/]*(?:\.mjs|\/[^/]+\.mjs)$/;

/** esbuild's module comments in a bundle's text -> BundleModules entry for it. */
export function bundleModulesOf(text: string): (readonly [number, string])[] {
  const out: (readonly [number, string])[] = [];
  text.split('\n').forEach((line, i) => {
    const m = /^\/\/ (\S+\.(?:[cm]?[jt]s|json))$/.exec(line);
    if (m) out.push([i, m[1]!]);
  });
  return out;
}

function sourceAt(modules: readonly (readonly [number, string])[], line: number): string | undefined {
  let lo = 0;
  let hi = modules.length - 1;
  let found: string | undefined;
  while (lo <= hi) {
    const mid = (lo + hi) >> 1;
    if (modules[mid]![0] <= line) {
      found = modules[mid]![1];
      lo = mid + 1;
    } else hi = mid - 1;
  }
  return found;
}

function packageOf(pathAfterNodeModules: string): string {
  const parts = pathAfterNodeModules.split('/');
  return parts[0]!.startsWith('@') ? `${parts[0]}/${parts[1]}` : parts[0]!;
}

/** The row a frame belongs to, or undefined for node's own code and V8's pseudo-frames. */
export function folderOfFrame(url: string, line: number, rootUrl: string, bundles: BundleModules): string | undefined {
  if (!url.startsWith('file://')) return undefined;
  if (DAEMON_BUNDLE.test(url)) return 'targets/ (the reference daemon, bundled)';
  const bundle = bundles.get(url);
  const src = bundle !== undefined ? sourceAt(bundle, line) : url.startsWith(`${rootUrl}/`) ? url.slice(rootUrl.length + 1) : undefined;
  if (src !== undefined) {
    const nm = src.lastIndexOf('node_modules/');
    if (nm >= 0) return `node_modules/${packageOf(src.slice(nm + 'node_modules/'.length))}`;
    const top = src.split('/')[0]!;
    if (src === 'scripts/dev/cpu-profile-preload.mjs') return 'the profiler itself';
    return FOLDERS.has(top) ? `${top}/` : `${top} (other)`;
  }
  const nm = url.lastIndexOf('/node_modules/');
  if (nm >= 0) return `node_modules/${packageOf(url.slice(nm + '/node_modules/'.length))}`;
  return 'other files';
}

function isTranspiling(frame: CpuProfileNode['callFrame']): boolean {
  const nm = frame.url.lastIndexOf('/node_modules/');
  if (nm < 0) return false;
  const rest = frame.url.slice(nm + '/node_modules/'.length);
  const pkg = packageOf(rest);
  if (TRANSPILER_PACKAGES.has(pkg) || TRANSPILER_SCOPES.some((s) => rest.startsWith(s))) return true;
  return (pkg === 'vite' || pkg === 'vitest') && /transform/i.test(frame.functionName);
}

/** One process's busy samples by row, in microseconds of samples (not yet weighted). */
export function sampleShares(profile: CpuProfile, rootUrl: string, bundles: BundleModules): Map<string, number> {
  const byId = new Map(profile.nodes.map((n) => [n.id, n]));
  const parent = new Map<number, number>();
  for (const n of profile.nodes) for (const c of n.children ?? []) parent.set(c, n.id);
  const memo = new Map<number, string | null>();
  const rowOf = (leafId: number): string | null => {
    const cached = memo.get(leafId);
    if (cached !== undefined) return cached;
    const leaf = byId.get(leafId)!.callFrame;
    let row: string | null;
    if (leaf.functionName === '(idle)') row = null;
    else if (leaf.functionName === '(garbage collector)') row = 'garbage collector';
    else {
      let folder: string | undefined;
      let transpiling = false;
      let loading = false;
      for (let id: number | undefined = leafId; id !== undefined; id = parent.get(id)) {
        const f = byId.get(id)!.callFrame;
        if (isTranspiling(f)) {
          transpiling = true;
          break;
        }
        folder ??= folderOfFrame(f.url, f.lineNumber, rootUrl, bundles);
        loading ||= f.url.startsWith('node:internal/modules/');
      }
      row = transpiling
        ? TRANSPILING
        : (folder ??
          (leaf.functionName === '(program)'
            ? 'V8 and native code (no JavaScript frame)'
            : loading
              ? NODE_LOADING
              : 'node: event loop, I/O, timers'));
    }
    memo.set(leafId, row);
    return row;
  };
  const out = new Map<string, number>();
  profile.samples.forEach((s, i) => {
    const row = rowOf(s);
    if (row !== null) out.set(row, (out.get(row) ?? 0) + (profile.timeDeltas[i] ?? 0));
  });
  return out;
}

/** What kind of process a profile came from, by its command line. */
export function processKind(argv: readonly string[]): string {
  const cmd = argv.slice(1).join(' ');
  if (/bin\/svc-conformance\.mjs\b/.test(argv[1] ?? ''))
    return 'CLI (runner, embedded API server, loader, the reference daemon started with flags)';
  if (cmd.includes('vitest/dist/workers')) return 'vitest worker (the suites)';
  if (/controller-daemon/.test(argv[1] ?? '')) return 'reference controller daemon (--help, --version)';
  if (/spawn-helper\.mjs$/.test(argv[1] ?? '')) return 'spawn helper (forks the daemon processes)';
  return `other node: ${(argv[1] ?? '').split('/').pop()}`;
}

export function summariseCpu(processes: readonly ProcessProfile[], rootUrl: string, bundles: BundleModules): CpuSummary {
  const folders = new Map<string, number>();
  const kinds = new Map<string, { cpu: number; n: number }>();
  let nodeCpu = 0;
  for (const p of processes) {
    const cpu = (p.cpuUsage.user + p.cpuUsage.system) / 1e6;
    nodeCpu += cpu;
    const k = processKind(p.argv);
    const kind = kinds.get(k) ?? { cpu: 0, n: 0 };
    kinds.set(k, { cpu: kind.cpu + cpu, n: kind.n + 1 });
    const shares = sampleShares(p.profile, rootUrl, bundles);
    const busy = [...shares.values()].reduce((a, b) => a + b, 0);
    if (busy === 0) {
      folders.set('unsampled', (folders.get('unsampled') ?? 0) + cpu);
      continue;
    }
    for (const [row, us] of shares) folders.set(row, (folders.get(row) ?? 0) + (cpu * us) / busy);
  }
  const desc = (a: CpuRow, b: CpuRow) => b.cpuSeconds - a.cpuSeconds || a.what.localeCompare(b.what);
  // Our folders always get a row; packages under half a percent share one.
  for (const f of ['reference/', 'harness/', 'reports/', 'suites/', 'generators/', 'targets/']) folders.set(f, folders.get(f) ?? 0);
  const small = [...folders].filter(([what, cpu]) => what.startsWith('node_modules/') && cpu < 0.005 * nodeCpu);
  for (const [what] of small) folders.delete(what);
  const smallSum = small.reduce((a, [, cpu]) => a + cpu, 0);
  return {
    byFolder: [
      ...[...folders].map(([what, cpuSeconds]) => ({ what, cpuSeconds })).sort(desc),
      ...(small.length > 0 ? [{ what: `node_modules/ (${small.length} other packages)`, cpuSeconds: smallSum }] : []),
    ],
    byProcess: [...kinds].map(([what, v]) => ({ what, cpuSeconds: v.cpu, processes: v.n })).sort(desc),
    nodeCpuSeconds: nodeCpu,
  };
}

/** The table `npm run bench` prints. treeCpu: user+sys of the whole process tree, when known. */
export function cpuSummaryLines(s: CpuSummary, treeCpu: { user: number; system: number } | undefined, wallSeconds: number): string[] {
  const total = treeCpu === undefined ? s.nodeCpuSeconds : treeCpu.user + treeCpu.system;
  const pct = (x: number) => `${((100 * x) / (total || 1)).toFixed(1).padStart(5)}%`;
  const row = (what: string, x: number) => `    ${what.padEnd(58)} ${x.toFixed(2).padStart(7)} ${pct(x)}`;
  const lines = [
    `  where the CPU goes: the same run again, every node process profiled: ${treeCpu === undefined ? `${s.nodeCpuSeconds.toFixed(1)} s in its node processes (the tree's total needs /proc)` : `${total.toFixed(1)} s user+sys for the process tree`}, ${wallSeconds.toFixed(1)} s wall`,
    `  by process                                                   CPU s  share`,
    ...s.byProcess.map((p) => row(`${p.what}${p.processes > 1 ? ` x${p.processes}` : ''}`, p.cpuSeconds)),
  ];
  if (treeCpu !== undefined) lines.push(row('not node, or not seen (esbuild service, openssl, sh)', Math.max(0, total - s.nodeCpuSeconds)));
  lines.push(
    `  by folder (each node process's samples weighted by its CPU)   CPU s  share`,
    ...s.byFolder.map((r) => row(r.what, r.cpuSeconds)),
  );
  return lines;
}
