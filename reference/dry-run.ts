/**
 * rest:4.6 dry-run as data and judges.
 *
 *   parseDryRun([['dryRun', null]])   -> { kind: 'flag' }      (`?dryRun`, rest:4.6.1)
 *   parseDryRun([['dryRun', 'All']])  -> { kind: 'all' }
 *   parseDryRun([['dryRun', 'Some']]) -> { kind: 'invalid', values: ['Some'] }  (any 4xx; the code is not named)
 *
 * Interpretation (review): rest:4.6.2 says "With All, every stage runs ... except persistence". For the
 * flag form the spec says only that it is accepted (rest:4.6.1), so whether it persists is left open:
 * the model accepts both and learns what the target did.
 */
import type { Content, ObjectVersion, ObservedObject } from './objects.ts';
import { contentMismatch } from './objects.ts';
import { alsoAgainst, pass, rule, tagged, unspecified, type Judgement } from './judgement.ts';
import { needStatus, needStatusClass, type AnswerNeed, type AnswerTest } from './answer-checks.ts';

type Pairs = readonly (readonly [string, string | null])[];

export type DryRun =
  | { readonly kind: 'none' }
  /** `?dryRun` or `?dryRun=` (a bare flag; the empty value is how a flag reads after decoding). */
  | { readonly kind: 'flag' }
  | { readonly kind: 'all' }
  | { readonly kind: 'invalid'; readonly values: readonly string[] };

export function parseDryRun(pairs: Pairs): DryRun {
  const values = pairs.filter(([k]) => k === 'dryRun').map(([, v]) => v ?? '');
  if (values.length === 0) return { kind: 'none' };
  const bad = values.filter((v) => v !== '' && v !== 'All');
  if (bad.length > 0) return { kind: 'invalid', values: bad };
  return values.includes('All') ? { kind: 'all' } : { kind: 'flag' };
}

/** The query pair a dry-run form is sent as. */
export function dryRunPair(form: 'flag' | 'All'): readonly [string, string | null] {
  return form === 'flag' ? ['dryRun', null] : ['dryRun', 'All'];
}

export type WriteVerb = 'create' | 'update' | 'delete' | 'patch';

/**
 * rest:4.6.2 "the normal status code": what the real write answers on success. rest:4.1 shows 200
 * for a dry-run create; upstream answers 201 to a real create; 202 is a delete still in progress.
 */
export function normalStatuses(verb: WriteVerb): ReadonlySet<number> {
  return new Set(verb === 'delete' ? [200, 202] : verb === 'patch' ? [200] : [200, 201]);
}

/**
 * What the real PATCH would do (rest:4.1 patch types), so what its dry-run must answer: a patch that
 * sets one label of a live object stores the object with that label set (merge patch: RFC 7386; JSON
 * patch `add`: RFC 6902; apply with force: the applier owns the label, rest:3.2); a body the patch type
 * cannot parse or apply is refused; a merge or JSON patch of a missing object is refused (nothing to
 * patch). Apply to a missing object would create it: not modelled here (undefined: not tried).
 *
 *   expectDryRunPatch({ labels: { tier: 'web' }, ... }, 'merge', false, ['tier', 'db'])
 *     -> { outcome: 'success', verb: 'patch', wouldStore: { labels: { tier: 'db' }, ... } }
 */
export function expectDryRunPatch(
  live: Content | undefined,
  patch: 'merge' | 'json' | 'apply',
  invalid: boolean,
  label: readonly [string, string],
): DryRunExpectation | undefined {
  if (live === undefined) return patch === 'apply' ? undefined : { outcome: 'refused', verb: 'patch', why: 'the object does not exist' };
  if (invalid) return { outcome: 'refused', verb: 'patch', why: `the ${patch} patch body is not a valid document of its type` };
  return { outcome: 'success', verb: 'patch', wouldStore: { ...live, labels: { ...live.labels, [label[0]]: label[1] } } };
}

/**
 * A POST or PUT of an object whose `metadata.annotations` is not a map of string to string (rest:2.3
 * types it so; a number value here): the real write is refused, so the dry-run is too. The body's own
 * fields are not used: their schemas are "not shown" (rest:4.1).
 */
export function expectDryRunBadBody(verb: 'create' | 'update'): DryRunExpectation {
  return { outcome: 'refused', verb, why: 'metadata.annotations is not a map of string to string (rest:2.3)' };
}

/**
 * rest:2.8: generated at persist time, so a dry-run answer's values are not to be relied on. The
 * judges compare a dry-run answer with the model's object with these left out.
 */
export const GENERATED_FIELDS = ['name (with generateName)', 'creationTimestamp', 'deletionTimestamp', 'uid', 'resourceVersion'] as const;

/** What the model expects from a dry-run write, from what the real write would do. */
export type DryRunExpectation =
  /** The real write would succeed: the normal status, the object it would store (content only). */
  | { readonly outcome: 'success'; readonly verb: WriteVerb; readonly wouldStore: Content | undefined }
  /** The real write would be refused: the dry-run is refused too (same class of answer). */
  | {
      readonly outcome: 'refused';
      readonly verb: WriteVerb;
      readonly why: string;
      /**
       * Set where refusing rests on something the spec does not fix (a stale resourceVersion: the spec
       * has no preconditions, rest:2.3 says only what a version means): a success is then recorded as
       * unspecified with this text, never failed.
       */
      readonly open?: string;
    };

/**
 * rest:4.6.2 / rest:7/200: a dry-run answers like the real write: success with the normal status and
 * the object that would be stored (compared modulo the generated fields of rest:2.8), or a refusal
 * where the real write is refused.
 */
export function judgeDryRunAnswer(
  exp: DryRunExpectation,
  form: 'flag' | 'All',
  status: number,
  object: ObservedObject | undefined,
  knownKeys: ReadonlySet<string>,
  reason?: string,
): Judgement[] {
  const js = judgeDryRunVerdicts(exp, form, status, object, knownKeys);
  // A bare ?dryRun on a write the real one accepts: the input that shows a server allowing only All.
  if (form !== 'flag' || exp.outcome !== 'success') return js;
  return tagged(js, {
    input: 'bare-dryrun',
    observedStatus: status,
    observedReason: reason,
    class: status >= 400 && status < 500 ? 'bare-dryrun-refused' : undefined,
  });
}

function judgeDryRunVerdicts(
  exp: DryRunExpectation,
  form: 'flag' | 'All',
  status: number,
  object: ObservedObject | undefined,
  knownKeys: ReadonlySet<string>,
): Judgement[] {
  const clause = form === 'All' ? 'rest:4.6.2' : 'rest:4.6.1';
  if (exp.outcome === 'refused') {
    const refused = status >= 400 && status < 500;
    if (!refused && exp.open !== undefined && normalStatuses(exp.verb).has(status))
      return [unspecified('rest:2.3/metadata.resourceVersion', exp.open, `a ${form} dry-run ${exp.verb} answered ${status}`)];
    return [
      rule(clause, refused, `a ${form} dry-run ${exp.verb} is refused like the real one (${exp.why}): 4xx`, `status ${status}`, {
        needs: [needStatusClass(`the ${form} dry-run ${exp.verb} is refused (4xx)`, 4)],
      }),
    ];
  }
  const codes = normalStatuses(exp.verb);
  // The status of the dry-run's own answer (judged as it arrives) is the whole of this rule.
  const js: Judgement[] = [
    rule(
      clause,
      codes.has(status),
      `a ${form} dry-run ${exp.verb} answers the normal status (${[...codes].join(' or ')})`,
      `status ${status}`,
      {
        needs: [needStatus(`the ${form} dry-run ${exp.verb} answers ${[...codes].join(' or ')}`, [...codes])],
      },
    ),
  ];
  // A 2xx outside the verb's codes breaks the row of rest:7 that names a dry-run's success code too.
  if (form === 'All' && (codes.has(status) || (status >= 200 && status < 300)))
    js.push(rule('rest:7/200', codes.has(status), "dry-run success is 200 or the verb's normal success code", `status ${status}`));
  if (exp.wouldStore !== undefined && codes.has(status)) {
    const m = object === undefined ? 'no object in the answer' : contentMismatch(exp.wouldStore, object, knownKeys);
    // A script can check labels and annotations as data; a body that differs stays for the reader (no need: undecided).
    const asData = m !== undefined && /^(labels|annotations)\[/.test(m) && exp.wouldStore !== undefined;
    js.push(
      rule(
        clause,
        m === undefined,
        `the answer is the object that would be stored (${GENERATED_FIELDS.join(', ')} not compared, rest:2.8)`,
        m ?? '',
        asData
          ? {
              needs: [
                {
                  says: `the ${form} dry-run ${exp.verb} answers the object that would be stored: its labels and annotations`,
                  test: {
                    kind: 'allOf',
                    tests: [
                      { kind: 'status', at: 'judged', oneOf: [...codes] },
                      ...metaTests(exp.wouldStore!.labels, exp.wouldStore!.annotations, knownKeys),
                    ],
                  },
                },
              ],
            }
          : {},
      ),
    );
    // Not relying on generated values is the suite's rule, not an observation of the target: no rest:2.8
    // verdict here (a pass that could not fail let rest:2.8 pass on a server generating none).
  }
  return js;
}

/**
 * rest:4.6.2: after a dry-run with All nothing was persisted: a read of the key shows the object the
 * model had before (same resourceVersion and content), or still no object.
 */
export function judgeNotPersisted(
  before: ObjectVersion | undefined,
  read: { status: number; object: ObservedObject | undefined },
  knownKeys: ReadonlySet<string>,
): Judgement {
  if (before === undefined) {
    return rule('rest:4.6.2', read.status === 404, 'a dry-run create stored nothing: the name still reads 404', `status ${read.status}`, {
      needs: [needStatus('the name a dry-run created still reads 404', [404])],
    });
  }
  const needs = { needs: [unchangedNeed(before, knownKeys)] };
  if (read.status !== 200 || read.object === undefined)
    return rule('rest:4.6.2', false, `a dry-run left ${before.key}@${before.rv} in place`, `status ${read.status}`, needs);
  const m = contentMismatch(before.content, read.object, knownKeys);
  const sameRv = read.object.rv === before.rv;
  return rule(
    'rest:4.6.2',
    m === undefined && sameRv && read.object.deletionTimestamp === undefined,
    `a dry-run left ${before.key}@${before.rv} unchanged (not terminating)`,
    m ??
      (sameRv ? `deletionTimestamp ${JSON.stringify(read.object.deletionTimestamp)}` : `resourceVersion ${JSON.stringify(read.object.rv)}`),
    needs,
  );
}

/**
 * The read after a dry-run shows the object as before it: 200, the resourceVersion of the answer that
 * wrote it (every stored change moves it, rest:2.3), the suite's labels and annotations as they were,
 * not terminating.
 */
function metaTests(
  labels: Readonly<Record<string, string>>,
  annotations: Readonly<Record<string, string>>,
  knownKeys: ReadonlySet<string>,
): AnswerTest[] {
  const meta = (map: 'labels' | 'annotations', values: Readonly<Record<string, string>>): AnswerTest[] =>
    [...knownKeys].map(
      (k): AnswerTest =>
        Object.hasOwn(values, k)
          ? { kind: 'value', at: 'judged', path: ['metadata', map, k], equals: values[k] }
          : { kind: 'value', at: 'judged', path: ['metadata', map, k], absent: true },
    );
  return [...meta('labels', labels), ...meta('annotations', annotations)];
}

function unchangedNeed(before: ObjectVersion, knownKeys: ReadonlySet<string>): AnswerNeed {
  const rv = ['metadata', 'resourceVersion'];
  return {
    says: `the read after the dry-run shows ${before.key} as before it: 200, the same resourceVersion, labels and annotations, not terminating`,
    test: {
      kind: 'allOf',
      tests: [
        { kind: 'status', at: 'judged', oneOf: [200] },
        { kind: 'same', at: 'judged', path: rv, other: { at: { carrying: before.rv }, path: rv } },
        { kind: 'value', at: 'judged', path: ['metadata', 'deletionTimestamp'], absent: true },
        ...metaTests(before.content.labels, before.content.annotations, knownKeys),
      ],
    },
  };
}

/** The flag form's persistence is open (see the header): recorded, never failed. */
export function noteFlagPersistence(changed: boolean): Judgement {
  return unspecified(
    'rest:4.6.1',
    'whether the flag form (no value) persists: not stated (rest:4.6.2 speaks of All)',
    changed ? 'the write was persisted' : 'nothing was persisted',
  );
}

/** rest:4.6.1 lists the only accepted forms; the status for another value is not named: any 4xx. */
export function judgeInvalidDryRun(value: string, status: number): Judgement {
  return rule(
    'rest:4.6.1',
    status >= 400 && status < 500,
    `dryRun=${value} (neither no value nor All) is refused (4xx)`,
    `status ${status}`,
  );
}

/** rest:4.6.2 for a dry-run delete of a namespace: it is still there and not terminating. */
export function judgeNamespaceKept(name: string, status: number, deletionTimestamp: unknown): Judgement {
  return rule(
    'rest:4.6.2',
    status === 200 && deletionTimestamp === undefined,
    `a dry-run delete left namespace ${name} in place, not terminating`,
    `status ${status}, deletionTimestamp ${JSON.stringify(deletionTimestamp)}`,
  );
}

/**
 * rest:2.8 / rest:4.6.2 for a dry-run create with generateName: the name is not to be relied on, but
 * an answer is a created object whose name (if any) extends the prefix, and nothing is stored under it.
 */
export function judgeGeneratedDryRun(prefix: string, status: number, name: unknown, readBack: number | undefined): Judgement[] {
  const codes = normalStatuses('create');
  const js: Judgement[] = [
    rule('rest:4.6.2', codes.has(status), 'a dry-run create with generateName answers the normal status', `status ${status}`),
  ];
  if (typeof name === 'string' && name !== '') {
    js.push(
      rule(
        'rest:2.8',
        name.startsWith(prefix),
        `a generated name extends ${JSON.stringify(prefix)} (its value is not relied on)`,
        `name ${JSON.stringify(name)}`,
      ),
    );
    // The judged answer is the read of the generated name, which a reproducer learns from its own dry-run answer.
    if (readBack !== undefined)
      js.push(
        rule('rest:4.6.2', readBack === 404, `nothing stored under the generated name ${name}`, `status ${readBack}`, {
          needs: [needStatus('the name the dry-run generated still reads 404 (nothing stored)', [404])],
        }),
      );
  } else js.push(unspecified('rest:2.8', "a dry-run answer's generated name is not to be relied on", `name ${JSON.stringify(name)}`));
  return js;
}

/**
 * The whole answer to a dry-run write (judgeDryRunAnswer), also under rest:4.3/dryRun (the parameter
 * is accepted on `on`: the write, or `a merge patch`) and, when `pretty=true` was sent with it, under
 * rest:4.3/pretty (combinable with dryRun: the same answer as without it).
 *
 *   judgeDryRunWrite(exp, 'All', 500, undefined, keys, 'create', true) -> fails rest:4.6.2, rest:4.3/dryRun and rest:4.3/pretty
 */
export function judgeDryRunWrite(
  exp: DryRunExpectation,
  form: 'flag' | 'All',
  status: number,
  object: ObservedObject | undefined,
  knownKeys: ReadonlySet<string>,
  on: string,
  pretty: boolean,
  reason?: string,
): Judgement[] {
  const answer = alsoAgainst(
    'rest:4.3/dryRun',
    `dryRun${form === 'All' ? '=All' : ''} accepted on ${on}`,
    judgeDryRunAnswer(exp, form, status, object, knownKeys, reason),
  );
  return pretty ? alsoAgainst('rest:4.3/pretty', 'pretty=true combined with dryRun: the same answer as without it', answer) : answer;
}

/**
 * judgeInvalidDryRun, also under rest:4.3/dryRun: the parameter takes no value or All.
 *
 *   judgeInvalidDryRunWrite('Some', 201) -> [fail rest:4.6.1, fail rest:4.3/dryRun]
 */
export function judgeInvalidDryRunWrite(value: string, status: number): Judgement[] {
  return alsoAgainst('rest:4.3/dryRun', 'dryRun takes no value or All: other values are refused', [judgeInvalidDryRun(value, status)]);
}

/**
 * rest:4.6.2 for the answer to a dry-run delete of a namespace: the normal status of a delete (200,
 * or 202 for one still in progress). What is left afterwards is judgeNamespaceKept's.
 *
 *   judgeNamespaceDryRunDelete(404) -> fail rest:4.6.2
 */
export function judgeNamespaceDryRunDelete(status: number): Judgement {
  return rule(
    'rest:4.6.2',
    normalStatuses('delete').has(status),
    'a dry-run delete of a namespace answers the normal status',
    `status ${status}`,
  );
}

/**
 * What a read after a successful dry-run shows: with All, judgeNotPersisted; with the flag form,
 * whether it persisted is open (noteFlagPersistence), and a key that changed can no longer be
 * predicted (`unpredictable`: the caller stops modelling it).
 *
 *   judgeDryRunPersistence('flag', before, { status: 200, object: changed }, keys)
 *     -> { judgements: [unspecified rest:4.6.1], unpredictable: true }
 */
export function judgeDryRunPersistence(
  form: 'flag' | 'All',
  before: ObjectVersion | undefined,
  read: { status: number; object: ObservedObject | undefined },
  knownKeys: ReadonlySet<string>,
): { judgements: Judgement[]; unpredictable: boolean } {
  const verdict = judgeNotPersisted(before, read, knownKeys);
  if (form === 'All') return { judgements: [verdict], unpredictable: false };
  const changed = verdict.verdict === 'fail';
  return { judgements: [noteFlagPersistence(changed)], unpredictable: changed };
}
