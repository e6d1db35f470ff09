/**
 * `npm run records:refresh` (docs/rejudge.md, "The corpus"): writes the corpus of real servers'
 * records, test/fixtures/records/, from the upstream binaries of KUBEBUILDER_ASSETS (or --assets).
 * For each topology in turn it starts a control plane and runs the API suites on fresh random seeds
 * exactly as `npm run test:upstream` runs its fresh seeds (scripts/upstream/plan.ts: flags, capability,
 * compaction hook, expectations file, budget); on the first topology it also runs the real controller
 * manager (controller-daemon suite) and the kubelet config loader (nodeagent-config suite), each on a
 * fresh seed with its shipped expectations file.
 *
 * The corpus is replaced only when every run ended conformant beyond its expectations file and left a
 * record holding none of the control plane's credentials: otherwise nothing in the corpus changes and
 * the failing runs are named with their reports (kept). The script only compresses the records again
 * (scripts/dev/record-corpus.ts), so a new record schema needs nothing here but running it.
 *
 * Exit codes: 0 corpus written; 1 some run failed (corpus unchanged); 2 usage (bad option, no binaries);
 * 3 a control plane did not start; 130/143 interrupted.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { closeSync, existsSync, mkdirSync, mkdtempSync, openSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { Command, InvalidArgumentError } from '@commander-js/extra-typings';
import { AssetsError, resolveAssets, topologies, type Assets, type ControlPlane, type Topology } from '../../harness/envtest/index.ts';
import { shellQuote } from '../../harness/processes/index.ts';
import { ensureDist } from '../build.ts';
import { startOrExplain } from '../envtest-cli.ts';
import { drawSeeds, expectationFiles, planRuns, type PlannedRun } from '../upstream/plan.ts';
import { CORPUS_DIR, INDEX_FILE, packRecord, readCorpusIndex, RECORD_SUFFIX, writeCorpusIndex, type CorpusEntry } from './record-corpus.ts';
import { entryOf, gitCommit, runProblem, secretsIn, targetVersions, type FinishedRun } from './refresh-records-run.ts';

const EXIT = { ok: 0, failed: 1, usage: 2, startFailed: 3 } as const;
const root = path.resolve(import.meta.dirname, '../..');
const bin = path.join(root, 'bin', 'svc-conformance.mjs');
const say = (line: string) => process.stdout.write(`records:refresh: ${line}\n`);
/** Far above a run of the plan; a hung run must not hang the refresh. */
const RUN_TIMEOUT_MS = 20 * 60_000;

const positive = (v: string): number => {
  if (!/^[1-9]\d*$/.test(v.trim())) throw new InvalidArgumentError('a positive integer');
  return Number(v);
};
const topologyList = (v: string): Topology[] => {
  const list = v.split(',').map((s) => s.trim());
  const bad = list.filter((t) => !topologies.includes(t as Topology));
  if (bad.length > 0 || new Set(list).size !== list.length) throw new InvalidArgumentError(`each once, of ${topologies.join(', ')}`);
  return list as Topology[];
};

const program = new Command('records:refresh')
  .description('write test/fixtures/records/ (the corpus the rejudge self-test judges again) from runs against the upstream binaries')
  .option(
    '--assets <dir>',
    'folder with etcd, kube-apiserver, kube-controller-manager and kubelet-config-loader (default: KUBEBUILDER_ASSETS)',
  )
  .option('--seeds <n>', 'fresh seeds of the API suites per topology', positive, 3)
  .option('--topologies <list>', `control planes, in order: ${topologies.join(', ')}`, topologyList, [...topologies])
  .option('--out <dir>', 'the corpus folder', CORPUS_DIR)
  .exitOverride()
  .configureOutput({ outputError: (s, write) => write(s) });

interface Interrupt {
  signal?: NodeJS.Signals;
  child?: ChildProcess;
}

async function main(): Promise<number> {
  try {
    program.parse(process.argv);
  } catch (e) {
    const code = (e as { code?: string }).code;
    return code === 'commander.helpDisplayed' || code === 'commander.version' ? EXIT.ok : EXIT.usage;
  }
  const o = program.opts();
  let assets: Assets;
  try {
    assets = resolveAssets({ dir: o.assets, required: ['etcd', 'kube-apiserver', 'kube-controller-manager', 'kubelet-config-loader'] });
  } catch (e) {
    if (!(e instanceof AssetsError)) throw e;
    process.stderr.write(`records:refresh: ${e.message}\n`);
    return EXIT.usage;
  }
  const previous = previousFiles(path.resolve(o.out));
  if (typeof previous === 'string') {
    process.stderr.write(`records:refresh: ${previous}\n`);
    return EXIT.usage;
  }
  const started = Date.now();
  // The runs are the sources' as they are now: the CLI built from them, and the commit said in the index.
  await ensureDist();
  const commit = gitCommit();
  const work = mkdtempSync(path.join(tmpdir(), 'svc-records-'));
  say(`binaries from ${assets.dir}; ${o.seeds} fresh seeds on each of ${o.topologies.join(', ')}; run folders in ${work}`);
  const interrupt = onSignals();
  const finished: FinishedRun[] = [];
  try {
    for (const [i, topology] of o.topologies.entries()) {
      if (interrupt.signal !== undefined) break;
      const ran = await onControlPlane(topology, i === 0, o.seeds, assets, work, interrupt);
      if (typeof ran === 'number') return ran;
      finished.push(...ran);
    }
  } finally {
    interrupt.stop();
  }
  if (interrupt.signal !== undefined) {
    say(`${interrupt.signal}: stopped after ${finished.length} runs; the corpus is unchanged; run folders in ${work}`);
    return interrupt.signal === 'SIGINT' ? 130 : 143;
  }
  const problems = finished.flatMap((f) => runProblem(f).map((p) => `${f.run.name}: ${p} (reports in ${f.run.reportsDir})`));
  if (problems.length > 0) {
    for (const p of problems) say(p);
    say(`FAILED: ${problems.length} problem(s) in ${finished.length} runs; the corpus is unchanged`);
    return EXIT.failed;
  }
  const entries = writeCorpus(finished, path.resolve(o.out), previous, commit);
  rmSync(work, { recursive: true, force: true });
  const total = entries.reduce((n, e) => n + e.bytes, 0);
  say(
    `wrote ${entries.length} records (${(total / 1e6).toFixed(2)} MB) and ${INDEX_FILE} to ${path.relative(process.cwd(), path.resolve(o.out)) || '.'} in ${Math.round((Date.now() - started) / 1000)} s`,
  );
  return EXIT.ok;
}

/** One topology: its control plane up, its runs one after another, the control plane down. */
async function onControlPlane(
  topology: Topology,
  first: boolean,
  seeds: number,
  assets: Assets,
  work: string,
  interrupt: Interrupt & { stop(): void },
): Promise<FinishedRun[] | number> {
  const cp = await startOrExplain(
    {
      assetsDir: assets.dir,
      controllerManager: 'required',
      topology,
      logDir: path.join(work, 'logs', topology),
      log: say,
      stopOnSignals: false,
    },
    (l) => process.stderr.write(`${l}\n`),
  );
  if (typeof cp === 'number') return cp === 2 ? EXIT.usage : EXIT.startFailed;
  say(`${topology} control plane ready at ${cp.server}`);
  const out: FinishedRun[] = [];
  try {
    const base = {
      topology,
      kubeconfig: cp.kubeconfigPath,
      controllerManager: assets.binaries['kube-controller-manager']!,
      kubeletConfigLoader: assets.binaries['kubelet-config-loader']!,
      compactHook: `node ${shellQuote(path.join(root, 'scripts', 'etcd-compact.mjs'))} ${cp.etcdUrl}`,
      reportsRoot: work,
      root,
    };
    const plan = [
      ...planRuns({ ...base, seeds: [], freshSeeds: drawSeeds(seeds), kinds: ['api'] }),
      // Neither talks to the cluster: run once, beside the first control plane.
      ...(first ? planRuns({ ...base, seeds: drawSeeds(1), freshSeeds: [], kinds: ['daemon', 'nodeagent'] }) : []),
    ];
    const versions = targetVersions(assets);
    for (const run of plan) {
      if (interrupt.signal !== undefined) break;
      out.push(await runOne(run, cp, versions, interrupt));
    }
  } finally {
    const { ms } = await cp.stop();
    say(`${topology} control plane stopped in ${(ms / 1000).toFixed(1)} s`);
  }
  return out;
}

async function runOne(
  run: PlannedRun,
  cp: ControlPlane,
  versions: Readonly<Record<string, string>>,
  interrupt: Interrupt,
): Promise<FinishedRun> {
  mkdirSync(run.reportsDir, { recursive: true });
  const t0 = Date.now();
  const fd = openSync(path.join(run.reportsDir, 'output.txt'), 'w');
  const child = spawn(process.execPath, [bin, ...run.args], { stdio: ['ignore', fd, fd], detached: true, cwd: root });
  closeSync(fd);
  interrupt.child = child;
  const limit = setTimeout(() => signalGroup(child, 'SIGTERM'), RUN_TIMEOUT_MS);
  const exitCode = await new Promise<number | null>((resolve) => {
    child.once('error', () => resolve(null));
    child.once('exit', (code) => resolve(code));
  });
  clearTimeout(limit);
  delete interrupt.child;
  const f: FinishedRun = {
    run,
    exitCode,
    wallMs: Date.now() - t0,
    secrets: secretsIn(run.reportsDir, [cp.credentials().token]),
    version: versions[run.kind] ?? run.kind,
  };
  say(`${run.name}: exit ${String(exitCode)} in ${Math.round(f.wallMs / 1000)} s`);
  return f;
}

/** The records packed into the corpus folder and the index; the files of the previous index go. */
function writeCorpus(finished: readonly FinishedRun[], out: string, previous: readonly string[], commit: string): CorpusEntry[] {
  mkdirSync(out, { recursive: true });
  // Only what an earlier refresh listed is removed: a file it did not write stays (and the self-test names it).
  for (const file of previous) rmSync(path.join(out, file), { force: true });
  const entries = finished.map((f) => {
    const packed = packRecord(readFileSync(path.join(f.run.reportsDir, 'record.jsonl.gz')));
    const file = `${f.run.kind}-${f.run.kind === 'api' ? `${f.run.topology}-` : ''}seed${f.run.seed}${RECORD_SUFFIX}`;
    writeFileSync(path.join(out, file), packed);
    return entryOf(f, { file, bytes: packed.length, expectations: expectationFiles[f.run.kind], commit });
  });
  writeCorpusIndex(entries, out);
  const strangers = readdirSync(out).filter((f) => f !== INDEX_FILE && !entries.some((e) => e.file === f));
  if (strangers.length > 0) say(`not written by this script, left alone (the corpus self-test fails on them): ${strangers.join(', ')}`);
  return entries;
}

/** The files the corpus's index lists now (the ones a refresh may replace), or why it cannot be read. */
function previousFiles(out: string): string[] | string {
  if (!existsSync(path.join(out, INDEX_FILE))) return [];
  try {
    return readCorpusIndex(out).records.map((e) => path.basename(e.file));
  } catch (e) {
    return `${path.join(out, INDEX_FILE)}: not a corpus index (${(e as Error).message.split('\n')[0]}); nothing was run or changed`;
  }
}

/** Ctrl-C / SIGTERM: the running suite gets it once (it cleans up), then the control plane stops. */
function onSignals(): Interrupt & { stop(): void } {
  const state: Interrupt & { stop(): void } = {
    stop: () => {
      process.removeListener('SIGINT', handler);
      process.removeListener('SIGTERM', handler);
    },
  };
  const handler = (signal: NodeJS.Signals) => {
    if (state.signal !== undefined) return;
    state.signal = signal;
    if (state.child !== undefined) signalGroup(state.child, signal);
  };
  process.on('SIGINT', handler);
  process.on('SIGTERM', handler);
  return state;
}

function signalGroup(child: ChildProcess, signal: NodeJS.Signals): void {
  try {
    if (child.pid !== undefined) process.kill(-child.pid, signal);
  } catch {
    // already gone
  }
}

process.exitCode = await main();
