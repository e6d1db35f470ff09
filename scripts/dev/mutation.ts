/**
 * `npm run mutation`: the oracle's strength as tables, one per target. Every planted fault of the
 * reference API server, the reference node-agent loader and the reference controller daemon is run
 * against the checks that must catch it, and every legal variation against every check of its target,
 * with the default budget of `npm start` (25 runs per property, capped by each check's `defaultRuns`).
 * Independent runs go through a small pool (each starts its own target and mostly waits on its timers),
 * spread over one process per core (scripts/dev/mutation-shares.ts): the runs are in-process, so one
 * process ran the whole pool on one core of the machine's two.
 * Prints Markdown; `--write FILE` also writes it (docs/oracle-strength.md is made this way); with
 * `--passed SUMMARY` (a default run's summary.json) also the passed clauses and the faults reported
 * under each.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { availableParallelism } from 'node:os';
import { performance } from 'node:perf_hooks';
import { faults, type Fault, type FaultName } from '../../targets/api-server/faults.ts';
import { familyFaults } from '../../targets/api-server/fault-families.ts';
import { variations } from '../../targets/api-server/variations.ts';
import { nodeagentFaults, type NodeagentFaultName } from '../../targets/nodeagent-loader/faults.ts';
import { nodeagentFieldFaults } from '../../targets/nodeagent-loader/field-faults.ts';
import { nodeagentDefaultFaults } from '../../targets/nodeagent-loader/default-faults.ts';
import { nodeagentVariations } from '../../targets/nodeagent-loader/variations.ts';
import { daemonFaults } from '../../targets/controller-daemon/faults.ts';
import { daemonDefaultFaults } from '../../targets/controller-daemon/default-faults.ts';
import { daemonVariations } from '../../targets/controller-daemon/variations.ts';
import { checks } from '../../suites/checks/index.ts';
import { NODEAGENT_SUITE } from '../../suites/checks/nodeagent.ts';
import type { CheckRecord } from '../../runner/results.ts';
import { errorsOf, failuresOf, runAgainst } from './in-process-run.ts';
import { nodeagentFaultChecks, runNodeagentChecks } from './nodeagent-in-process.ts';
import { daemonCheckFor, runDaemonChecks } from './daemon-in-process.ts';
import { inShares, shareOfArgv, writeShare } from './mutation-shares.ts';
import { coverageLines, faultCoverage, passedClauses } from './fault-coverage.ts';
import { noPlantedFaultReasons } from '../../reference/catalog/no-planted-fault.ts';

const RUNS = Number(process.env['MUTATION_RUNS'] ?? 25);
const SEED = Number(process.env['MUTATION_SEED'] ?? 20261122);
const POOL = Number(process.env['MUTATION_POOL'] ?? 6);
/** Processes the pool is spread over (each runs its share of the jobs, POOL / PROCESSES at a time). */
const PROCESSES = Math.max(1, Math.min(POOL, Number(process.env['MUTATION_PROCESSES'] ?? availableParallelism())));

/** One run of one target: a fault (with the clauses a correct report may name) or a legal variation. */
interface Job {
  readonly target: Target;
  readonly name: string;
  /** Clauses that count as "caught by the right clause"; empty for a variation. */
  readonly clauses: readonly string[];
  readonly variation: boolean;
  readonly run: () => Promise<CheckRecord[]>;
}
type Target = 'API server' | 'node-agent loader' | 'controller daemon';

interface Outcome {
  readonly job: Job;
  readonly records: CheckRecord[];
  readonly ms: number;
  /** Why the run itself broke (a throw), if it did. */
  readonly crash?: string;
}

/** The size of a shrunk counterexample in the target's own unit. */
const sizeUnit: Record<Target, string> = { 'API server': 'requests', 'node-agent loader': 'file lines', 'controller daemon': 'flags' };
function sizeOf(target: Target, r: CheckRecord): number | undefined {
  const c = r.counterexample;
  if (!c) return undefined;
  if (target === 'API server') return c.requestCount;
  if (target === 'node-agent loader') return c.steps.filter((l) => !l.startsWith('#')).length;
  // The daemon's command line: options the suite did not add itself (profile and fault are ours).
  return (c.steps[0] ?? '').split(' ').filter((w) => w.startsWith('--') && !w.startsWith('--profile') && !w.startsWith('--fault')).length;
}

const restChecks = checks.filter((c) => c.suite.startsWith('rest-')).map((c) => c.id);
const loaderChecks = checks.filter((c) => c.suite === NODEAGENT_SUITE).map((c) => c.id);
const daemonChecks = checks.filter((c) => c.suite === 'controller-daemon').map((c) => c.id);

const allJobs: Job[] = [
  ...[...(faults as readonly Fault[]), ...familyFaults].map(
    (f): Job => ({
      target: 'API server',
      name: f.name,
      clauses: [f.clause, ...f.alsoReportedAs],
      variation: false,
      run: () => runAgainst({ checks: f.checks, faults: [f.name as FaultName], runs: RUNS, seed: SEED, ...(f.target ?? {}) }),
    }),
  ),
  ...[...nodeagentFaults, ...nodeagentFieldFaults, ...nodeagentDefaultFaults].map(
    (f): Job => ({
      target: 'node-agent loader',
      name: f.name,
      clauses: f.clauses,
      variation: false,
      run: () => runNodeagentChecks({ checks: nodeagentFaultChecks(f), faults: [f.name as NodeagentFaultName], runs: RUNS, seed: SEED }),
    }),
  ),
  ...[...daemonFaults, ...daemonDefaultFaults].map(
    (f): Job => ({
      target: 'controller daemon',
      name: f.name,
      clauses: [f.clause],
      variation: false,
      run: () => runDaemonChecks({ checks: [daemonCheckFor(f)], faults: [f.name], runs: RUNS, seed: SEED }),
    }),
  ),
  // Variations are judged by the checks of their own target only (the API server's by the rest- suites).
  ...variations.map(
    (v): Job => ({
      target: 'API server',
      name: v.name,
      clauses: [],
      variation: true,
      run: () => runAgainst({ checks: restChecks, variations: [v.name], runs: RUNS, seed: SEED }),
    }),
  ),
  ...nodeagentVariations.map(
    (v): Job => ({
      target: 'node-agent loader',
      name: v.name,
      clauses: [],
      variation: true,
      run: () => runNodeagentChecks({ checks: loaderChecks, variations: [v.name], runs: RUNS, seed: SEED }),
    }),
  ),
  ...daemonVariations.map(
    (v): Job => ({
      target: 'controller daemon',
      name: v.name,
      clauses: [],
      variation: true,
      run: () => runDaemonChecks({ checks: daemonChecks, variations: [v.name], runs: RUNS, seed: SEED }),
    }),
  ),
];
/** `MUTATION_ONLY=name,name`: just those faults and variations (to time or profile one run). */
const only = process.env['MUTATION_ONLY']?.split(',');
const jobs = only === undefined ? allJobs : allJobs.filter((j) => only.includes(j.name));

async function runJob(job: Job): Promise<Outcome> {
  const t0 = performance.now();
  try {
    const records = await job.run();
    return { job, records, ms: performance.now() - t0 };
  } catch (e) {
    return { job, records: [], ms: performance.now() - t0, crash: e instanceof Error ? e.message : String(e) };
  }
}

/** Runs the jobs `width` at a time; results keep the jobs' order. `label`: the job's number in the whole run. */
async function pool(all: readonly Job[], width: number, label: (i: number) => number, total: number): Promise<Outcome[]> {
  const out: Outcome[] = new Array(all.length);
  let next = 0;
  const worker = async () => {
    while (next < all.length) {
      const i = next++;
      out[i] = await runJob(all[i]!);
      process.stderr.write(`  ${label(i) + 1}/${total} ${all[i]!.target}: ${all[i]!.name} (${(out[i]!.ms / 1000).toFixed(1)} s)\n`);
    }
  };
  await Promise.all(Array.from({ length: Math.min(width, all.length) }, worker));
  return out;
}

const median = (xs: readonly number[]) => {
  const s = [...xs].sort((a, b) => a - b);
  return s.length === 0 ? NaN : s.length % 2 ? s[(s.length - 1) / 2]! : (s[s.length / 2 - 1]! + s[s.length / 2]!) / 2;
};
const secs = (ms: number) => `${(ms / 1000).toFixed(1)} s`;

const wall0 = performance.now();
// Longest first (latency slows every request; variations run every check), so the pool ends together.
const order = jobs
  .map((j, i) => ({
    j,
    i,
    weight: j.name === 'latency' ? 3 : j.variation && j.target === 'API server' ? 2 : j.target === 'API server' ? 1 : 0,
  }))
  .sort((a, b) => b.weight - a.weight || a.i - b.i);
const share = shareOfArgv(process.argv);
if (share !== undefined) {
  // A child of the run below: its share of the ordered jobs, written for the parent to tabulate.
  const mine = order.filter((_, k) => k % share.count === share.index);
  const ran = await pool(
    mine.map((o) => o.j),
    share.width,
    (k) => share.index + k * share.count,
    order.length,
  );
  writeShare(
    share.out,
    ran.map((o, k) => ({ job: mine[k]!.i, records: o.records, ms: o.ms, crash: o.crash })),
  );
  process.exit(0);
}
const outcomes: Outcome[] = new Array(jobs.length);
if (PROCESSES === 1) {
  const ran = await pool(
    order.map((o) => o.j),
    POOL,
    (k) => k,
    order.length,
  );
  order.forEach((o, k) => (outcomes[o.i] = ran[k]!));
} else {
  for (const r of await inShares(PROCESSES, Math.ceil(POOL / PROCESSES)))
    outcomes[r.job] = { job: jobs[r.job]!, records: r.records, ms: r.ms, crash: r.crash };
  // A share that died without writing its outcomes leaves its jobs crashed, never silently missing.
  jobs.forEach((job, i) => (outcomes[i] ??= { job, records: [], ms: 0, crash: 'its share process wrote no outcome' }));
}
const wallMs = performance.now() - wall0;

interface FaultRow {
  readonly caught: boolean;
  readonly size: number | undefined;
  readonly ms: number;
}
function faultRow(o: Outcome): FaultRow & { line: string } {
  const fails = failuresOf(o.records);
  const right = fails.filter((r) => o.job.clauses.includes(r.clause));
  const caught = o.crash === undefined && right.length > 0 && errorsOf(o.records).length === 0;
  const reported = [...new Set(fails.map((r) => r.clause))];
  const shown = reported.length > 4 ? [...reported.slice(0, 4), `+${reported.length - 4} more`] : reported;
  // The smallest counterexample that names a right clause: the one a reader would replay.
  const sizes = right.map((r) => sizeOf(o.job.target, r)).filter((n): n is number => n !== undefined);
  const size = sizes.length > 0 ? Math.min(...sizes) : undefined;
  const expected = o.job.clauses.length > 3 ? `${o.job.clauses[0]} (or any of ${o.job.clauses.length})` : o.job.clauses.join(' / ');
  const note = o.crash ? ` (crashed: ${o.crash})` : errorsOf(o.records).length > 0 ? ` (${errorsOf(o.records).length} errors)` : '';
  return {
    caught,
    size,
    ms: o.ms,
    line: `| ${o.job.name} | ${expected} | ${caught ? 'yes' : 'NO'}${note} | ${shown.join(', ') || '-'} | ${size ?? '-'} | ${secs(o.ms)} |`,
  };
}

const out: string[] = [];
const say = (line = '') => {
  out.push(line);
  process.stdout.write(`${line}\n`);
};

const targets: Target[] = ['API server', 'node-agent loader', 'controller daemon'];
const allRows: FaultRow[] = [];
const perTarget: string[] = [];
const body: string[] = [];
for (const t of targets) {
  const rows = outcomes.filter((o) => o.job.target === t && !o.job.variation).map(faultRow);
  allRows.push(...rows);
  const caught = rows.filter((r) => r.caught).length;
  const sizes = rows.flatMap((r) => (r.size === undefined ? [] : [r.size]));
  const summary = `${caught}/${rows.length} caught; counterexamples median ${median(sizes)} ${sizeUnit[t]}, max ${Math.max(...sizes)}; detection median ${secs(median(rows.map((r) => r.ms)))}`;
  perTarget.push(`- ${t}: ${summary}.`);
  body.push(
    `## ${t}: planted faults`,
    '',
    `| fault | expected clause | caught | clause reported | ${sizeUnit[t]} in shrunk counterexample | time to detection |`,
    '|---|---|---|---|---|---|',
    ...rows.map((r) => r.line),
    '',
    `${summary}.`,
    '',
  );
}

const variationRows = outcomes
  .filter((o) => o.job.variation)
  .map((o) => {
    const fails = failuresOf(o.records);
    const errs = errorsOf(o.records);
    const clean = o.crash === undefined && fails.length === 0 && errs.length === 0;
    return {
      clean,
      line: `| ${o.job.target} | ${o.job.name} | ${clean ? 'no' : 'YES'} | ${[...new Set(fails.map((r) => r.clause))].join(', ') || '-'} | ${errs.length}${o.crash ? ` (crashed: ${o.crash})` : ''} | ${secs(o.ms)} |`,
    };
  });
body.push(
  `## Legal variations (every check of the variation's target; for the API server the rest- suites)`,
  '',
  '| target | variation | flagged | clauses flagged | errors | time |',
  '|---|---|---|---|---|---|',
  ...variationRows.map((r) => r.line),
  '',
);

const caught = allRows.filter((r) => r.caught).length;
const clean = variationRows.filter((r) => r.clean).length;
const apiSizes = allRows
  .slice(0, outcomes.filter((o) => o.job.target === 'API server' && !o.job.variation).length)
  .flatMap((r) => (r.size === undefined ? [] : [r.size]));
say(
  `Budget: the default of \`npm start\`: ${RUNS} runs per property (capped by each check's \`defaultRuns\`), seed ${SEED}, ${POOL} runs at a time in ${PROCESSES} process${PROCESSES === 1 ? '' : 'es'}.`,
);
say(
  `Mutation score: ${caught}/${allRows.length} planted faults caught by their clause (${((caught / allRows.length) * 100).toFixed(0)} %); ${clean}/${variationRows.length} legal variations passed (${variationRows.length - clean} flagged).`,
);
say(
  `Median time to detection: ${secs(median(allRows.map((r) => r.ms)))} (max ${secs(Math.max(...allRows.map((r) => r.ms)))}; wall times under the pool, so contention is included).`,
);
say(`Shrunk counterexamples (API server): median ${median(apiSizes)} requests, max ${Math.max(...apiSizes)}.`);
say(`Wall time of the whole run: ${secs(wallMs)}.`);
say();
for (const l of perTarget) say(l);
say();
say(
  "Counterexample size is counted in the target's own unit: requests sent (API server), lines of the shrunk file without comments (node-agent loader), options on the shrunk command line besides --profile and --fault (controller daemon). Each fault runs only the checks that must catch it (for the loader, with the edge checks of the clauses it breaks); each variation runs every check of its target.",
);
say();
for (const l of body) say(l);

// `--passed SUMMARY`: the clauses a default run passed, each with the faults reported under it (the
// declared clauses a caught fault was actually reported under, not every clause it may name).
const passedAt = process.argv.indexOf('--passed');
if (passedAt > 0 && process.argv[passedAt + 1]) {
  const passed = passedClauses(JSON.parse(readFileSync(process.argv[passedAt + 1]!, 'utf8')));
  const reportedBy = new Map<string, string[]>();
  for (const o of outcomes.filter((x) => !x.job.variation && x.crash === undefined)) {
    for (const c of new Set(failuresOf(o.records).map((r) => r.clause)))
      if (o.job.clauses.includes(c)) reportedBy.set(c, [...(reportedBy.get(c) ?? []), o.job.name]);
  }
  const cov = faultCoverage(passed, reportedBy, noPlantedFaultReasons);
  say();
  say('## Passed clauses and the faults reported under them');
  say();
  say(`Clauses a default run passes (${process.argv[passedAt + 1]}), each counted when a planted fault of this run was reported under it.`);
  say();
  for (const l of coverageLines(cov)) say(l.startsWith('  no fault: ') ? `- ${l.slice(2)}` : `${l}.`);
  say();
  say('| clause | faults reported under it |');
  say('|---|---|');
  for (const c of passed)
    say(
      `| ${c} | ${(reportedBy.get(c) ?? []).slice(0, 4).join(', ') || (noPlantedFaultReasons[c as keyof typeof noPlantedFaultReasons] ? `none possible: ${noPlantedFaultReasons[c as keyof typeof noPlantedFaultReasons]}` : '-')}${(reportedBy.get(c)?.length ?? 0) > 4 ? `, +${reportedBy.get(c)!.length - 4} more` : ''} |`,
    );
}

const writeAt = process.argv.indexOf('--write');
if (writeAt > 0 && process.argv[writeAt + 1]) {
  writeFileSync(
    process.argv[writeAt + 1]!,
    `# Oracle strength\n\nMade by \`npm run mutation -- --write docs/oracle-strength.md\`.\n\n${out.join('\n')}\n`,
  );
}
process.exitCode = caught === allRows.length && clean === variationRows.length ? 0 : 1;
