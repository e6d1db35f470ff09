/**
 * Runs the node-agent checks in-process against a loader target (the reference loader with planted
 * faults, by default) through the CLI's own plan and executor (runner/), as `run --check ...
 * --nodeagent-fault ...` would, so the self-tests see the records the reports would show without a
 * process per case. What differs from `run`: the checks run one after another in the order given,
 * nothing is confirmed, and a loader with variations, or one a test makes, is handed to the executor.
 */
import { profiles, type ProfileName } from '../../reference/profile.ts';
import type { NodeagentLoaderTarget } from '../../harness/processes/index.ts';
import { embeddedLoader } from '../../targets/nodeagent-loader/embedded.ts';
import type { CheckRecord } from '../../runner/results.ts';
import { selfTestPlan } from './self-test-plan.ts';
import type { RunPlan } from '../../runner/plan.ts';
import { executeRun } from '../../runner/executor.ts';
import { directStage } from '../../runner/check-stage.ts';
import { checkById } from '../../suites/checks/index.ts';
import type { NodeagentFault, NodeagentFaultName } from '../../targets/nodeagent-loader/faults.ts';
import {
  nodeagentCredentialProviders,
  nodeagentInvalidConfigs,
  nodeagentInvalidCredentialChecks,
  nodeagentInvalidRuleChecks,
} from '../../suites/checks/nodeagent.ts';
import { ruleViolationClauses } from '../../generators/nodeagent.ts';
import { credentialViolationClauses } from '../../generators/nodeagent-credentials.ts';
import type { NodeagentVariationName } from '../../targets/nodeagent-loader/variations.ts';
import type { ClauseId } from '../../reference/catalog/clause-ids.ts';

export interface NodeagentRunOptions {
  readonly checks: readonly string[];
  readonly runs: number;
  readonly seed: number;
  readonly path?: string;
  readonly profile?: ProfileName;
  /** The loader judged, made by the caller (who closes it); default: the reference loader. */
  readonly loader?: NodeagentLoaderTarget;
  readonly faults?: readonly NodeagentFaultName[];
  readonly variations?: readonly NodeagentVariationName[];
  /**
   * An API server of the caller's own, as `run --server URL` names one: with no loader given the run
   * then judges none (a run against a real cluster does not judge our own loader).
   */
  readonly server?: string;
}

export async function runNodeagentChecks(o: NodeagentRunOptions): Promise<CheckRecord[]> {
  const profile = profiles[o.profile ?? 'svc'];
  for (const id of o.checks) if (!checkById(id)) throw new Error(`no check ${id}`);
  // Faults alone are the run's own --nodeagent-fault; variations have no flag, so their loader is handed in.
  const varied =
    o.loader === undefined && (o.variations?.length ?? 0) > 0 ? embeddedLoader(profile, o.faults ?? [], o.variations ?? []) : undefined;
  const loader = o.loader ?? varied;
  const planned = selfTestPlan(
    {
      profile: profile.name,
      seed: o.seed,
      runs: o.runs,
      check: [...o.checks],
      path: o.path,
      server: o.server,
      nodeagentFault: loader === undefined && o.server === undefined ? [...(o.faults ?? [])] : undefined,
    },
    'n',
  );
  try {
    const plan: RunPlan = {
      ...planned,
      inProcess: { keepFailures: true, source: 'self-test', nodeagentLoader: loader },
    };
    const { run } = await executeRun(plan, { log: () => undefined, stage: directStage({ inOrder: true }) });
    return [...run.records];
  } finally {
    varied?.close();
  }
}

/**
 * The checks that can see a loader fault at the default budget: its own list, plus the edge check of
 * each clause it breaks when a broad one-violation property is among them (those draw ~50 rules or 14
 * breakers at random and need hundreds of runs to reach every one; an edge check holds every file
 * that decides its clause).
 */
export function nodeagentFaultChecks(f: NodeagentFault): string[] {
  const perClause = [
    ...(f.checks.includes(nodeagentInvalidConfigs.id) ? byClause(nodeagentInvalidRuleChecks, ruleViolationClauses(profiles.svc)) : []),
    ...(f.checks.includes(nodeagentCredentialProviders.id)
      ? byClause(nodeagentInvalidCredentialChecks, credentialViolationClauses(profiles.svc))
      : []),
  ];
  return [...f.checks, ...perClause.filter(([clause]) => f.clauses.includes(clause)).map(([, id]) => id)];
}

/** The per-clause checks are built in the clauses' order. */
const byClause = (cs: readonly { id: string }[], clauses: readonly ClauseId[]) => clauses.map((clause, i) => [clause, cs[i]!.id] as const);
