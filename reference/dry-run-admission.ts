/**
 * Dry-run and admission webhooks (rest:4.6.2, rest:4.6.3, rest:7.3): the configurations the suite
 * registers, and the judges of what the target did with them. The suite hosts a validating webhook on
 * loopback that records every review and denies objects carrying DENY_LABEL.
 *
 * Case A, a webhook with sideEffects None: a dry-run of an allowed object is served and the webhook
 * saw it with dryRun true (rest:4.6.2 every stage but persistence runs; rest:4.6.3 a None webhook
 * does not make a dry-run fail); a dry-run of a denied object is refused as its real form is.
 *
 *   judgeNoneWebhook({ premise: ok, allowed: { status: 201, seen: [true], persisted: false }, denied: { status: 403, ... } })
 *     -> rest:4.6.2 pass, rest:4.6.3 pass
 *   ... denied: { status: 201, ... } -> rest:4.6.2 fail (admission skipped under dry-run)
 *
 * Case M, a mutating webhook with sideEffects None that adds a label (MUTATION_LABEL, a value the
 * suite picks per case): a dry-run create is served with the mutation on the answer (rest:4.6.2 "the
 * response is the object that would have been stored"), the webhook saw it with dryRun true, and
 * nothing is stored. rest:2.8 lets a dry-run's values of fields set by a mutating step differ, so the
 * label must be there, its value may differ. Premise: a real create reached the webhook and the stored
 * object carries the mutation; else (unreachable under failurePolicy Ignore, the patch not applied on
 * real writes either) nothing is shown about dry-run: inconclusive.
 *
 *   judgeMutatingWebhook({ premise: ok, mark: ['svc-conformance/mutated', 'x1'], realLabels: { ..., 'svc-conformance/mutated': 'x1' },
 *     dry: { status: 201, seen: [true], persisted: false, labels: { ..., 'svc-conformance/mutated': 'x1' } } })
 *     -> rest:4.6.2 pass, rest:4.6.3 pass
 *   ... dry.labels without it -> rest:4.6.2 fail (the answer is not the object that would be stored)
 *
 * Case B, a side-effecting webhook (sideEffects Some or Unknown): only admissionregistration v1beta1
 * (served below v1.22) can declare one; v1 allows None and NoneOnDryRun only (rest:9.4 row). When no
 * served version accepts one, rest:7.3 cannot be reached from outside: inconclusive, never a pass.
 * When one does, a dry-run it matches fails and never reaches it (rest:7.3, rest:4.6.3), provided a
 * real request was seen reaching it (else nothing is shown: inconclusive).
 */
import type { ClauseId } from './catalog/clause-ids.ts';
import { fail, inconclusive, pass, rule, type Judgement } from './judgement.ts';
import { namedGroup, type Profile } from './profile.ts';

/** An object carrying this label (any value) is denied by the suite's webhook. */
export const DENY_LABEL = 'svc-conformance/deny';
/** Which of the case's webhooks an object is for (`a`: case A, `b`: case B); part of each objectSelector. */
export const WEBHOOK_LABEL = 'svc-conformance/webhook';
/** The label case M's mutating webhook adds (the value is picked per case). */
export const MUTATION_LABEL = 'svc-conformance/mutated';

/** The configurations' timeoutSeconds: the shortest that still lets a loaded machine answer. */
export const WEBHOOK_TIMEOUT_SECONDS = 5;

export const ADMISSION_CLAUSES: readonly ClauseId[] = [
  'rest:4.6.2',
  'rest:4.6.3',
  'rest:7.3',
  'rest:9.4/admissionregistration-v1beta1-validatingwebhookconfiguration',
];
const ROW: ClauseId = 'rest:9.4/admissionregistration-v1beta1-validatingwebhookconfiguration';

export const admissionGroup = (profile: Profile): string => namedGroup(profile, 'admissionregistration');

export interface WebhookSpec {
  readonly name: string;
  /** Labels of the configuration itself (the run's). */
  readonly labels: Readonly<Record<string, string>>;
  readonly url: string;
  readonly caBundle: string;
  /** undefined: not stated (v1beta1 defaults Unknown; v1 requires it). */
  readonly sideEffects: 'None' | 'NoneOnDryRun' | 'Some' | 'Unknown' | undefined;
  /** The configuration can match only objects in namespaces with these labels... */
  readonly namespaceLabels: Readonly<Record<string, string>>;
  /** ...that carry these labels. */
  readonly objectLabels: Readonly<Record<string, string>>;
  /** The resource it watches (core group, v1). */
  readonly resource: string;
  /** Which configuration kind (default Validating). */
  readonly kind?: 'Validating' | 'Mutating';
}

/**
 * A Validating- (or Mutating-) WebhookConfiguration of one webhook, scoped to the run's objects by both selectors, with
 * failurePolicy Ignore (an unreachable webhook never blocks anyone) and the shortest timeout that
 * still lets a loaded machine answer.
 */
export function webhookConfiguration(profile: Profile, version: string, w: WebhookSpec): Record<string, unknown> {
  return {
    apiVersion: `${admissionGroup(profile)}/${version}`,
    kind: `${w.kind ?? 'Validating'}WebhookConfiguration`,
    metadata: { name: w.name, labels: { ...w.labels } },
    webhooks: [
      {
        name: `${w.name}.webhook.svc-conformance.test`,
        clientConfig: { url: w.url, caBundle: w.caBundle },
        rules: [
          {
            operations: ['CREATE', 'UPDATE', 'DELETE'],
            apiGroups: [''],
            apiVersions: ['v1'],
            resources: [w.resource],
            scope: 'Namespaced',
          },
        ],
        namespaceSelector: { matchLabels: { ...w.namespaceLabels } },
        objectSelector: { matchLabels: { ...w.objectLabels } },
        failurePolicy: 'Ignore',
        timeoutSeconds: WEBHOOK_TIMEOUT_SECONDS,
        admissionReviewVersions: ['v1', 'v1beta1'],
        sideEffects: w.sideEffects,
      },
    ],
  };
}

const ok = (status: number) => status >= 200 && status < 300;

/** Why the webhook part did not run against this target (not on loopback, no openssl...): every clause inconclusive. */
export function webhookOutOfReach(reason: string): Judgement[] {
  return ['rest:4.6.2', 'rest:4.6.3', 'rest:7.3'].map((c) =>
    inconclusive(c as ClauseId, 'a dry-run meets the admission webhooks its real form would', reason),
  );
}

/** Whether a registered webhook was seen in force: a real request it matches reached it (and, for case A, was refused). */
export type Premise = { readonly shown: true; readonly observed: string } | { readonly shown: false; readonly observed: string };

export interface DryRunAttempt {
  /** Status of the dry-run create. */
  readonly status: number;
  /** `request.dryRun` of every review the webhook got for that object (empty: not called). */
  readonly seen: readonly (boolean | undefined)[];
  /** A read after it found the object: the dry-run was stored. */
  readonly persisted: boolean;
  /** How long the dry-run create took to answer, as the suite measured it (ms). */
  readonly tookMs?: number;
}

/**
 * Served, but so late that the target may have given up on the webhook (timeoutSeconds) and let the
 * request through, as failurePolicy Ignore says: then it shows nothing about dry-run. The suite's own
 * measure includes the target's, so an answer sooner than the timeout cannot be one.
 */
export function servedPastWebhookTimeout(a: DryRunAttempt): boolean {
  return ok(a.status) && a.tookMs !== undefined && a.tookMs >= WEBHOOK_TIMEOUT_SECONDS * 1000;
}

const pastTimeout = (a: DryRunAttempt) =>
  `; it answered after ${a.tookMs} ms, not before the webhook's timeoutSeconds ${WEBHOOK_TIMEOUT_SECONDS}: a call that timed out lets the request through under failurePolicy Ignore, so nothing is shown`;

export interface NoneWebhookObservation {
  /** A real create of a deny-labelled object was refused by the webhook: registered, in force, reachable. */
  readonly premise: Premise;
  /** The real create's status (the refusal the dry-run must match). */
  readonly realDenied?: number;
  /** Dry-run create of an object the webhook allows. */
  readonly allowed?: DryRunAttempt;
  /** Dry-run create of an object the webhook denies. */
  readonly denied?: DryRunAttempt;
}

const showSeen = (seen: readonly (boolean | undefined)[]) =>
  seen.length === 0
    ? 'the webhook got no review for it'
    : `the webhook got ${seen.length} review(s), dryRun ${seen.map((d) => String(d)).join(', ')}`;

/** Case A: a webhook with sideEffects None. */
export function judgeNoneWebhook(o: NoneWebhookObservation): Judgement[] {
  if (!o.premise.shown || o.allowed === undefined || o.denied === undefined) {
    return ['rest:4.6.2', 'rest:4.6.3'].map((c) =>
      inconclusive(
        c as ClauseId,
        'a webhook with sideEffects None, seen in force (a real create it denies refused), is called on dry-run',
        o.premise.observed,
      ),
    );
  }
  const a = o.allowed;
  const d = o.denied;
  const out: Judgement[] = [];
  out.push(
    rule(
      'rest:4.6.2',
      ok(a.status) && a.seen.includes(true) && !a.persisted,
      'a dry-run create the webhook allows runs admission (the webhook gets the review with dryRun true), is served, and is not stored',
      `${a.status}; ${showSeen(a.seen)}${a.persisted ? '; the object was stored' : ''}`,
    ),
  );
  const deniedExpected = `a dry-run create the webhook denies is refused as its real form was (${o.realDenied ?? 'refused'}), and not stored`;
  const deniedObserved = `${d.status}; ${showSeen(d.seen)}${d.persisted ? '; the object was stored' : ''}`;
  out.push(
    servedPastWebhookTimeout(d) && !d.persisted
      ? inconclusive('rest:4.6.2', deniedExpected, deniedObserved + pastTimeout(d))
      : rule('rest:4.6.2', !ok(d.status) && !d.persisted, deniedExpected, deniedObserved),
  );
  out.push(
    rule(
      'rest:4.6.3',
      ok(a.status),
      'a webhook declaring sideEffects None does not make a dry-run fail',
      `the dry-run create it allows answered ${a.status}`,
    ),
  );
  return out;
}

export interface DeclarationAttempt {
  readonly version: string;
  readonly sideEffects: 'Some' | 'Unknown';
  /** Status of creating the configuration. */
  readonly status: number;
}

export interface SideEffectObservation {
  /** Every attempt to declare a side-effecting webhook, per served admissionregistration version. */
  readonly attempts: readonly DeclarationAttempt[];
  /** The first accepted one, put to the test. */
  readonly tested?: {
    readonly attempt: DeclarationAttempt;
    /** A real create it matches reached it (the premise: it is in force and reachable). */
    readonly premise: Premise;
    /** The dry-run create it matches. */
    readonly dry?: DryRunAttempt;
  };
}

const showAttempts = (as: readonly DeclarationAttempt[]) =>
  as.map((a) => `${a.version} sideEffects ${a.sideEffects}: ${a.status}`).join('; ') || 'no admissionregistration version is served';

/** Case B: a side-effecting webhook, if one can be declared. */
export function judgeSideEffectingWebhook(o: SideEffectObservation): Judgement[] {
  const out: Judgement[] = [];
  // The rest:9.4 row: v1 allows only None and NoneOnDryRun.
  for (const a of o.attempts.filter((x) => x.version === 'v1')) {
    out.push(
      rule(
        ROW,
        !ok(a.status),
        `admissionregistration v1 refuses a webhook with sideEffects ${a.sideEffects} (only None and NoneOnDryRun)`,
        `creating it answered ${a.status}`,
      ),
    );
  }
  const clauses: ClauseId[] = ['rest:7.3', 'rest:4.6.3'];
  const expected = 'a dry-run whose real form calls a webhook with side effects fails, without calling it';
  if (o.tested === undefined) {
    const why = `no side-effecting admission step can be declared from outside: every served admissionregistration version refused one (${showAttempts(o.attempts)}); v1 allows only None and NoneOnDryRun (rest:9.4 row)`;
    return [...out, ...clauses.map((c) => inconclusive(c, expected, why))];
  }
  const t = o.tested;
  const which = `${t.attempt.version} webhook with sideEffects ${t.attempt.sideEffects}`;
  if (!t.premise.shown || t.dry === undefined)
    return [...out, ...clauses.map((c) => inconclusive(c, `${expected} (${which})`, t.premise.observed))];
  const d = t.dry;
  const holds = !ok(d.status) && d.seen.length === 0 && !d.persisted;
  const observed = `the dry-run create answered ${d.status}; ${showSeen(d.seen)}${d.persisted ? '; the object was stored' : ''} (a real create did reach it: ${t.premise.observed})`;
  for (const c of clauses) out.push(holds ? pass(c, `${expected} (${which})`, observed) : fail(c, `${expected} (${which})`, observed));
  return out;
}

export interface MutatingDryRun extends DryRunAttempt {
  /** Labels of the object the dry-run create answered (undefined: no object in the answer). */
  readonly labels: Readonly<Record<string, string>> | undefined;
}

export interface MutatingWebhookObservation {
  /** A real create reached the mutating webhook (registered, in force, reachable). */
  readonly premise: Premise;
  /** The label the webhook adds, and the value it adds. */
  readonly mark: readonly [string, string];
  /** Labels of the real create's object as read back (undefined: not read). */
  readonly realLabels?: Readonly<Record<string, string>> | undefined;
  /** The dry-run create it matches. */
  readonly dry?: MutatingDryRun;
}

const showLabel = (labels: Readonly<Record<string, string>> | undefined, key: string) =>
  labels === undefined ? 'no object' : Object.hasOwn(labels, key) ? `${key}=${JSON.stringify(labels[key])}` : `no ${key} label`;

/** Case M: a mutating webhook with sideEffects None. */
export function judgeMutatingWebhook(o: MutatingWebhookObservation): Judgement[] {
  const [key, value] = o.mark;
  const expected = `a dry-run create runs the mutating webhook (sideEffects None; it gets the review with dryRun true), answers the object that would be stored, carrying its mutation ${key}, and stores nothing`;
  const clauses: ClauseId[] = ['rest:4.6.2', 'rest:4.6.3'];
  if (!o.premise.shown || o.dry === undefined) return clauses.map((c) => inconclusive(c, expected, o.premise.observed));
  if (o.realLabels === undefined || o.realLabels[key] !== value) {
    const why = `a real create reached the webhook (${o.premise.observed}) but the stored object shows ${showLabel(o.realLabels, key)}, not ${key}=${JSON.stringify(value)}: the target does not apply this patch on real writes either, so a dry-run cannot be held to it`;
    return clauses.map((c) => inconclusive(c, expected, why));
  }
  const d = o.dry;
  const carried = d.labels !== undefined && Object.hasOwn(d.labels, key);
  // rest:2.8: the value a mutating step sets on a dry-run may differ; that the label is there may not.
  const differs =
    carried && d.labels![key] !== value ? ` (the real create stored ${JSON.stringify(value)}; rest:2.8 lets a dry-run's value differ)` : '';
  const observed = `${d.status}; ${showSeen(d.seen)}; the answer shows ${showLabel(d.labels, key)}${differs}${d.persisted ? '; the object was stored' : ''} (the real create stored ${key}=${JSON.stringify(value)})`;
  const passes = ok(d.status) && d.seen.includes(true) && carried && !d.persisted;
  return [
    !passes && servedPastWebhookTimeout(d) && !d.persisted
      ? inconclusive('rest:4.6.2', expected, observed + pastTimeout(d))
      : rule('rest:4.6.2', passes, expected, observed),
    rule(
      'rest:4.6.3',
      ok(d.status),
      'a mutating webhook declaring sideEffects None does not make a dry-run fail',
      `the dry-run create it matches answered ${d.status}`,
    ),
  ];
}
