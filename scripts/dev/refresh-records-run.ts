/**
 * One finished run of `npm run records:refresh` (scripts/dev/refresh-records.ts): whether it may enter
 * the corpus, and its index entry. Read from its public reports (summary.json) and the arguments it
 * was given, never from the record's internals.
 */
import { execFileSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { gunzipSync } from 'node:zlib';
import type { Assets } from '../../harness/envtest/index.ts';
import { capabilityFact } from '../../reports/expectations.ts';
import type { SummaryJson } from '../../reports/summary-json.ts';
import type { PlannedRun } from '../upstream/plan.ts';
import { statusesDigest, type CorpusEntry } from './record-corpus.ts';

export interface FinishedRun {
  readonly run: PlannedRun;
  readonly exitCode: number | null;
  readonly wallMs: number;
  /** How many of the control plane's secrets the record holds (0, or it stays out of the corpus). */
  readonly secrets: number;
  /** The binary under test with its version. */
  readonly version: string;
}

const RECORD = 'record.jsonl.gz';
const packageRoot = path.resolve(import.meta.dirname, '../..');

function summaryOf(dir: string): SummaryJson | undefined {
  try {
    return JSON.parse(readFileSync(path.join(dir, 'summary.json'), 'utf8')) as SummaryJson;
  } catch {
    return undefined;
  }
}

/** Why a run may not enter the corpus; [] when it may. */
export function runProblem(f: FinishedRun): string[] {
  const dir = f.run.reportsDir;
  const s = summaryOf(dir);
  if (s === undefined) return [`no readable summary.json (exit ${String(f.exitCode)})`];
  const out: string[] = [];
  const beyond = s.clauses.filter((c) => c.status === 'failed' && c.expectedFailure !== true).map((c) => c.id);
  if (beyond.length > 0)
    out.push(`failed beyond ${path.basename(f.run.args[f.run.args.indexOf('--expectations') + 1] ?? '')}: ${beyond.join(', ')}`);
  const errors = [...s.clauses.filter((c) => c.status === 'error').map((c) => c.id), ...s.errors, ...(s.notTested ?? [])];
  if (errors.length > 0) out.push(`errors: ${errors.join('; ')}`);
  if (f.exitCode !== 0 && out.length === 0) out.push(`exit ${String(f.exitCode)} (verdict ${s.verdict})`);
  if (!existsSync(path.join(dir, RECORD))) out.push(`no ${RECORD}`);
  if (f.secrets > 0) out.push(`its ${RECORD} holds the control plane's credentials`);
  return out;
}

/** How many of `secrets` the run's record holds (searched in the decompressed text). */
export function secretsIn(dir: string, secrets: readonly string[]): number {
  let text: string;
  try {
    text = gunzipSync(readFileSync(path.join(dir, RECORD))).toString('utf8');
  } catch {
    return 0;
  }
  return secrets.filter((s) => s.length >= 8 && text.includes(s)).length;
}

/** Each kind's binary under test, with the version it says (the loader says none). */
export function targetVersions(assets: Assets): Readonly<Record<PlannedRun['kind'], string>> {
  const named = (name: 'kube-apiserver' | 'kube-controller-manager' | 'kubelet-config-loader'): string => {
    const file = assets.binaries[name];
    if (file === undefined) return name;
    try {
      const v = execFileSync(file, ['--version'], { encoding: 'utf8', timeout: 10_000, stdio: ['ignore', 'pipe', 'ignore'] }).trim();
      return /v\d/.test(v) ? `${name} ${v.split('\n')[0]}` : name;
    } catch {
      return name;
    }
  };
  return { api: named('kube-apiserver'), daemon: named('kube-controller-manager'), nodeagent: named('kubelet-config-loader') };
}

/** Options whose value is a path, a seed or a command: not part of what the run selected. */
const LOCAL_OPTIONS = new Set([
  '--kubeconfig',
  '--expectations',
  '--reports',
  '--hook',
  '--seed',
  '--controller-daemon',
  '--nodeagent-loader',
]);

/** `run`'s arguments that decide what it ran, paired: `--profile k8s`, `--runs 5`, `--suite nodeagent-config`. */
export function selectionOf(args: readonly string[]): string[] {
  const out: string[] = [];
  for (let i = 1; i < args.length; i += 2) if (!LOCAL_OPTIONS.has(args[i]!)) out.push(`${args[i]} ${args[i + 1]}`);
  if (args.includes('--hook')) out.push('--hook compact=<etcd compaction>');
  return out;
}

/** HEAD, marked when tracked files differ from it. */
export function gitCommit(): string {
  try {
    const head = execFileSync('git', ['rev-parse', '--short=12', 'HEAD'], {
      cwd: packageRoot,
      encoding: 'utf8',
      stdio: ['ignore', 'pipe', 'ignore'],
    }).trim();
    const dirty =
      execFileSync('git', ['status', '--porcelain', '--untracked-files=no'], {
        cwd: packageRoot,
        encoding: 'utf8',
        stdio: ['ignore', 'pipe', 'ignore'],
      }).trim() !== '';
    return dirty ? `${head}+changes` : head;
  } catch {
    return 'unknown commit';
  }
}

export function entryOf(
  f: FinishedRun,
  { file, bytes, expectations, commit }: { file: string; bytes: number; expectations: string; commit: string },
): CorpusEntry {
  const s = summaryOf(f.run.reportsDir)!;
  const a = f.run.args;
  const capability = a.includes('--target-capability') ? capabilityFact(a[a.indexOf('--target-capability') + 1]!) : undefined;
  return {
    file,
    kind: f.run.kind,
    target: f.version,
    topology: f.run.kind === 'api' ? f.run.topology : undefined,
    seed: f.run.seed,
    selection: selectionOf(a),
    date: s.startedAt,
    suiteVersion: `${s.version} (${commit})`,
    expectations,
    capabilities: { ...capability },
    profile: a[a.indexOf('--profile') + 1] ?? 'svc',
    release: s.target.reportedVersion,
    verdict: s.verdict,
    totals: { ...s.totals },
    statuses: statusesDigest(s),
    bytes,
  };
}
