/**
 * The answer the model needed, as data: a judge that fails attaches the
 * tests a later answer to the same requests must meet for the failure to be gone. The same tests
 * are evaluated here (on the recorded answers, for the report's diff) and inside every standalone
 * reproducer (on the answers the script gets), from one JavaScript source, so the script's exit
 * status and the report can never disagree about what "fixed" means.
 *
 *   needs: [{ says: 'page 1 holds at most 1 item', test: { kind: 'length', at: { page: 0 }, path: ['items'], atMost: 1 } }]
 *   evaluateNeeds(resolved, answers) -> [{ says, ok: false, observed: '2 items' }]
 *
 * A need is attached only where its tests are the whole of the judge's rule for that observation:
 * meeting them means the judge would have passed it. Where a rule rests on the model's history (which
 * snapshot a list may show, say), no need is attached and the script says it cannot decide.
 */

/**
 * Which answer of the case: `judged` the one the judgement was made on (the latest one sent),
 * `page` the k-th page (0-based) of the paged list judged, `request` an index into the
 * counterexample's requests (what the harness resolves the others to), `carrying` the latest answer
 * before the judged one whose metadata.resourceVersion is this (learned) value.
 */
export type AnswerAt = 'judged' | { readonly page: number } | { readonly request: number } | { readonly carrying: string };
export type FieldPath = readonly (string | number)[];

export type AnswerTest =
  | { readonly kind: 'status'; readonly at: AnswerAt; readonly oneOf: readonly number[] }
  /** 2 for 2xx, 4 for 4xx. */
  | { readonly kind: 'statusClass'; readonly at: AnswerAt; readonly cls: number }
  /** The array at `path` (items, events...) has at most / exactly so many entries. */
  | { readonly kind: 'length'; readonly at: AnswerAt; readonly path: FieldPath; readonly atMost?: number; readonly equals?: number }
  /**
   * The value at `path` equals `equals` (JSON equality); `absent`: missing, null, or '' (an empty token);
   * `present`: none of those (a value the server must generate, whatever it is).
   */
  | {
      readonly kind: 'value';
      readonly at: AnswerAt;
      readonly path: FieldPath;
      readonly equals?: unknown;
      readonly absent?: true;
      readonly present?: true;
    }
  /**
   * The number at `path` is the sum of the lengths of the arrays at `of` (remainingItemCount and the
   * items of the later pages): a relation between answers of this run, never a count frozen from the
   * recorded ones.
   */
  | {
      readonly kind: 'countOf';
      readonly at: AnswerAt;
      readonly path: FieldPath;
      readonly of: readonly { readonly at: AnswerAt; readonly path: FieldPath }[];
    }
  /** The value at `path` is the same as the value at `other.path` of `other.at` (a learned, opaque value). */
  | {
      readonly kind: 'same';
      readonly at: AnswerAt;
      readonly path: FieldPath;
      readonly other: { readonly at: AnswerAt; readonly path: FieldPath };
    }
  /** The array at `path` holds an entry whose value at `where` equals `equals` (discovery listing a resource by name). */
  | { readonly kind: 'includes'; readonly at: AnswerAt; readonly path: FieldPath; readonly where: FieldPath; readonly equals: unknown }
  /** A Content-Type whose type/subtype one of the ranges allows (`*` wildcards); parameters ignored. */
  | { readonly kind: 'contentType'; readonly at: AnswerAt; readonly ranges: readonly string[] }
  /** A watch stream's events, BOOKMARKs left out: `start` in any order, then `then` in this order (type `*`: any); nothing else. */
  | { readonly kind: 'events'; readonly at: AnswerAt; readonly start: readonly EventSeen[]; readonly then: readonly EventSeen[] }
  /**
   * A process's answer (a node-agent loader, the controller daemon): `status` is its exit status, or
   * -1 while it runs and serves. `nonZero`: it must exit with a status other than 0 (a refusal);
   * otherwise it must exit 0 (a loader accepting a file).
   */
  | { readonly kind: 'exit'; readonly at: AnswerAt; readonly nonZero: boolean }
  /** A daemon process must start and serve (its /healthz answers) rather than exit: status -1. */
  | { readonly kind: 'serves'; readonly at: AnswerAt }
  | { readonly kind: 'anyOf'; readonly tests: readonly AnswerTest[] }
  | { readonly kind: 'allOf'; readonly tests: readonly AnswerTest[] };

export interface EventSeen {
  readonly type: string;
  readonly name: string;
}

export interface AnswerNeed {
  /** One line: what the answer must do ("page 1 holds at most 1 item"). */
  readonly says: string;
  readonly test: AnswerTest;
}

/** A need evaluated against answers: `observed` says what the answer did, in the test's terms. */
export interface NeedResult {
  readonly says: string;
  readonly ok: boolean;
  /** This run's answers cannot settle the need (they went on past what the failing case read). */
  readonly undecided?: true;
  readonly observed: string;
}

/** What an evaluator reads of one answer: status, headers (names lower-cased), body (parsed JSON, events for a watch, or text). */
export interface AnswerData {
  readonly status: number;
  readonly headers: Readonly<Record<string, string>>;
  readonly body: unknown;
  /** A watch stream's documents, in order. */
  readonly events?: readonly unknown[];
}

/** Rewrites every `at` of a test (the harness resolves `judged` and pages to request indexes). */
export function mapAt(t: AnswerTest, f: (at: AnswerAt) => AnswerAt): AnswerTest {
  if (t.kind === 'anyOf' || t.kind === 'allOf') return { ...t, tests: t.tests.map((x) => mapAt(x, f)) };
  if (t.kind === 'same') return { ...t, at: f(t.at), other: { ...t.other, at: f(t.other.at) } };
  if (t.kind === 'countOf') return { ...t, at: f(t.at), of: t.of.map((o) => ({ ...o, at: f(o.at) })) };
  return { ...t, at: f(t.at) };
}

/** Request indexes a test reads (after resolution). */
export function requestsOf(t: AnswerTest): number[] {
  if (t.kind === 'anyOf' || t.kind === 'allOf') return t.tests.flatMap(requestsOf);
  const ats = t.kind === 'same' ? [t.at, t.other.at] : t.kind === 'countOf' ? [t.at, ...t.of.map((o) => o.at)] : [t.at];
  return ats.flatMap((a) => (typeof a === 'object' && 'request' in a ? [a.request] : []));
}

/**
 * The evaluator, as plain JavaScript (no imports, no TypeScript): embedded verbatim in every
 * reproducer, and compiled here by `evaluateNeeds`. `evaluate(needs, answer)` where `answer(i)`
 * returns AnswerData or undefined (not sent); returns NeedResult[].
 */
export const EVALUATOR_JS = String.raw`function evaluate(needs, answer) {
  const get = (v, p) => p.reduce((o, k) => (o === undefined || o === null ? undefined : o[k]), v);
  const show = (v) => (v === undefined ? 'absent' : JSON.stringify(v));
  const same = (a, b) => JSON.stringify(a) === JSON.stringify(b);
  const at = (a) => (a && typeof a.request === 'number' ? answer(a.request) : undefined);
  const ev = (t) => {
    if (t.kind === 'anyOf' || t.kind === 'allOf') {
      const rs = t.tests.map(ev);
      const ok = t.kind === 'anyOf' ? rs.some((r) => r.ok) : rs.every((r) => r.ok);
      // Undecided where the decided parts do not settle it: anyOf with no part met, allOf with no part failed.
      const undecided = !ok && rs.some((r) => r.undecided) && (t.kind === 'anyOf' || rs.every((r) => r.ok || r.undecided));
      return { ok, ...(undecided ? { undecided: true } : {}), observed: [...new Set(rs.map((r) => r.observed))].join('; ') };
    }
    const a = at(t.at);
    if (a === undefined) return { ok: false, observed: 'no answer (request ' + JSON.stringify(t.at) + ' not sent)' };
    const doc = a.body;
    switch (t.kind) {
      case 'status': return { ok: t.oneOf.includes(a.status), observed: 'status ' + a.status };
      case 'statusClass': return { ok: Math.floor(a.status / 100) === t.cls, observed: 'status ' + a.status };
      case 'length': {
        const v = get(doc, t.path);
        if (!Array.isArray(v)) return { ok: false, observed: t.path.join('.') + ' ' + show(v) + ' (status ' + a.status + ')' };
        const ok = (t.atMost === undefined || v.length <= t.atMost) && (t.equals === undefined || v.length === t.equals);
        return { ok, observed: v.length + ' ' + (t.path[t.path.length - 1] === 'items' ? 'item(s)' : 'entries') };
      }
      case 'value': {
        const v = get(doc, t.path);
        if (t.absent) return { ok: v === undefined || v === null || v === '', observed: t.path.join('.') + ' ' + show(v) };
        if (t.present) return { ok: v !== undefined && v !== null && v !== '', observed: t.path.join('.') + ' ' + show(v) + ' (status ' + a.status + ')' };
        return { ok: same(v, t.equals), observed: t.path.join('.') + ' ' + show(v) };
      }
      case 'same': {
        const v = get(doc, t.path);
        const o = at(t.other.at);
        const w = o === undefined ? undefined : get(o.body, t.other.path);
        return { ok: v !== undefined && same(v, w), observed: t.path.join('.') + ' ' + show(v) + ' against ' + show(w) };
      }
      case 'countOf': {
        const v = get(doc, t.path);
        const lengths = t.of.map((o) => { const x = at(o.at); const arr = x === undefined ? undefined : get(x.body, o.path); return Array.isArray(arr) ? arr.length : undefined; });
        if (lengths.some((n) => n === undefined)) return { ok: false, observed: t.path.join('.') + ' ' + show(v) + ', and a later answer without its list' };
        // The chain goes on past the pages the failing case read (more items here): the later pages are not all in hand.
        const lastOf = t.of.length > 0 ? at(t.of[t.of.length - 1].at) : undefined;
        const more = get(lastOf && lastOf.body, ['metadata', 'continue']);
        if (typeof more === 'string' && more !== '') return { ok: false, undecided: true, observed: 'the pages go on past the ' + t.of.length + ' later page(s) the failing case read' };
        const sum = lengths.reduce((n, m) => n + m, 0);
        return { ok: v === sum, observed: t.path.join('.') + ' ' + show(v) + ' against ' + sum + ' item(s) on the later pages' };
      }
      case 'includes': {
        const v = get(doc, t.path);
        if (!Array.isArray(v)) return { ok: false, observed: t.path.join('.') + ' ' + show(v) + ' (status ' + a.status + ')' };
        const ok = v.some((x) => same(get(x, t.where), t.equals));
        return { ok, observed: t.path.join('.') + (ok ? ' has ' : ' has no entry with ' + t.where.join('.') + ' ') + show(t.equals) };
      }
      case 'contentType': {
        const ct = String(a.headers['content-type'] || '').split(';')[0].trim().toLowerCase();
        const fits = (r) => { const [t1, s1] = r.toLowerCase().split(';')[0].trim().split('/'); const [t2, s2] = ct.split('/'); return (t1 === '*' || t1 === t2) && (s1 === '*' || s1 === s2); };
        return { ok: a.status >= 200 && a.status < 300 && ct !== '' && t.ranges.some(fits), observed: 'status ' + a.status + ', Content-Type ' + (ct || 'none') };
      }
      case 'events': {
        // The suite's marker write (zz-marker-*, made behind a case's writes to end its wait) is no part of the case.
        // Objects without the suite's run label (a controller's, such as a namespace's CA bundle) are no part of the case, as for the model.
        const ours = (e) => get(e, ['object', 'metadata', 'labels', 'svc-conformance/run']) !== undefined;
        const seen = (a.events || []).filter((e) => e && e.type !== 'BOOKMARK' && ours(e) && !String(get(e, ['object', 'metadata', 'name']) || '').startsWith('zz-marker-')).map((e) => ({ type: e.type, name: get(e, ['object', 'metadata', 'name']), terminating: !!get(e, ['object', 'metadata', 'deletionTimestamp']) }));
        const key = (e) => e.type + ' ' + e.name;
        const head = seen.slice(0, t.start.length).map(key).sort();
        const rest = seen.slice(t.start.length);
        // A '*' type: any type (a deletion's is not shown by the spec). A MODIFIED of a Terminating object
        // just before its removal may be a version the failing case's reads never saw (rest:3.1 lets a
        // server store the emptied finalizer list before removing): legal then, a duplicate otherwise.
        // This script cannot tell which, so a stream that fits only by passing over one is undecided.
        let i = 0, passedOver = 0, fits = true;
        for (let k = 0; k < rest.length && fits; k++) {
          const e = rest[k], x = t.then[i], next = rest[k + 1];
          if (x && x.type === '*' && x.name === e.name && e.type === 'MODIFIED' && e.terminating && next && next.name === e.name) passedOver++;
          else if (x && x.name === e.name && (x.type === '*' || x.type === e.type)) i++;
          else fits = false;
        }
        fits = fits && i === t.then.length;
        const ok = same(head, t.start.map(key).sort()) && fits;
        const observed = seen.length === 0 ? 'no events' : seen.map(key).join(', ');
        if (ok && passedOver > 0) return { ok: false, undecided: true, observed: observed + ' (a Terminating version before a removal the failing case expected: legal only if its reads never saw that version)' };
        return { ok, observed };
      }
      case 'exit': return { ok: a.status !== -1 && (t.nonZero ? a.status !== 0 : a.status === 0), observed: a.status === -1 ? 'kept running' : 'exit ' + a.status };
      case 'serves': return { ok: a.status === -1, observed: a.status === -1 ? 'serves' : 'exit ' + a.status };
      default: return { ok: false, observed: 'unknown test ' + t.kind };
    }
  };
  return needs.map((n) => { const r = ev(n.test); return { says: n.says, ok: r.ok, ...(r.undecided ? { undecided: true } : {}), observed: r.observed }; });
}`;

type Evaluate = (needs: readonly AnswerNeed[], answer: (i: number) => AnswerData | undefined) => NeedResult[];
let compiled: Evaluate | undefined;

/** The needs judged against answers (pure: the evaluator reads only its arguments). */
export function evaluateNeeds(needs: readonly AnswerNeed[], answer: (i: number) => AnswerData | undefined): NeedResult[] {
  compiled ??= new Function(`return (${EVALUATOR_JS});`)() as Evaluate;
  return compiled(needs, answer);
}

// Builders the judges use, so a need reads like its rule.
export const needStatus = (says: string, oneOf: readonly number[], at: AnswerAt = 'judged'): AnswerNeed => ({
  says,
  test: { kind: 'status', at, oneOf },
});
/** A process must refuse (exit non-zero) or accept (exit 0): the loader's verdict, a daemon's refusal. */
export const needExit = (says: string, nonZero: boolean): AnswerNeed => ({ says, test: { kind: 'exit', at: 'judged', nonZero } });
/** A daemon must start and serve rather than exit. */
export const needServes = (says: string): AnswerNeed => ({ says, test: { kind: 'serves', at: 'judged' } });
export const needStatusClass = (says: string, cls: number, at: AnswerAt = 'judged'): AnswerNeed => ({
  says,
  test: { kind: 'statusClass', at, cls },
});
