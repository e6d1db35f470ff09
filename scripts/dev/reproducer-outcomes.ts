/**
 * Do a failure's standalone reproducers decide, and decide right? For one planted fault: a small run
 * that finds it (scripts/dev/in-process-run.ts), then every reproducer written for its failures run
 * against a fresh embedded server with the fault (it must exit 1: the failure is present) and against
 * a clean one (it must exit 0: the target behaves). The reproducers' exit statuses (docs/reports.md): 0 behaves, 1 failing,
 * 2 could not run, 3 undecided. A node test file, where one is written, must not contradict its script.
 *
 *   measureFault(fault, { runs: 25, seed: 1 }) -> { rows: [{ clause, faulty: 1, clean: 0, outcome: 'right' }], ... }
 */
import { execFile } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { startEmbeddedTarget, type ReferenceServer } from '../../runner/embedded.ts';
import type { Fault, FaultName } from '../../targets/api-server/faults.ts';
import type { PartialModeName } from '../../targets/api-server/partial-modes.ts';
import { profiles } from '../../reference/profile.ts';
import type { CheckRecord, Counterexample } from '../../runner/results.ts';
import { HISTORY_WINDOW_MS, runAgainst } from './in-process-run.ts';

/** right: 1 against the fault, 0 against a clean server; wrong: 0 against the fault or 1 against a clean server. */
export type Outcome = 'right' | 'undecided' | 'wrong' | 'could not run';

export interface ReproducerRow {
  readonly clause: string;
  readonly check: string;
  readonly requests: number;
  /** Exit statuses of the script against the faulty and the clean server. */
  readonly faulty: number;
  readonly clean: number;
  readonly outcome: Outcome;
  /**
   * The node test file's exit statuses (0 passed, non-zero failed), where one was written. It agrees
   * with its script unless one says "the failure is present" where the other says "gone": a test fails
   * also where it cannot decide (it has no "undecided"), and a verdict that rests on timing (a late
   * watch) may be undecided in one of the two runs and decided in the other.
   */
  readonly nodeTest?: { readonly faulty: number; readonly clean: number; readonly agrees: boolean };
  /** The script's last lines against each server: why it decided as it did. */
  readonly tail: { readonly faulty: string; readonly clean: string };
  readonly cx: Counterexample;
}

export interface FaultMeasure {
  readonly fault: string;
  /** The fault's clause and the others a correct report may name. */
  readonly clauses: readonly string[];
  readonly found: boolean;
  readonly rows: readonly ReproducerRow[];
  /** The fault's verdict: the worst of its right-clause reproducers (wrong > could not run > undecided > right). */
  readonly outcome: Outcome | 'not found';
  readonly crash?: string;
}

/** The outcome of one reproducer from its exit statuses. */
export function outcomeOf(faulty: number, clean: number): Outcome {
  if (clean === 1 || faulty === 0) return 'wrong';
  if (faulty === 3 || clean === 3) return 'undecided';
  if (faulty === 1 && clean === 0) return 'right';
  return 'could not run';
}

const RANK: Record<Outcome, number> = { wrong: 3, 'could not run': 2, undecided: 1, right: 0 };
export const worst = (xs: readonly Outcome[]): Outcome | undefined =>
  xs.length === 0 ? undefined : [...xs].sort((a, b) => RANK[b] - RANK[a])[0];

/** The continue-token lifetime of the servers the reproducers run against. */
export const REPRODUCER_CONTINUE_TTL_MS = 10_000;

interface Served {
  readonly server: ReferenceServer;
  readonly token: string;
}

/** A server as the run's: the same windows, the fault's release, a superuser token of its own. */
export async function serveForReproducers(f: Fault, faulty: boolean): Promise<Served> {
  const t = await startEmbeddedTarget(
    {
      // A script spends tens of milliseconds per request (curl, node for each learned value): the run's
      // short token lifetime would expire its continuations before they are sent.
      continueTtlMs: REPRODUCER_CONTINUE_TTL_MS,
      historyWindowMs: HISTORY_WINDOW_MS,
      bookmarkIntervalMs: 400,
      release: f.target?.release,
      faults: faulty ? [f.name as FaultName] : [],
    },
    profiles.svc,
  );
  return { server: t.server, token: t.token! };
}

/** A server as `serve --without ...` starts it (the CLI run's windows), to judge a partial run's reproducers; no modes: the full server. */
export async function servePartialForReproducers(without: readonly PartialModeName[]): Promise<Served> {
  const t = await startEmbeddedTarget({ faults: [], variations: [], without: [...without] }, profiles.svc);
  return { server: t.server, token: t.token! };
}

// Asynchronous: the servers answer from this process's event loop, which a synchronous child would block.
function runFile(
  cmd: string,
  args: readonly string[],
  env: Record<string, string>,
  timeoutMs: number,
): Promise<{ code: number; out: string }> {
  return new Promise((resolve) => {
    execFile(
      cmd,
      [...args],
      { encoding: 'utf8', env: { ...process.env, ...env }, timeout: timeoutMs, maxBuffer: 32 << 20 },
      (err, stdout, stderr) => {
        const code = err ? (typeof (err as { code?: unknown }).code === 'number' ? (err as { code: number }).code : -1) : 0;
        resolve({ code, out: `${stdout}\n${stderr}` });
      },
    );
  });
}

const tailOf = (s: string) => s.trim().split('\n').slice(-4).join(' | ').slice(0, 400);

/** Runs a script and its node test against one server. */
async function runAgainstServer(
  dir: string,
  base: string,
  cx: Counterexample,
  s: Served,
): Promise<{ script: { code: number; out: string }; node?: number; nodeSays?: NodeSays }> {
  const env = { SERVER: s.server.url, TOKEN: s.token };
  const script = await runFile('bash', [path.join(dir, `${base}.sh`)], env, 120_000);
  if (cx.nodeTest === undefined) return { script };
  const node = await runFile(process.execPath, ['--test', path.join(dir, `${base}.test.mjs`)], env, 120_000);
  return {
    script,
    node: node.code,
    nodeSays: node.code === 0 ? 'behaves' : /cannot (decide|run)/.test(node.out) ? 'undecided' : 'failing',
  };
}

type NodeSays = 'behaves' | 'failing' | 'undecided';

/** A node test contradicts its script where one says the failure is present and the other that it is gone. */
export const contradicts = (node: NodeSays, script: number): boolean =>
  (node === 'behaves' && script === 1) || (node === 'failing' && script === 0);

/** Every failure's reproducers against a faulty and a clean server, one server pair per reproducer. */
export async function judgeReproducers(f: Fault, records: readonly CheckRecord[]): Promise<ReproducerRow[]> {
  const dir = mkdtempSync(path.join(tmpdir(), `repro-${f.name}-`));
  const rows: ReproducerRow[] = [];
  try {
    let n = 0;
    for (const r of records) {
      const cx = r.counterexample;
      if (r.verdict !== 'fail' || cx === undefined || cx.curl.trim() === '') continue;
      const base = `r${++n}`;
      writeFileSync(path.join(dir, `${base}.sh`), cx.curl);
      if (cx.nodeTest !== undefined) writeFileSync(path.join(dir, `${base}.test.mjs`), cx.nodeTest);
      const bad = await serveForReproducers(f, true);
      const good = await serveForReproducers(f, false);
      try {
        const onBad = await runAgainstServer(dir, base, cx, bad);
        const onGood = await runAgainstServer(dir, base, cx, good);
        const faulty = onBad.script.code;
        const clean = onGood.script.code;
        const nodeTest =
          onBad.node !== undefined && onGood.node !== undefined
            ? {
                faulty: onBad.node,
                clean: onGood.node,
                agrees: !contradicts(onBad.nodeSays!, faulty) && !contradicts(onGood.nodeSays!, clean),
              }
            : undefined;
        rows.push({
          clause: r.clause,
          check: r.check,
          requests: cx.requestCount,
          faulty,
          clean,
          outcome: outcomeOf(faulty, clean),
          nodeTest,
          tail: { faulty: tailOf(onBad.script.out), clean: tailOf(onGood.script.out) },
          cx,
        });
      } finally {
        await Promise.all([bad.server.close(), good.server.close()]);
      }
    }
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
  return rows;
}

/** A run that finds the fault, then its reproducers judged. */
export async function measureFault(f: Fault, o: { runs: number; seed: number }): Promise<FaultMeasure> {
  const clauses: readonly string[] = [f.clause, ...f.alsoReportedAs];
  try {
    const records = await runAgainst({ checks: f.checks, faults: [f.name as FaultName], runs: o.runs, seed: o.seed, ...(f.target ?? {}) });
    const rows = await judgeReproducers(f, records);
    const right = rows.filter((r) => clauses.includes(r.clause));
    const outcome = worst(right.map((r) => r.outcome)) ?? 'not found';
    return { fault: f.name, clauses, found: right.length > 0, rows, outcome };
  } catch (e) {
    return { fault: f.name, clauses, found: false, rows: [], outcome: 'not found', crash: e instanceof Error ? e.message : String(e) };
  }
}
