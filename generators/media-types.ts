/**
 * Accept lists for the negotiation suite: media ranges the spec names (JSON, Table, protobuf,
 * wildcards) mixed with types it never names, with and without quality values. Each range carries
 * the representations it allows, so model tests can state the expected set independently.
 */
import fc from 'fast-check';
import type { Profile } from '../reference/profile.ts';
import { tableMediaType } from '../reference/media-types.ts';

export type SpecRepresentation = 'json' | 'protobuf' | 'table';

export interface GeneratedRange {
  readonly text: string;
  readonly allows: readonly SpecRepresentation[];
}

function basePool(profile: Profile): GeneratedRange[] {
  return [
    { text: 'application/json', allows: ['json'] },
    { text: tableMediaType(profile), allows: ['table'] },
    { text: `application/json; as=Table; v=v1; g=${profile.metaGroup}`, allows: ['table'] },
    { text: profile.protobufMediaType, allows: ['protobuf'] },
    { text: '*/*', allows: ['json', 'protobuf'] },
    { text: 'application/*', allows: ['json', 'protobuf'] },
    { text: 'application/xml', allows: [] },
    { text: 'text/html', allows: [] },
    { text: 'application/yaml', allows: [] },
    { text: 'application/json;as=Unknown', allows: [] },
    { text: `application/json;as=Table;g=${profile.metaGroup};v=v0`, allows: [] },
  ];
}

/** The range of the pool with this text (for fixed cases); an unknown text is a bug of the caller. */
export function namedRange(profile: Profile, text: string): GeneratedRange {
  const r = basePool(profile).find((x) => x.text === text);
  if (r === undefined) throw new Error(`no media range ${text} in the pool`);
  return r;
}

/** One range, sometimes with a (non-zero) quality value: q=0 is not something the spec describes. */
export function mediaRangeArb(profile: Profile): fc.Arbitrary<GeneratedRange> {
  return fc
    .tuple(fc.constantFrom(...basePool(profile)), fc.option(fc.constantFrom('1', '0.9', '0.5', '0.1'), { nil: undefined }))
    .map(([r, q]) => (q === undefined ? r : { ...r, text: `${r.text};q=${q}` }));
}

export function acceptListArb(profile: Profile): fc.Arbitrary<GeneratedRange[]> {
  return fc.array(mediaRangeArb(profile), { minLength: 1, maxLength: 4 });
}

/** The fallback lists clients really send (rest:4.8/fallback), to make sure they come up often. */
export function fallbackListArb(profile: Profile): fc.Arbitrary<GeneratedRange[]> {
  const pool = basePool(profile);
  const json = pool[0]!;
  return fc.constantFrom([pool[1]!, json], [pool[3]!, json], [pool[1]!, pool[3]!, json], [pool[6]!, json]);
}

/**
 * Lists led by a wildcard (`*\/*`, `application/*`), so the range the target must read first is one:
 * among up to four ranges of eleven a wildcard came first in about one request of twenty, and a run
 * of a few cases could send none (upstream refuses `application/*` with 406, where a server may).
 */
export function wildcardLedListArb(profile: Profile): fc.Arbitrary<GeneratedRange[]> {
  const pool = basePool(profile);
  // application/* first: fast-check's bias favours the first constant, and *\/* leads enough other lists.
  const wildcards = ['application/*', '*/*'].map((text) => pool.find((r) => r.text === text)!);
  return fc.tuple(fc.constantFrom(...wildcards), fc.array(mediaRangeArb(profile), { maxLength: 2 })).map(([w, rest]) => [w, ...rest]);
}

/** Lists of which nothing must be served (406 territory, rest:4.8/unsupported). */
export function unsupportedListArb(profile: Profile): fc.Arbitrary<GeneratedRange[]> {
  return fc.array(fc.constantFrom(...basePool(profile).filter((r) => r.allows.length === 0)), { minLength: 1, maxLength: 2 });
}
