/**
 * Node-agent configuration files against a loader (the loader protocol, docs/architecture.md "Targets and protocols"): valid files accepted
 * with the model's effective defaults, invalid ones rejected naming the broken field, credential
 * provider files judged the same way. The verdicts come from reference/nodeagent/loader-oracle.ts;
 * a failing file is shrunk by fast-check and its YAML is the counterexample's steps.
 */
import { judgeConfigAnswer, judgeCredentialAnswer } from '../../harness/case/index.ts';
import fc from 'fast-check';
import type { Check, CheckEnv } from '../../harness/case/index.ts';
import { LOADER_NOT_SELECTED } from '../../harness/case/index.ts';
import type { CaseContext } from '../../harness/case/index.ts';
import {
  everyFieldConfigArb,
  invalidConfigArb,
  ruleViolationClauses,
  toYaml,
  validConfigArb,
  type NodeagentCase,
} from '../../generators/nodeagent.ts';
import { openConfigArb, openDecisions } from '../../generators/nodeagent-open.ts';
import { everyWrongTypeArb } from '../../generators/nodeagent-field-types.ts';
import { edgeClauses, everyEdgeFileArb, type EdgeFile } from '../../generators/nodeagent-edges.ts';
import { credentialConfigArb, credentialViolationClauses, invalidCredentialConfigArb } from '../../generators/nodeagent-credentials.ts';
import { configJudgementClauses, credentialJudgementClauses } from '../../reference/nodeagent/loader-oracle.ts';
import { profiles, type Profile } from '../../reference/profile.ts';
import type { Judgement } from '../../reference/judgement.ts';
import type { ClauseId } from '../../reference/catalog/clause-ids.ts';
import { loaderReproducer } from '../../harness/reproducers/index.ts';

export const NODEAGENT_SUITE = 'nodeagent-config';

const needsLoader = (env: CheckEnv): string | undefined => (env.nodeagentLoader ? undefined : LOADER_NOT_SELECTED);

/** The counterexample is the file itself: comment lines, then the YAML (saved as results/nodeagent/<check>-<n>.yaml). */
const describeCase = (c: NodeagentCase): string[] => [
  ...(c.violation ? [`# planted violation: ${c.violation.what} (${c.violation.clause})`] : ['# a valid file: the model accepts it']),
  ...toYaml(c.doc).trimEnd().split('\n'),
];

function loaderCheck(o: {
  id: string;
  title: string;
  clauses: readonly ClauseId[];
  fileName: string;
  arbitrary: (p: Profile) => fc.Arbitrary<NodeagentCase>;
  judge: (doc: Record<string, unknown>, ans: { exitCode: number; stdout: string }, p: Profile, violationClause?: ClauseId) => Judgement[];
  defaultRuns?: number;
}): Check<NodeagentCase> {
  return {
    id: o.id,
    defaultRuns: o.defaultRuns,
    suite: NODEAGENT_SUITE,
    title: o.title,
    clauses: o.clauses,
    applicable: needsLoader,
    arbitrary: (env) => o.arbitrary(env.profile),
    describe: describeCase,
    reproducer: (c, failure, env, about) =>
      loaderReproducer({
        fileName: o.fileName,
        text: toYaml(c.doc),
        command: env.nodeagentLoader?.command ?? '<loader command>',
        needs: failure.needs,
        about,
      }),
    run: async (c: NodeagentCase, cx: CaseContext) => {
      const answer = await cx.env.nodeagentLoader!.run(o.fileName, toYaml(c.doc));
      cx.judge(o.judge(c.doc, answer, cx.env.profile, c.violation?.clause));
    },
  };
}

export const nodeagentValidConfigs = loaderCheck({
  id: 'nodeagent-valid-configs',
  title: "valid NodeagentConfiguration files are accepted with the model's effective defaults",
  clauses: configJudgementClauses,
  fileName: 'nodeagent-config.yaml',
  arbitrary: validConfigArb,
  judge: judgeConfigAnswer,
});

export const nodeagentEveryField = loaderCheck({
  id: 'nodeagent-every-field',
  title: "a valid NodeagentConfiguration file setting every field is accepted with the model's effective defaults",
  clauses: configJudgementClauses,
  fileName: 'nodeagent-config.yaml',
  arbitrary: everyFieldConfigArb,
  judge: judgeConfigAnswer,
  defaultRuns: 2,
});

export const nodeagentInvalidConfigs = loaderCheck({
  id: 'nodeagent-invalid-configs',
  title: 'NodeagentConfiguration files with one violation are rejected, naming the field',
  clauses: configJudgementClauses,
  fileName: 'nodeagent-config.yaml',
  arbitrary: invalidConfigArb,
  judge: judgeConfigAnswer,
});

export const nodeagentOpenConfigs = loaderCheck({
  id: 'nodeagent-open-configs',
  title: 'values the spec leaves open (2.5 gaps, gates off, missing required fields): the answer is recorded, never failed',
  clauses: configJudgementClauses,
  fileName: 'nodeagent-config.yaml',
  arbitrary: openConfigArb,
  judge: judgeConfigAnswer,
});

/**
 * One file per value the spec leaves open, on a random valid base, as the rule clauses below have
 * theirs: the broad property above draws from the whole pool, so at the default budget some
 * decisions would go unrecorded on most seeds (a report's coverage would move with the seed).
 */
export const nodeagentOpenDecisionChecks = openDecisions(profiles.svc).map((d, i, all) => {
  // `nodeagent-open-hairpinMode`, `nodeagent-open-hairpinMode-2`: the n-th value under one decision.
  const nth = all.slice(0, i).filter((o) => o.clause === d.clause).length;
  return loaderCheck({
    id: `nodeagent-open-${clauseSlug(d.clause)}${nth > 0 ? `-${nth + 1}` : ''}`,
    title: `A NodeagentConfiguration file with a value ${d.clause} leaves open: the answer is recorded, never failed`,
    clauses: configJudgementClauses,
    fileName: 'nodeagent-config.yaml',
    arbitrary: (p) => openConfigArb(p, d.overlay),
    judge: judgeConfigAnswer,
    defaultRuns: 1,
  });
});

/**
 * Every field's type rule on every run: one file per field and wrong-type value (2.2 "Type" column,
 * 2.3, 2.4), all in one case (generators/nodeagent-field-types.ts). A field the spec shows no values
 * for (hairpinMode, the eviction maps) has no valid file to pass on, so without this its clause's
 * verdict hung on whether the broad invalid-configs property drew its wrong-type file. A failure is
 * shrunk to the one file the loader got wrong.
 */
export const nodeagentFieldTypes: Check<readonly NodeagentCase[]> = {
  id: 'nodeagent-field-types',
  // One case holds every file and draws nothing: a second would only repeat it.
  defaultRuns: 1,
  suite: NODEAGENT_SUITE,
  title:
    'A NodeagentConfiguration file with one value of the wrong type, for every field and every such value, is rejected naming the field',
  clauses: configJudgementClauses,
  applicable: needsLoader,
  arbitrary: (env) => everyWrongTypeArb(env.profile),
  describe: describeFiles,
  reproducer: (cases, failure, env, about) => fileReproducer(cases, failure, env, about, () => 'nodeagent-config.yaml'),
  run: (cases, cx) => judgeEveryFile(cases, cx, () => ({ fileName: 'nodeagent-config.yaml', judge: judgeConfigAnswer })),
};

/** A case of several files: one file shrunk to is shown whole; a longer list (cut short by the shrink budget) by its files' names. */
function describeFiles(cases: readonly NodeagentCase[]): string[] {
  return cases.length === 1 ? describeCase(cases[0]!) : cases.map((c) => `# file: ${c.violation?.what ?? 'valid'}`);
}

/** A shrunk case is one file; one cut short by the shrink budget is reproduced by its first file of the failing clause. */
function fileReproducer<C extends NodeagentCase>(
  cases: readonly C[],
  failure: Parameters<NonNullable<Check<readonly C[]>['reproducer']>>[1],
  env: CheckEnv,
  about: Parameters<NonNullable<Check<readonly C[]>['reproducer']>>[3],
  fileName: (c: C) => string,
): string {
  const c = cases.find((x) => x.violation?.clause === failure.clause) ?? cases[0]!;
  return loaderReproducer({
    fileName: fileName(c),
    text: toYaml(c.doc),
    command: env.nodeagentLoader?.command ?? '<loader command>',
    needs: failure.needs,
    about,
  });
}

type FileJudge = (
  doc: Record<string, unknown>,
  ans: { exitCode: number; stdout: string },
  p: Profile,
  violationClause?: ClauseId,
) => Judgement[];

/**
 * Every file is judged before the first failing one is thrown: a known failure early in the list
 * (upstream accepts containerLogMaxSize "10MB") leaves the other files their verdicts instead of none.
 */
async function judgeEveryFile<C extends NodeagentCase>(
  cases: readonly C[],
  cx: CaseContext,
  how: (c: C) => { fileName: string; judge: FileJudge },
): Promise<void> {
  const failing: Judgement[][] = [];
  for (const c of cases) {
    const { fileName, judge } = how(c);
    const answer = await cx.env.nodeagentLoader!.run(fileName, toYaml(c.doc));
    const js = judge(c.doc, answer, cx.env.profile, c.violation?.clause);
    if (js.some((j) => j.verdict === 'fail')) failing.push(js);
    else cx.judge(js);
  }
  if (failing.length > 0) cx.judge(failing[0]!);
}

const edgeFileName = (f: EdgeFile) => (f.file === 'config' ? 'nodeagent-config.yaml' : 'credential-providers.yaml');

/**
 * Every rule on every run: for each clause a range, cross-field, boundary or matchImages rule decides,
 * one case holding every file on either side of it (generators/nodeagent-edges.ts), judged by the
 * model and shrunk to the one file the loader got wrong. The random properties drew a few of these
 * per run, so a clause a target gets wrong on one file of several passed on some seeds and failed on
 * others. One check per clause, so that every clause a target gets wrong is reported with its own file.
 */
export const nodeagentEdgeChecks: Check<readonly EdgeFile[]>[] = edgeClauses(profiles.svc).map((clause) => {
  const credentials = clause.startsWith('node:2.1/') || clause === 'node:2.5/provider-apiVersion';
  return {
    id: nodeagentEdgeCheckId(clause),
    defaultRuns: 1,
    suite: NODEAGENT_SUITE,
    title: `${credentials ? 'CredentialProviderConfig' : 'NodeagentConfiguration'} files on either side of ${clause} (every edge, boundary and cross-field file) are judged as the model says, on every run`,
    clauses: credentials ? credentialJudgementClauses : configJudgementClauses,
    applicable: needsLoader,
    arbitrary: (env) => everyEdgeFileArb(env.profile, clause),
    describe: describeFiles,
    reproducer: (files, failure, env, about) => fileReproducer(files, failure, env, about, edgeFileName),
    run: (files, cx) =>
      judgeEveryFile(files, cx, (f) => ({
        fileName: edgeFileName(f),
        judge: f.file === 'config' ? judgeConfigAnswer : judgeCredentialAnswer,
      })),
  };
});

/** `node:2.2/maxPods` -> `nodeagent-edges-maxPods`. */
export function nodeagentEdgeCheckId(clause: ClauseId): string {
  return `nodeagent-edges-${clauseSlug(clause)}`;
}

export const nodeagentCredentialProviders = loaderCheck({
  id: 'nodeagent-credential-providers',
  title: 'CredentialProviderConfig files: required fields and matchImages syntax',
  clauses: credentialJudgementClauses,
  fileName: 'credential-providers.yaml',
  // Two invalid files for every valid one: the invalid side holds the rules.
  arbitrary: (p) => fcOneOf(p),
  judge: judgeCredentialAnswer,
});

function fcOneOf(p: Profile): fc.Arbitrary<NodeagentCase> {
  return fc.oneof({ arbitrary: invalidCredentialConfigArb(p), weight: 2 }, { arbitrary: credentialConfigArb(p), weight: 1 });
}

/**
 * The check that judges every file breaking each rule clause (range edges, cross-field rules), in the
 * order of ruleViolationClauses: the broad invalid-configs property draws ~50 rule violations at
 * random, so at the default budget most rules would go unexercised. These were small random
 * properties of their own (three files each on random valid bases); the edge checks hold every such
 * file on every run, so they took their place.
 */
export const nodeagentInvalidRuleChecks = ruleViolationClauses(profiles.svc).map(edgeCheckOf);

/** `node:2.2/maxPods` -> `maxPods` (dashes only: check ids name saved counterexample files). */
function clauseSlug(clause: ClauseId): string {
  return clause.replace(/^node:[\d.]+\//, '').replace(/[^A-Za-z0-9]+/g, '-');
}

/** The same for CredentialProviderConfig files, in the order of credentialViolationClauses. */
export const nodeagentInvalidCredentialChecks = credentialViolationClauses(profiles.svc).map(edgeCheckOf);

function edgeCheckOf(clause: ClauseId): Check<readonly EdgeFile[]> {
  const c = nodeagentEdgeChecks.find((x) => x.id === nodeagentEdgeCheckId(clause));
  if (!c) throw new Error(`no edge check for ${clause}: generators/nodeagent-edges.ts holds no file breaking it`);
  return c;
}

export const nodeagentChecks = [
  nodeagentValidConfigs,
  nodeagentEveryField,
  nodeagentInvalidConfigs,
  nodeagentOpenConfigs,
  ...nodeagentOpenDecisionChecks,
  nodeagentFieldTypes,
  ...nodeagentEdgeChecks,
  nodeagentCredentialProviders,
];
