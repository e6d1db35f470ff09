/**
 * Runs the node-agent checks in-process against a loader target (the reference loader with planted
 * faults, by default), the way the CLI would, so self-tests see the records the report would show
 * without a subprocess per case. No API server: the nodeagent checks never send a request.
 */
import { profiles, type ProfileName } from '../../reference/profile.ts';
import type { CheckEnv } from '../../harness/check.ts';
import { defaultTargetSettings } from '../../runner/env.ts';
import type { NodeagentLoaderTarget } from '../../harness/nodeagent-loader.ts';
import { embeddedLoader } from '../../targets/nodeagent-loader/embedded.ts';
import { runCheck } from '../../runner/run-check.ts';
import { Transcript } from '../../harness/transcript.ts';
import type { CheckRecord } from '../../runner/results.ts';
import { checkById } from '../../suites/checks/index.ts';
import type { NodeagentFault, NodeagentFaultName } from '../../targets/nodeagent-loader/faults.ts';
import { nodeagentCredentialProviders, nodeagentInvalidConfigs, nodeagentInvalidCredentialChecks, nodeagentInvalidRuleChecks } from '../../suites/checks/nodeagent.ts';
import { ruleViolationClauses } from '../../generators/nodeagent.ts';
import { credentialViolationClauses } from '../../generators/nodeagent-credentials.ts';
import type { NodeagentVariationName } from '../../targets/nodeagent-loader/variations.ts';
import type { ClauseId } from '../../reference/catalog/clause-ids.ts';

const noServer = {
  server: 'none (node-agent checks only)',
  send: () => Promise.reject(new Error('node-agent checks send no API requests')),
  close: () => Promise.resolve(),
};

export function nodeagentEnv(o: { profile?: ProfileName; loader?: NodeagentLoaderTarget; faults?: readonly NodeagentFaultName[]; variations?: readonly NodeagentVariationName[] }): CheckEnv {
  const profile = profiles[o.profile ?? 'svc'];
  const loader = o.loader ?? embeddedLoader(profile, o.faults ?? [], o.variations ?? []);
  return {
    target: noServer,
    transcript: new Transcript(),
    profile,
    runId: 'nodeagent-self-test',
    settings: defaultTargetSettings,
    now: () => 0,
    sleep: () => Promise.resolve(),
    nextNamespace: () => 'unused',
    nodeagentLoader: loader,
  };
}

export async function runNodeagentChecks(o: {
  checks: readonly string[];
  runs: number;
  seed: number;
  path?: string;
  profile?: ProfileName;
  loader?: NodeagentLoaderTarget;
  faults?: readonly NodeagentFaultName[];
  variations?: readonly NodeagentVariationName[];
}): Promise<CheckRecord[]> {
  const env = nodeagentEnv(o);
  const records: CheckRecord[] = [];
  for (const id of o.checks) {
    const check = checkById(id);
    if (!check) throw new Error(`no check ${id}`);
    records.push(...(await runCheck(check, env, { seed: o.seed, runs: o.runs, replayCommand: 'npx svc-conformance run --suite nodeagent-config', ...(o.path !== undefined ? { path: o.path } : {}) })));
  }
  return records;
}

/**
 * The checks that can see a loader fault at the default budget: its own list, plus the per-clause
 * property of each clause it breaks when a broad one-violation property is among them (those draw
 * ~50 rules or 14 breakers at random and need hundreds of runs to reach every one).
 */
export function nodeagentFaultChecks(f: NodeagentFault): string[] {
  const perClause = [
    ...(f.checks.includes(nodeagentInvalidConfigs.id) ? byClause(nodeagentInvalidRuleChecks, ruleViolationClauses(profiles.svc)) : []),
    ...(f.checks.includes(nodeagentCredentialProviders.id) ? byClause(nodeagentInvalidCredentialChecks, credentialViolationClauses(profiles.svc)) : []),
  ];
  return [...f.checks, ...perClause.filter(([clause]) => f.clauses.includes(clause)).map(([, id]) => id)];
}

/** The per-clause checks are built in the clauses' order. */
const byClause = (cs: readonly { id: string }[], clauses: readonly ClauseId[]) => clauses.map((clause, i) => [clause, cs[i]!.id] as const);
