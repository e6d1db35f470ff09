/**
 * The expectations file (docs/expectations.md): a target's known failures, so a nightly run fails only on
 * regressions. JSON or YAML (JSON is read by the YAML parser too, so errors carry lines either way):
 *
 *   knownFailures:
 *     - clause: rest:4.6.1
 *       observed:                 # the answer that is excused (its signature); every key stated must match
 *         class: bare-dryrun-refused   # the model's name for the kind of departure (reference/observations.ts)
 *         status: 422                  # the answer's HTTP status (a code or a list)
 *         reason: Invalid              # the Status reason (a string or a list)
 *         message: 'Unsupported value' # a regular expression on the counterexample's observed text
 *       reason: ValidateDryRun allows only "All"
 *       source: https://github.com/kubernetes/kubernetes/blob/release-1.24/...
 *       when:                     # optional: the entry holds only in runs where all of these hold
 *         scale: true             # (or `when: scale`) runs with --scale
 *         profile: k8s
 *         capability: watch-cache # the target has one, or no-watch-cache: it lacks it (--target-capability; unknown: assumed)
 *         release: '>=1.24 <1.27' # the target's release (/version or --release; unknown: assumed)
 *
 * A failure of a listed clause whose observation matches no entry's signature is a regression. An entry
 * without `observed` matches any failure of its clause (as before signatures existed): it is accepted,
 * with one warning per file, so existing files keep working while they gain signatures. A clause may be
 * listed more than once (different departures, reasons or conditions) when every one of its entries
 * has a signature.
 *
 * Parsing is strict: a typo in a key would otherwise silently un-list a failure and turn a known gap
 * into a red nightly run with no hint why.
 */
import { isMap, isScalar, isSeq, LineCounter, parseDocument } from 'yaml';
import { isObservationClass, OBSERVATION_CLASSES, type ObservationClassName } from '../reference/observations.ts';
import { didYouMean } from '../harness/case/index.ts';
import { minorOf, parseReleaseRange, releaseInRange, type ReleaseRange } from './release-range.ts';
import { firstLine, keyName, kindOf, lineOf, oneOrMany, onlyKeys, requiredString, type Fail } from './yaml-fields.ts';

export { minorOf, parseReleaseRange, releaseInRange, type ReleaseRange } from './release-range.ts';

/** Target capabilities an entry can depend on, and how a run states them (`--target-capability`). */
export const CAPABILITIES = ['watch-cache'] as const;
export type Capability = (typeof CAPABILITIES)[number];
/**
 * A `when: capability` item: the target has it, or (`no-` prefix) lacks it. Some departures exist only
 * without a capability (a store's own bug that a cache in front of it hides).
 */
export type CapabilityCondition = Capability | `no-${Capability}`;

const capabilityOf = (c: CapabilityCondition): { name: Capability; present: boolean } =>
  c.startsWith('no-') ? { name: c.slice(3) as Capability, present: false } : { name: c as Capability, present: true };

/**
 * `--target-capability watch-cache` / `no-watch-cache` (repeatable) as run facts; undefined for an
 * unknown name (the CLI makes that a usage error).
 */
export function capabilityFact(
  text: string,
  known: Readonly<Partial<Record<Capability, boolean>>> = {},
): Partial<Record<Capability, boolean>> | undefined {
  const absent = text.startsWith('no-');
  const name = absent ? text.slice(3) : text;
  if (!(CAPABILITIES as readonly string[]).includes(name)) return undefined;
  return { ...known, [name]: !absent };
}

export interface Signature {
  readonly class?: readonly ObservationClassName[];
  readonly status?: readonly number[];
  readonly reason?: readonly string[];
  /** Source of a regular expression tested on the counterexample's `observed` text. */
  readonly message?: string;
}

export interface Conditions {
  readonly scale?: boolean;
  readonly profile?: string;
  readonly capability?: readonly CapabilityCondition[];
  readonly release?: ReleaseRange;
}

export interface KnownFailure {
  readonly clause: string;
  readonly reason: string;
  readonly source?: string;
  /** The excused answer; absent: any failure of the clause. */
  readonly observed?: Signature;
  readonly when?: Conditions;
  /** `file:line` of the entry. */
  readonly at?: string;
  /**
   * Conditions the run could not check and assumed (a capability it was not told of, a release it does
   * not know): the entry still excuses its failure, but a conforming answer proves nothing about it.
   */
  readonly assumed?: readonly string[];
}

export interface Expectations {
  readonly knownFailures: readonly KnownFailure[];
  /** One line per file with unsigned entries. */
  readonly warnings?: readonly string[];
}

export const noExpectations: Expectations = { knownFailures: [] };

/** One line: `file:line: path: message`, so editors and CI logs can jump to it. */
export class ExpectationsError extends Error {
  constructor(
    readonly file: string,
    readonly line: number | undefined,
    readonly fieldPath: string,
    readonly detail: string,
  ) {
    const where = line === undefined ? file : `${file}:${line}`;
    super(`${where}: ${fieldPath === '' ? '' : `${fieldPath}: `}${detail}`);
    this.name = 'ExpectationsError';
  }
}

// `rest:4.4.6`, `node:2.2/maxPods`: the doc prefix and something after it; the catalog decides the rest.
const CLAUSE_ID = /^[a-z]+:\S+$/;
const ITEM_KEYS = ['clause', 'observed', 'reason', 'source', 'when'];
const SIGNATURE_KEYS = ['class', 'status', 'reason', 'message'];
const WHEN_KEYS = ['scale', 'profile', 'capability', 'release'];
const PROFILES = ['svc', 'k8s'];

/**
 * `clauseIds`: the catalog's ids; given, an entry naming any other clause is an error (it would never
 * match, and its known failure would turn into a regression with no hint why).
 */
export function parseExpectations(text: string, fileName: string, clauseIds?: readonly string[]): Expectations {
  const known = clauseIds === undefined ? undefined : new Set(clauseIds);
  const lineCounter = new LineCounter();
  const doc = parseDocument(text, { lineCounter, prettyErrors: false, uniqueKeys: true });
  const first = doc.errors[0];
  if (first !== undefined) {
    // prettyErrors would append a code frame; the line is all a one-line message needs.
    const line = lineCounter.linePos(first.pos[0]).line;
    throw new ExpectationsError(fileName, line, '', `not valid JSON or YAML: ${firstLine(first.message)}`);
  }
  const fail: Fail = (node, path, detail) => {
    throw new ExpectationsError(fileName, lineOf(node, lineCounter), path, detail);
  };

  const root = doc.contents;
  // An empty file lists nothing; that is a valid (if pointless) expectations file.
  if (root === null || (isScalar(root) && root.value === null)) return noExpectations;
  if (!isMap(root)) return fail(root, '(root)', `expected a mapping with key knownFailures, got ${kindOf(root)}`);
  for (const pair of root.items) {
    const key = keyName(pair.key);
    if (key !== 'knownFailures') fail(pair.key, key, 'unknown key (expected only knownFailures)');
  }

  const list = root.get('knownFailures', true);
  if (list === undefined || (isScalar(list) && list.value === null)) return noExpectations;
  if (!isSeq(list)) return fail(list, 'knownFailures', `expected a list, got ${kindOf(list)}`);

  const byClause = new Map<string, { index: number; signed: boolean; key: string }[]>();
  const unsignedLines: number[] = [];
  const knownFailures = list.items.map((item, i): KnownFailure => {
    const at = `knownFailures[${i}]`;
    if (!isMap(item)) return fail(item, at, `expected a mapping with clause and reason, got ${kindOf(item)}`);
    onlyKeys(item, at, ITEM_KEYS, fail);
    const clauseNode = item.get('clause', true);
    const clause = requiredString(clauseNode, item, `${at}.clause`, fail);
    if (!CLAUSE_ID.test(clause)) fail(clauseNode, `${at}.clause`, `not a clause id like 'rest:4.4.6': ${JSON.stringify(clause)}`);
    if (known !== undefined && !known.has(clause))
      fail(clauseNode, `${at}.clause`, `unknown clause id ${clause}${didYouMean(clause, clauseIds!)}`);
    const reason = requiredString(item.get('reason', true), item, `${at}.reason`, fail);
    const sourceNode = item.get('source', true);
    const source = sourceNode === undefined ? undefined : requiredString(sourceNode, item, `${at}.source`, fail);
    const observedNode = item.get('observed', true);
    const observed = observedNode === undefined ? undefined : parseSignature(observedNode, `${at}.observed`, fail);
    const whenNode = item.get('when', true);
    const when = whenNode === undefined ? undefined : parseConditions(whenNode, `${at}.when`, fail);
    const line = lineOf(item, lineCounter);
    if (observed === undefined) unsignedLines.push(line ?? i + 1);

    // The same clause twice: fine for different departures, each with its signature; an unsigned entry
    // excuses everything, so beside another one it is a mistake (or a duplicate).
    const key = JSON.stringify({ observed: observed ?? null, when: when ?? null });
    const earlier = byClause.get(clause) ?? [];
    const clash = earlier.find((e) => !e.signed || observed === undefined || e.key === key);
    if (clash !== undefined) {
      const why = clash.key === key ? '' : ' (a clause listed more than once needs a signature, `observed`, on every entry)';
      fail(clauseNode, `${at}.clause`, `${clause} is already listed at knownFailures[${clash.index}]${why}`);
    }
    byClause.set(clause, [...earlier, { index: i, signed: observed !== undefined, key }]);
    return {
      clause,
      reason,
      source,
      observed,
      when,
      at: line === undefined ? undefined : `${fileName}:${line}`,
    };
  });
  const warnings =
    unsignedLines.length === 0
      ? []
      : [
          `${fileName}: ${unsignedLines.length === 1 ? 'the entry' : `${unsignedLines.length} entries`} at line${unsignedLines.length === 1 ? '' : 's'} ${unsignedLines.join(', ')} ${unsignedLines.length === 1 ? 'has' : 'have'} no \`observed\` signature and match${unsignedLines.length === 1 ? 'es' : ''} any failure of the clause; add observed: {class, status, reason or message} so a different failure is a regression`,
        ];
  return warnings.length > 0 ? { knownFailures, warnings } : { knownFailures };
}

function parseSignature(node: unknown, path: string, fail: Fail): Signature {
  if (!isMap(node)) return fail(node, path, `expected a mapping with any of ${SIGNATURE_KEYS.join(', ')}, got ${kindOf(node)}`);
  onlyKeys(node, path, SIGNATURE_KEYS, fail);
  if (node.items.length === 0) return fail(node, path, `empty: name at least one of ${SIGNATURE_KEYS.join(', ')}`);
  const out: { class?: ObservationClassName[]; status?: number[]; reason?: string[]; message?: string } = {};
  const classNode = node.get('class', true);
  if (classNode !== undefined) {
    out.class = oneOrMany(classNode, `${path}.class`, fail, (n, p) => {
      const name = requiredString(n, node, p, fail);
      if (!isObservationClass(name))
        fail(n, p, `unknown observation class ${JSON.stringify(name)} (known: ${Object.keys(OBSERVATION_CLASSES).join(', ')})`);
      return name as ObservationClassName;
    });
  }
  const statusNode = node.get('status', true);
  if (statusNode !== undefined) {
    out.status = oneOrMany(statusNode, `${path}.status`, fail, (n, p) => {
      if (!isScalar(n) || typeof n.value !== 'number' || !Number.isInteger(n.value) || n.value < 100 || n.value > 599)
        fail(n, p, `expected an HTTP status code (100-599), got ${isScalar(n) ? JSON.stringify(n.value) : kindOf(n)}`);
      return (n as { value: number }).value;
    });
  }
  const reasonNode = node.get('reason', true);
  if (reasonNode !== undefined) out.reason = oneOrMany(reasonNode, `${path}.reason`, fail, (n, p) => requiredString(n, node, p, fail));
  const messageNode = node.get('message', true);
  if (messageNode !== undefined) {
    const source = requiredString(messageNode, node, `${path}.message`, fail);
    try {
      new RegExp(source);
    } catch (e) {
      fail(messageNode, `${path}.message`, `not a regular expression: ${firstLine((e as Error).message)}`);
    }
    out.message = source;
  }
  return out;
}

function parseConditions(node: unknown, path: string, fail: Fail): Conditions {
  // `when: scale`, the form of the first files, is kept.
  if (isScalar(node) && node.value === 'scale') return { scale: true };
  if (isScalar(node) && typeof node.value === 'string')
    return fail(node, path, `unknown condition ${JSON.stringify(node.value)} (write scale, or a mapping of ${WHEN_KEYS.join(', ')})`);
  if (!isMap(node)) return fail(node, path, `expected scale or a mapping of ${WHEN_KEYS.join(', ')}, got ${kindOf(node)}`);
  onlyKeys(node, path, WHEN_KEYS, fail);
  if (node.items.length === 0) return fail(node, path, `empty: name at least one of ${WHEN_KEYS.join(', ')}`);
  const out: { scale?: boolean; profile?: string; capability?: CapabilityCondition[]; release?: ReleaseRange } = {};
  const scale = node.get('scale', true);
  if (scale !== undefined) {
    if (!isScalar(scale) || typeof scale.value !== 'boolean') fail(scale, `${path}.scale`, `expected true or false, got ${kindOf(scale)}`);
    out.scale = (scale as { value: boolean }).value;
  }
  const profile = node.get('profile', true);
  if (profile !== undefined) {
    const p = requiredString(profile, node, `${path}.profile`, fail);
    if (!PROFILES.includes(p)) fail(profile, `${path}.profile`, `unknown profile ${JSON.stringify(p)} (known: ${PROFILES.join(', ')})`);
    out.profile = p;
  }
  const capability = node.get('capability', true);
  if (capability !== undefined) {
    out.capability = oneOrMany(capability, `${path}.capability`, fail, (n, p) => {
      const c = requiredString(n, node, p, fail);
      const known = CAPABILITIES.flatMap((k) => [k, `no-${k}`]);
      if (!known.includes(c)) fail(n, p, `unknown capability ${JSON.stringify(c)} (known: ${known.join(', ')})`);
      return c as CapabilityCondition;
    });
  }
  const release = node.get('release', true);
  if (release !== undefined) {
    const text =
      isScalar(release) && typeof release.value === 'number'
        ? String(release.value)
        : requiredString(release, node, `${path}.release`, fail);
    const range = parseReleaseRange(text);
    if (range === undefined) fail(release, `${path}.release`, `not a release range like '>=1.24 <1.27' or '1.24': ${JSON.stringify(text)}`);
    out.release = range!;
  }
  return out;
}

/**
 * Several files as one (`--expectations a.yaml --expectations b.yaml`): every entry of every file, in
 * file order. An observation is excused when any entry that holds in the run matches it, so an entry
 * listed without a condition in one file holds in every run, as before.
 */
export function mergeExpectations(all: readonly Expectations[]): Expectations {
  const knownFailures = all.flatMap((e) => e.knownFailures);
  const warnings = all.flatMap((e) => e.warnings ?? []);
  return warnings.length > 0 ? { knownFailures, warnings } : { knownFailures };
}

/** What a run knows of itself and its target, for `when:`. */
export interface RunFacts {
  readonly scale: boolean;
  readonly profile?: string;
  /** Capabilities the run was told of: true present, false absent; missing: unknown. */
  readonly capabilities?: Readonly<Partial<Record<Capability, boolean>>>;
  /** `v1.24.2` or `1.24`; undefined when the run does not know it. */
  readonly release?: string;
}

/**
 * The expectations that hold for a run: an entry whose condition the run does not meet is left out, so
 * it neither excuses a failure nor is reported at all. A condition the run cannot check (a capability
 * it was not told of, an unknown release) is assumed to hold and named in `assumed`: the entry then
 * excuses its failure, but a conforming answer is not reported as the departure being gone.
 */
export function expectationsForRun(e: Expectations, run: RunFacts): Expectations {
  const knownFailures = e.knownFailures.flatMap((k): KnownFailure[] => {
    const w = k.when;
    if (w === undefined) return [k];
    if (w.scale !== undefined && w.scale !== run.scale) return [];
    if (w.profile !== undefined && run.profile !== undefined && w.profile !== run.profile) return [];
    const assumed: string[] = [];
    for (const c of w.capability ?? []) {
      const { name, present } = capabilityOf(c);
      const has = run.capabilities?.[name];
      if (has === !present) return [];
      if (has === undefined)
        assumed.push(`the target has ${present ? 'a' : 'no'} ${name.replace(/-/g, ' ')} (--target-capability ${name} or no-${name})`);
    }
    if (w.release !== undefined) {
      const minor = run.release === undefined ? undefined : minorOf(run.release);
      if (minor === undefined) assumed.push(`the target's release is ${w.release.text} (--release)`);
      else if (!releaseInRange(w.release, minor)) return [];
    }
    return [assumed.length > 0 ? { ...k, assumed } : k];
  });
  return { ...e, knownFailures };
}

/** Ids listed as known failures that the catalog does not know: likely typos, worth a warning. */
export function unknownExpectationIds(expectations: Expectations, knownIds: ReadonlySet<string>): string[] {
  return [...new Set(expectations.knownFailures.map((k) => k.clause))].filter((id) => !knownIds.has(id));
}

/** `class limit-ignored, status 200`: a signature for a person. */
export function showSignature(s: Signature | undefined): string {
  if (s === undefined) return 'any failure of the clause';
  const parts: string[] = [];
  if (s.class) parts.push(`class ${s.class.join(' or ')}`);
  if (s.status) parts.push(`status ${s.status.join(' or ')}`);
  if (s.reason) parts.push(`reason ${s.reason.join(' or ')}`);
  if (s.message !== undefined) parts.push(`message /${s.message}/`);
  return parts.join(', ');
}

/** What a signature is matched against: a counterexample's tags and text. */
export interface Observation {
  readonly class?: string;
  readonly observedStatus?: number;
  readonly observedReason?: string;
  readonly observed: string;
}

/** Why the observation is not the signature's (undefined: it matches). */
export function signatureMismatch(s: Signature | undefined, o: Observation): string | undefined {
  if (s === undefined) return undefined;
  const why: string[] = [];
  if (s.class && (o.class === undefined || !(s.class as readonly string[]).includes(o.class)))
    why.push(`class ${o.class ?? '(none named by the check)'}`);
  if (s.status && (o.observedStatus === undefined || !s.status.includes(o.observedStatus)))
    why.push(`status ${o.observedStatus ?? '(not recorded by the check)'}`);
  if (s.reason && (o.observedReason === undefined || !s.reason.includes(o.observedReason)))
    why.push(`reason ${o.observedReason ?? '(none)'}`);
  if (s.message !== undefined && !new RegExp(s.message).test(o.observed)) why.push(`message not matching /${s.message}/`);
  return why.length === 0 ? undefined : why.join(', ');
}

/** `class limit-ignored, status 200: page 1 has 7 items`: an observation for a person. */
export function showObservation(o: Observation): string {
  const tags = [
    o.class !== undefined ? `class ${o.class}` : undefined,
    o.observedStatus !== undefined ? `status ${o.observedStatus}` : undefined,
    o.observedReason !== undefined ? `reason ${o.observedReason}` : undefined,
  ].filter(Boolean);
  const text = o.observed.length > 240 ? `${o.observed.slice(0, 240)}...` : o.observed;
  return tags.length > 0 ? `${tags.join(', ')}: ${text}` : text;
}
