/**
 * The verdicts on one loader answer (docs/architecture.md "Targets and protocols": exit 0 accepted, stdout maybe the
 * effective configuration; non-zero rejected, stdout maybe `{"errors":[{"field":...}]}`), judged by
 * the model: acceptance or rejection as the model decides (or unspecified where the spec leaves it
 * open), field paths when the loader reports them, defaults when it prints the configuration.
 */
import { parse as parseYaml } from 'yaml';
import type { Profile } from '../profile.ts';
import { fail, inconclusive, pass, rule, tagged, unspecified, type Judgement } from '../judgement.ts';
import { parseGoDuration } from './duration.ts';
import { configFields, nameIn, type FieldSpec } from './config-fields.ts';
import { DURATIONS_ROW, isRecord } from './config-types.ts';
import { validateNodeagentConfig, withZerosUnset, type ValidationResult } from './config.ts';
import { clauseForPath, clausesOfDoc, compareEffective, type EffectiveMismatch } from './config-oracle.ts';
import type { JudgementValues } from '../value-diff.ts';
import { validateCredentialProviderConfig } from './credential-provider.ts';
import type { ClauseId } from '../catalog/clause-ids.ts';
import { needExit } from '../answer-checks.ts';

export interface LoaderAnswer {
  readonly exitCode: number;
  readonly stdout: string;
}

/** `evictionHard[memory.available]` and `evictionHard.memory.available` name the same map entry. */
const normalisePath = (path: string) => path.replace(/\[([^\]]*[^\]0-9][^\]]*)\]/g, '.$1');

/**
 * Does a reported path name the broken field? Exactly, or as the list holding the broken item
 * (`providers[0].matchImages` for `providers[0].matchImages[1]`): upstream's validators name a list,
 * not the item (`field.Invalid(fieldPath.Child("matchImages"), ...)`), and the kubelet wrapper derives
 * its paths from those messages. A parent further up (`providers[0]`, `authentication`) does not
 * name the field: a loader answering so is the planted fault `nested-paths-top-level`.
 */
export function namesField(reported: string, field: string): boolean {
  const [r, f] = [normalisePath(reported), normalisePath(field)];
  return r === f || r === f.replace(/\[\d+\]$/, '');
}

/**
 * Field paths of a protocol error report, or undefined when stdout is not one. An empty `field` names
 * no field (upstream's kubelet says `quantities must match ...` of a bad JSONOptions.infoBufferSize,
 * with no field for its wrapper to report): like a loader that prints no report, it leaves the paths
 * unjudged (docs/architecture.md "Targets and protocols": paths are checked when the loader reports them).
 */
export function reportedFields(stdout: string): string[] | undefined {
  try {
    const v: unknown = JSON.parse(stdout);
    if (!isRecord(v) || !Array.isArray(v.errors)) return undefined;
    return v.errors.flatMap((e) => (isRecord(e) && typeof e.field === 'string' && e.field !== '' ? [normalisePath(e.field)] : []));
  } catch {
    return undefined;
  }
}

/** The effective configuration a loader printed (JSON or YAML map), or undefined. */
export function printedConfig(stdout: string): Record<string, unknown> | undefined {
  if (stdout.trim() === '') return undefined;
  let v: unknown;
  try {
    v = JSON.parse(stdout);
  } catch {
    try {
      v = parseYaml(stdout, { version: '1.1' });
    } catch {
      return undefined;
    }
  }
  return isRecord(v) && !('errors' in v) ? v : undefined;
}

/**
 * Is this printed map a configuration (so its defaults are judged)? Its kind says so, or it carries a
 * few known fields: a loader printing `{"ok": true}` or a warning list is not judged on defaults.
 */
export function looksLikeConfig(v: Record<string, unknown>, p: Profile): boolean {
  if (v.kind === p.nodeagentConfigurationKind) return true;
  return Object.keys(v).filter((k) => configFields.some((f) => nameIn(f, p) === k)).length >= 3;
}

function allClauses(f: FieldSpec): ClauseId[] {
  const t = f.type.kind === 'list' ? f.type.of : f.type;
  return [f.clause, ...(f.also ?? []), ...(t.kind === 'object' ? t.fields.flatMap(allClauses) : [])];
}

/** Clauses the effective-configuration comparison covers (fields with a default to show). */
const defaultedClauses = [...new Set(configFields.filter((f) => ['value', 'object', 'nil'].includes(f.def.kind)).flatMap(allClauses))];

/** Every clause a config-file judgement can name. */
// node:2/durations: a duration written as no string, and an accepted duration string. node:2.5/cgroupRoot
// and seccompDefault: the effective value of a field left out, recorded (2.5 does not show the default).
export const configJudgementClauses: readonly ClauseId[] = [
  ...new Set<ClauseId>([
    'node:2.2/kind',
    DURATIONS_ROW,
    ...configFields.flatMap(allClauses),
    'node:2.5/cpuCFSQuotaPeriod',
    'node:2.5/hairpinMode',
    'node:2.5/topologyManagerPolicy',
    'node:2.5/configMapAndSecretChangeDetectionStrategy',
    'node:2.5/authorization-mode',
    'node:2.5/eviction',
    'node:2.5/enforceNodeAllocatable',
    'node:2.5/allowedUnsafeSysctls',
    'node:2.5/field-shapes',
    'node:2.5/cgroupRoot',
    'node:2.5/seccompDefault',
  ]),
];

/**
 * Clauses of the top-level duration fields a file sets to a non-zero value under one second: the input
 * upstream's kubelet refuses for shutdownGracePeriod though the spec states no lower bound.
 */
export function subSecondDurationClauses(doc: Record<string, unknown>, p: Profile): Set<ClauseId> {
  const out = new Set<ClauseId>();
  for (const f of configFields) {
    const v = doc[nameIn(f, p)];
    if (f.type.kind !== 'scalar' || f.type.scalar !== 'duration' || typeof v !== 'string') continue;
    const d = parseGoDuration(v);
    if (d.ok && d.nanos > 0n && d.nanos < 1_000_000_000n) out.add(f.clause);
  }
  return out;
}

function judgeVerdict(
  model: ValidationResult,
  ans: LoaderAnswer,
  clausesIfAccepted: readonly ClauseId[],
  rejectClause: (reported: readonly string[]) => ClauseId,
  violationClause?: ClauseId,
  subSecond: ReadonlySet<ClauseId> = new Set(),
): { judgements: Judgement[]; definitelyValid: boolean } {
  const accepted = ans.exitCode === 0;
  const reported = accepted ? undefined : reportedFields(ans.stdout);
  const observed = accepted
    ? 'accepted (exit 0)'
    : `rejected (exit ${ans.exitCode})${reported && reported.length > 0 ? `, naming ${reported.join(', ')}` : ''}`;
  if (model.errors.length > 0) {
    const clause = violationClause ?? model.errors[0]!.clause;
    const why = model.errors.map((e) => `${e.field}: ${e.message}`).join('; ');
    // A file the spec refuses: the input that shows a loader accepting what it should not.
    const invalid = { input: 'invalid-value', class: 'invalid-accepted' } as const;
    if (accepted)
      return {
        judgements: tagged(
          [fail(clause, `rejected (${why})`, observed, { needs: [needExit('the loader rejects the file (exit non-zero)', true)] })],
          invalid,
        ),
        definitelyValid: false,
      };
    const js = tagged([pass(clause, 'rejected', observed)], invalid);
    if (reported && reported.length > 0) {
      const acceptable = [...new Set(model.errors.flatMap((e) => [e.field, ...(e.related ?? [])]))];
      js.push(
        rule(
          clause,
          reported.some((f) => acceptable.some((a) => namesField(f, a))),
          `an error naming ${acceptable.join(' or ')}${acceptable.some((a) => /\]$/.test(a)) ? ' (or its list)' : ''}`,
          `errors name ${reported.join(', ')}`,
        ),
      );
    }
    return { judgements: js, definitelyValid: false };
  }
  if (model.unspecified.length > 0) {
    // One answer for the file: recorded under every decision the spec leaves open in it (never a failure).
    const js = model.unspecified.flatMap((u) =>
      [u.clause, ...(u.row === undefined ? [] : [u.row])].map((c) =>
        unspecified(c, `accept or reject (${u.message})`, accepted ? 'accepted' : 'rejected'),
      ),
    );
    return { judgements: js, definitelyValid: false };
  }
  const subSecondInput = (c: ClauseId) =>
    subSecond.has(c) ? ({ input: 'sub-second-duration', class: 'sub-second-duration-refused' } as const) : {};
  if (!accepted) {
    const blamed = rejectClause(reported ?? []);
    return {
      judgements: tagged(
        [
          fail(blamed, 'accepted: the model finds nothing wrong with the file', observed, {
            needs: [needExit('the loader accepts the file (exit 0)', false)],
          }),
        ],
        subSecondInput(blamed),
      ),
      definitelyValid: false,
    };
  }
  return { judgements: clausesIfAccepted.flatMap((c) => tagged([pass(c, 'accepted')], subSecondInput(c))), definitelyValid: true };
}

/**
 * An accepted file whose only violations are explicit zeros a loader may read as unset (`port: 0`,
 * config.ts `withZerosUnset`): judged as the file without them, so its effective configuration must
 * show their defaults. Printed nothing to show it: inconclusive, never a pass.
 */
function judgeZerosReadAsUnset(model: ValidationResult, zerosUnset: Record<string, unknown>, ans: LoaderAnswer, p: Profile): Judgement[] {
  const printed = printedConfig(ans.stdout);
  if (printed === undefined || !looksLikeConfig(printed, p)) {
    return [...new Set(model.errors.map((e) => e.clause))].map((c) =>
      inconclusive(
        c,
        `rejected, or accepted reading the explicit zero as unset (${model.errors.map((e) => `${e.field}: ${e.message}`).join('; ')})`,
        'accepted, with no effective configuration to show how the zero was read',
      ),
    );
  }
  return judgeConfigAnswer(zerosUnset, ans, p);
}

/** One wrong effective field as data: a field the loader left out is removed, a different value modified. */
function effectiveValues(m: EffectiveMismatch): JudgementValues {
  const leftOut = !Object.hasOwn(m, 'observedValue');
  return {
    expectedValue: m.expectedValue,
    ...(leftOut ? {} : { observedValue: m.observedValue }),
    diff: leftOut
      ? { added: [], modified: [], removed: [{ path: m.field, expected: m.expectedValue }] }
      : { added: [], removed: [], modified: [{ path: m.field, expected: m.expectedValue, observed: m.observedValue }] },
  };
}

/** Fields whose default alone 2.5 does not show (cgroupRoot, seccompDefault): any value they get when left out is recorded. */
const unshownDefaultFields = configFields.filter((f) => f.def.kind === 'gap' && f.check === undefined);

/** What the loader filled in for each such field the file leaves out: unspecified, with the value (or its absence) shown. */
function unshownDefaults(doc: Record<string, unknown>, printed: Record<string, unknown>, p: Profile): Judgement[] {
  return unshownDefaultFields.flatMap((f) => {
    if (f.def.kind !== 'gap' || doc[nameIn(f, p)] !== undefined) return [];
    const v = printed[nameIn(f, p)];
    return [
      unspecified(
        f.def.clause,
        `any default: 2.5 does not show ${nameIn(f, p)}'s`,
        v === undefined ? `left out of the effective configuration` : `effective ${nameIn(f, p)} = ${JSON.stringify(v)}`,
      ),
    ];
  });
}

/** Judge a loader's answer to a NodeagentConfiguration file. */
export function judgeConfigAnswer(doc: Record<string, unknown>, ans: LoaderAnswer, p: Profile, violationClause?: ClauseId): Judgement[] {
  const model = validateNodeagentConfig(doc, p);
  const zerosUnset = withZerosUnset(doc, p);
  if (zerosUnset !== undefined && model.errors.length > 0 && ans.exitCode === 0) {
    // Only the zeros a violation names are read as unset here; the valid ones keep both readings below.
    const violatingZerosUnset = withZerosUnset(doc, p, new Set(model.errors.flatMap((e) => [e.field, ...(e.related ?? [])])));
    if (violatingZerosUnset !== undefined && validateNodeagentConfig(violatingZerosUnset, p).errors.length === 0)
      return judgeZerosReadAsUnset(model, violatingZerosUnset, ans, p);
  }
  const clauses = clausesOfDoc(doc, p);
  // A valid file rejected: the clause of the field the loader blames, else of the first field set.
  const blame = (reported: readonly string[]) => (reported.length > 0 ? clauseForPath(reported[0]!, p) : (clauses[1] ?? clauses[0]!));
  const { judgements, definitelyValid } = judgeVerdict(model, ans, clauses, blame, violationClause, subSecondDurationClauses(doc, p));
  if (!definitelyValid) return judgements;
  const printed = printedConfig(ans.stdout);
  if (printed === undefined || !looksLikeConfig(printed, p)) return judgements;
  // An explicit zero read as unset shows its default: a mismatch counts only where the file without those zeros disagrees too.
  const asUnset = zerosUnset === undefined ? undefined : compareEffective(zerosUnset, printed, p);
  const mismatches = compareEffective(doc, printed, p).filter((m) => asUnset === undefined || asUnset.some((n) => n.field === m.field));
  const failed = new Set(mismatches.flatMap((m) => [m.clause, ...(m.also ?? [])]));
  return [
    ...judgements,
    // Each mismatch as data too: the field path and both values (the model's rendering of each side). A
    // default shown wrong fails every clause stating it, never passing a row of 8 that it breaks.
    ...mismatches.flatMap((m) =>
      [m.clause, ...(m.also ?? [])].map((c) => fail(c, `effective ${m.field} = ${m.expected}`, m.observed, effectiveValues(m))),
    ),
    ...defaultedClauses.filter((c) => !failed.has(c)).map((c) => pass(c, 'effective configuration as the model computes it')),
    ...unshownDefaults(doc, printed, p),
  ];
}

export const credentialJudgementClauses: readonly ClauseId[] = [
  'node:2.1/kind',
  'node:2.1/providers',
  'node:2.1/name',
  'node:2.1/matchImages',
  'node:2.1/defaultCacheDuration',
  DURATIONS_ROW,
  'node:2.1/apiVersion',
  'node:2.1/args',
  'node:2.1/env',
  'node:2.5/provider-apiVersion',
];

/** Judge a loader's answer to a CredentialProviderConfig file. */
export function judgeCredentialAnswer(
  doc: Record<string, unknown>,
  ans: LoaderAnswer,
  p: Profile,
  violationClause?: ClauseId,
): Judgement[] {
  const model = validateCredentialProviderConfig(doc, p);
  const providers = Array.isArray(doc['providers']) ? doc['providers'] : [];
  const durationStrings = providers.some((x) => isRecord(x) && typeof x['defaultCacheDuration'] === 'string');
  const clauses: ClauseId[] = ['node:2.1/kind', 'node:2.1/providers', ...(durationStrings ? [DURATIONS_ROW] : [])];
  return judgeVerdict(model, ans, clauses, () => 'node:2.1/providers', violationClause).judgements;
}
