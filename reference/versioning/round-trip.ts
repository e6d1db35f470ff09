/**
 * rest:9.3 rule 2: "Objects must round-trip between versions of a release without loss". An object
 * written through one served version of a resource, read through another, written back through that
 * other version and read again through the first, still holds every field it was given: the spec as
 * sent, the labels as sent plus the one the second write added.
 *
 *   judgeRoundTrip(sent, [{ step: 'read through policy/v1beta1', status: 200, json: {spec without maxUnavailable} }])
 *     -> fail rest:9.3/rule-2 'spec.maxUnavailable: sent "30%", read (absent)'
 */
import { inconclusive, pass, rule, type Judgement } from '../judgement.ts';

const isRecord = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

/** What the suite wrote and expects back on every read: the spec, and the labels of that moment. */
export interface RoundTripExpectation {
  readonly spec: Readonly<Record<string, unknown>>;
  readonly labels: Readonly<Record<string, string>>;
}

export interface RoundTripRead {
  /** `read through policy/v1beta1 after the create through policy/v1`. */
  readonly step: string;
  readonly status: number;
  readonly json: unknown;
  readonly expect: RoundTripExpectation;
  /** The apiVersion the read was made through: the answer must speak it (only apiVersion changes). */
  readonly apiVersion: string;
}

/** Leaves of `want` missing or different in `got` (fields `got` adds, defaults a version fills, are not loss). */
export function lostFields(want: unknown, got: unknown, path = ''): string[] {
  if (isRecord(want)) {
    if (!isRecord(got)) return [`${path || '.'}: sent an object, read ${JSON.stringify(got) ?? '(absent)'}`];
    return Object.entries(want).flatMap(([k, v]) => lostFields(v, got[k], `${path}.${k}`));
  }
  if (Array.isArray(want)) {
    if (!Array.isArray(got) || got.length !== want.length)
      return [`${path}: sent ${JSON.stringify(want)}, read ${JSON.stringify(got) ?? '(absent)'}`];
    return want.flatMap((v, i) => lostFields(v, got[i], `${path}[${i}]`));
  }
  return JSON.stringify(want) === JSON.stringify(got)
    ? []
    : [`${path}: sent ${JSON.stringify(want)}, read ${JSON.stringify(got) ?? '(absent)'}`];
}

export function judgeRoundTrip(reads: readonly RoundTripRead[]): Judgement[] {
  return reads.map((r) => {
    if (r.status !== 200) return rule('rest:9.3/rule-2', false, `${r.step}: 200 with the object`, `status ${r.status}`);
    const o = isRecord(r.json) ? r.json : {};
    const md = isRecord(o['metadata']) ? o['metadata'] : {};
    const lost = [
      ...lostFields(r.expect.spec, o['spec'], 'spec'),
      ...lostFields(r.expect.labels, md['labels'], 'metadata.labels'),
      ...(o['apiVersion'] === r.apiVersion ? [] : [`apiVersion: asked through ${r.apiVersion}, read ${JSON.stringify(o['apiVersion'])}`]),
    ];
    const expected = `${r.step}: every field written is read back (spec ${JSON.stringify(r.expect.spec)}, labels ${JSON.stringify(r.expect.labels)})`;
    return lost.length === 0 ? pass('rest:9.3/rule-2', expected) : rule('rest:9.3/rule-2', false, expected, lost.join('; '));
  });
}

export interface WriteAttempt {
  readonly status: number;
  readonly bodyText: string;
  /** The Status reason of the answer, if it carried one. */
  readonly reason?: string | undefined;
}

/** An optimistic-lock refusal: 409, or the reason Conflict under another status (rest:7.5 leaves the code open). */
export const isWriteConflict = (a: WriteAttempt): boolean => a.status === 409 || a.reason === 'Conflict';

/** The most writes back a case tries while another writer (a controller updating status) moves the object. */
export const ROUND_TRIP_WRITE_ATTEMPTS = 4;

/**
 * The write back through the other version, each attempt a fresh read then a PUT of it: the object read
 * through a version is accepted as it is (2xx). A 409 is the optimistic lock doing its job when some
 * other writer changed the object between read and write (upstream's disruption controller writes a
 * PodDisruptionBudget's status): the case reads again; if every attempt met one, the case decides
 * nothing (inconclusive), never a failure.
 *
 *   judgeRoundTripWrite('policy/v1', [{ status: 409, ... }, { status: 200, ... }]) -> pass
 *   judgeRoundTripWrite('policy/v1', [{ status: 422 }])                  -> fail
 */
export function judgeRoundTripWrite(version: string, attempts: readonly WriteAttempt[]): Judgement {
  const what = `the object read through ${version} is written back through ${version} (2xx)`;
  const last = attempts[attempts.length - 1];
  if (last === undefined) return inconclusive('rest:9.3/rule-2', what, 'no write was sent');
  if (attempts.every(isWriteConflict)) {
    return inconclusive(
      'rest:9.3/rule-2',
      what,
      `${attempts.length} writes, each refused 409 because the object changed between read and write (another writer): nothing decided`,
    );
  }
  return rule(
    'rest:9.3/rule-2',
    last.status >= 200 && last.status < 300,
    what,
    `status ${last.status}${attempts.length > 1 ? ` (attempt ${attempts.length}, after ${attempts.length - 1} conflict(s) with another writer)` : ''}: ${last.bodyText.slice(0, 200)}`,
  );
}
