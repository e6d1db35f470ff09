/**
 * One lockstep case classified step by step: `same`, `differs-both-conformant` (an open
 * choice taken differently), `target-violates`, `reference-violates`, `both-violate-alike` (the same
 * clause), `both-violate-differently`, or `error` (either side's infrastructure or our bug: never a
 * verdict). Verdicts come from each side's own model judgement; this file only sets them side by side.
 * Pure.
 */
import { align, compareAnswers, compareRequests, ValueMap, type DiffKind, type Difference, type Recorded } from './lockstep-diff.ts';
import type { CaseRecord, Failure, Notes, SideOutcome } from './lockstep.ts';

export const STEP_CLASSES = [
  'same',
  'differs-both-conformant',
  'target-violates',
  'reference-violates',
  'both-violate-alike',
  'both-violate-differently',
  'error',
] as const;
export type StepClass = (typeof STEP_CLASSES)[number];

export interface AnswerView {
  readonly status?: number;
  readonly body?: unknown;
  readonly transportError?: string;
  readonly ending?: 'server' | 'client';
}

export interface StepResult {
  readonly check: string;
  readonly path: string;
  readonly seed: number;
  /** Index of the request in the target's sequence (the reference's when the target sent none); -1: the case as a whole. */
  readonly step: number;
  readonly class: StepClass;
  readonly kinds: readonly DiffKind[];
  readonly clauses: readonly string[];
  readonly request: string;
  readonly differences: readonly Difference[];
  readonly target?: AnswerView;
  readonly reference?: AnswerView;
  readonly failures?: { readonly target?: readonly Failure[]; readonly reference?: readonly Failure[] };
  readonly note?: string;
  /** The case's readable operations. */
  readonly steps: readonly string[];
}

export interface CaseClassification {
  readonly results: readonly StepResult[];
  /** Steps after one side's case stopped (a violation or error there): not compared. */
  readonly notCompared: number;
}

const MAX_DIFFERENCES = 24;
const MAX_BODY_CHARS = 6000;

/** `translate` rewrites the reference's identifiers into the target's profile (and run id). */
export function classifyCase(c: CaseRecord, translate: (v: unknown) => unknown): CaseClassification {
  const a = c.sides[0].records;
  const b = c.sides[1].records.map((r) => translateRecord(r, translate));
  const oa = c.sides[0].outcome;
  const ob = c.sides[1].outcome;
  const stopA = oa.kind === 'conformed' ? Infinity : oa.atStep;
  const stopB = ob.kind === 'conformed' ? Infinity : ob.atStep;
  const map = new ValueMap();
  const results: StepResult[] = [];
  const base = { check: c.check, path: c.path, seed: c.seed, steps: c.steps };
  let notCompared = 0;
  const pairs = align(a, b);
  let stopPair: [number, number] | undefined;
  for (const [i, j] of pairs) {
    if ((i >= 0 && i >= stopA) || (j >= 0 && j >= stopB)) {
      if ((i >= 0 && i === stopA) || (j >= 0 && j === stopB)) stopPair ??= [i, j];
      else notCompared++;
      continue;
    }
    if (i < 0 || j < 0) {
      results.push(i >= 0 ? sentToOneSide(base, i, a[i]!, 'target') : sentToOneSide(base, j, b[j]!, 'reference'));
      continue;
    }
    const diffs = [...compareRequests(a[i]!.request, b[j]!.request, map), ...compareAnswers(a[i]!, b[j]!, map)];
    if (diffs.length === 0)
      results.push({ ...base, step: i, class: 'same', kinds: [], clauses: [], request: requestLine(a[i]!), differences: [] });
    else
      results.push({
        ...base,
        step: i,
        class: 'differs-both-conformant',
        kinds: kindsOf(diffs),
        clauses: [],
        request: requestLine(a[i]!),
        differences: diffs.slice(0, MAX_DIFFERENCES),
        target: view(a[i]!),
        reference: view(b[j]!),
      });
  }
  const verdict = verdictEntry(oa, ob);
  if (verdict !== undefined) {
    const at: [number, number] = stopPair ?? [stopA === Infinity ? -1 : stopA, stopB === Infinity ? -1 : stopB];
    results.push(verdictStep(verdict, at, { a, b, oa, ob }, results, map, base));
  } else {
    results.push(
      ...openChoices(oa.notes, ob.notes, map, translate).map((d) => ({
        ...base,
        step: -1,
        class: 'differs-both-conformant' as const,
        kinds: [d.kind],
        clauses: [d.path],
        request: '(the case as a whole)',
        differences: [d],
      })),
    );
  }
  return { results, notCompared };
}

/**
 * The step where a side's verdict came (`at`: its index on each side, -1 where none), with the case's
 * earlier differing steps taken out of `results` and folded in as that verdict's evidence.
 */
function verdictStep(
  verdict: NonNullable<ReturnType<typeof verdictEntry>>,
  at: [number, number],
  sides: { readonly a: readonly Recorded[]; readonly b: readonly Recorded[]; readonly oa: SideOutcome; readonly ob: SideOutcome },
  results: StepResult[],
  map: ValueMap,
  base: Pick<StepResult, 'check' | 'path' | 'seed' | 'steps'>,
): StepResult {
  const { a, b, oa, ob } = sides;
  const [i, j] = at;
  const ra = i >= 0 ? a[i] : undefined;
  const rb = j >= 0 ? b[j] : undefined;
  // A judge often speaks after the answers it judged (a paged list, a watch): the case's earlier
  // differing steps are that violation's evidence, not open choices, and go with it.
  const earlier = verdict.class === 'error' ? [] : results.filter((r) => r.class !== 'same');
  for (const e of earlier) results.splice(results.indexOf(e), 1);
  const diffs = [
    ...earlier.flatMap((e) => e.differences.map((d) => ({ ...d, path: `step ${e.step}: ${d.path}` }))),
    ...(ra && rb ? [...compareRequests(ra.request, rb.request, map), ...compareAnswers(ra, rb, map)] : []),
  ];
  return {
    ...base,
    step: i >= 0 ? i : j,
    class: verdict.class,
    kinds: kindsOf(diffs),
    clauses: verdict.clauses,
    request: ra ? requestLine(ra) : rb ? requestLine(rb) : '(no request)',
    differences: diffs.slice(0, MAX_DIFFERENCES),
    target: ra ? view(ra) : undefined,
    reference: rb ? view(rb) : undefined,
    failures: { target: oa.kind === 'violated' ? oa.failures : undefined, reference: ob.kind === 'violated' ? ob.failures : undefined },
    note: verdict.note,
  };
}

/** A step only one side was sent (the suite followed that side's answers): an open choice, not a violation. */
function sentToOneSide(
  base: Pick<StepResult, 'check' | 'path' | 'seed' | 'steps'>,
  step: number,
  only: Recorded,
  side: 'target' | 'reference',
): StepResult {
  return {
    ...base,
    step,
    class: 'differs-both-conformant',
    kinds: ['sequence'],
    clauses: [],
    request: requestLine(only),
    differences: [{ path: 'request', kind: 'sequence', [side]: requestLine(only) }],
    [side]: view(only),
    note: `only the ${side} was sent this request (the suite followed its answers)`,
  };
}

function verdictEntry(oa: SideOutcome, ob: SideOutcome): { class: StepClass; clauses: string[]; note?: string } | undefined {
  if (oa.kind === 'error' || ob.kind === 'error') {
    const note = [oa.kind === 'error' ? `target: ${oa.message}` : '', ob.kind === 'error' ? `reference: ${ob.message}` : '']
      .filter(Boolean)
      .join('; ');
    return { class: 'error', clauses: [], note };
  }
  const ca = oa.kind === 'violated' ? uniq(oa.failures.map((f) => f.clause)) : [];
  const cb = ob.kind === 'violated' ? uniq(ob.failures.map((f) => f.clause)) : [];
  if (ca.length > 0 && cb.length === 0) return { class: 'target-violates', clauses: ca };
  if (cb.length > 0 && ca.length === 0) return { class: 'reference-violates', clauses: cb };
  if (ca.length > 0 && cb.length > 0) {
    const shared = ca.filter((x) => cb.includes(x));
    return shared.length > 0
      ? { class: 'both-violate-alike', clauses: shared }
      : { class: 'both-violate-differently', clauses: uniq([...ca, ...cb]), note: `target: ${ca.join(', ')}; reference: ${cb.join(', ')}` };
  }
  return undefined;
}

/** Where both conformed: the open choices (unspecified) and unbounded waits (inconclusive) they took differently. */
function openChoices(na: Notes, nb: Notes, map: ValueMap, translate: (v: unknown) => unknown): Difference[] {
  const out: Difference[] = [];
  const tr = (s: string): string => map.mapText(String(translate(s)));
  for (const [field, kind] of [
    ['unspecified', 'open-choice'],
    ['inconclusive', 'timing'],
  ] as const) {
    const clauses = uniq([...Object.keys(na[field]), ...Object.keys(nb[field])]);
    for (const clause of clauses) {
      const xa = [...(na[field][clause] ?? [])].sort();
      const xb = (nb[field][clause] ?? []).map(tr).sort();
      if (xa.join('\n') !== xb.join('\n'))
        out.push({
          path: clause,
          kind: kind as DiffKind,
          target: xa.length
            ? xa
            : `(${field === 'unspecified' ? 'no open choice met' : 'nothing inconclusive'}${na.passed.includes(clause) ? '; passed' : ''})`,
          reference: xb.length
            ? xb
            : `(${field === 'unspecified' ? 'no open choice met' : 'nothing inconclusive'}${nb.passed.includes(clause) ? '; passed' : ''})`,
        });
    }
  }
  return out;
}

const uniq = <T>(xs: readonly T[]): T[] => [...new Set(xs)];
const kindsOf = (ds: readonly Difference[]): DiffKind[] => uniq(ds.map((d) => d.kind));

function translateRecord(r: Recorded, t: (v: unknown) => unknown): Recorded {
  // The translator passes undefined through: an absent query, body or answer part stays absent.
  return {
    request: {
      method: r.request.method,
      path: t(r.request.path) as string,
      query: t(r.request.query) as [string, string | null][] | undefined,
      body: t(r.request.body),
    },
    answer: r.answer && { ...r.answer, json: t(r.answer.json), bodyText: t(r.answer.bodyText) as string | undefined },
    transportError: r.transportError,
  };
}

export function requestLine(r: Recorded): string {
  const q = (r.request.query ?? []).map(([k, v]) => (v === null ? k : `${k}=${v}`)).join('&');
  return `${r.request.method} ${r.request.path}${q ? `?${q}` : ''}`;
}

function view(r: Recorded): AnswerView {
  if (r.transportError !== undefined) return { transportError: r.transportError };
  const x = r.answer;
  if (x === undefined) return {};
  const body = x.json !== undefined ? x.json : x.bodyText;
  const text = JSON.stringify(body) ?? '';
  return {
    status: x.status,
    body: text.length > MAX_BODY_CHARS ? `${text.slice(0, MAX_BODY_CHARS)}… (${text.length} characters)` : body,
    ending: x.ending,
  };
}
