/**
 * rest:4.8 judges over a negotiated exchange as the suite saw it: the status, Content-Type and body of
 * an answer to an Accept list (reference/media-types.ts says which answers are acceptable), the body
 * judged as what its Content-Type states (Table, protobuf envelope), and a protobuf write answered in
 * JSON. They live here, not in suites/checks/, so the checks only send and hand the answers over; they
 * combine media-types.ts, table.ts and protobuf-envelope.ts, which stay independent of one another.
 *
 *   judgeAnswer(acceptableAnswers(p, 'application/yaml', { builtIn: true }), 1, { ok: false, why: 'answered json ...' }, 200)
 *     -> [fail rest:4.8/unsupported, fail rest:7/406]
 */
import { fail, pass, rule, unspecified, type Judgement } from './judgement.ts';
import {
  acceptableAnswers,
  judgeNegotiated,
  representationOf,
  showRep,
  type Answers,
  type NegotiationVerdict,
  type Operation,
} from './media-types.ts';
import { judgeEnvelope } from './protobuf-envelope.ts';
import { judgeTableServed, noteNoTable } from './table.ts';
import { contentMismatch, type Content, type ObservedObject } from './objects.ts';
import { apiVersionOf, listKindOf, type ResourceType } from './resources.ts';
import type { Profile } from './profile.ts';
import type { AnswerTest } from './answer-checks.ts';

/** What the suite saw of one answer: the shape of the harness's response, header names lower-cased. */
export interface AnswerSeen {
  readonly status: number;
  readonly headers: Readonly<Record<string, string>>;
  readonly bodyText: string;
  /** Parsed body when it was JSON. */
  readonly json: unknown;
  /** The raw body, for binary media types (protobuf). */
  readonly bodyBytes?: Uint8Array;
}

/**
 * The model's verdict on one negotiated answer (judgeNegotiated's), under the clause the mistake
 * breaks: 406 where nothing requested must be served, a requested type otherwise; with several ranges
 * listed, a wrong answer breaks the fallback row.
 *
 *   judgeAnswer(answers, 2, { ok: true, representation: 'json' }, 200) -> [pass rest:4.8/response, pass rest:4.8/fallback]
 */
export function judgeAnswer(answers: Answers, ranges: number, verdict: NegotiationVerdict, status: number): Judgement[] {
  if (verdict.ok) {
    const js: Judgement[] = [];
    if (status === 406)
      js.push(pass('rest:4.8/unsupported', '406: nothing requested is supported'), pass('rest:7/406', '406 Not Acceptable'));
    else if (status >= 200 && status < 300) {
      js.push(pass('rest:4.8/response', 'a requested media type, stated in Content-Type'));
      if (ranges > 1) js.push(pass('rest:4.8/fallback', 'one of several listed media types served'));
    }
    return js;
  }
  const requested: AnswerTest = { kind: 'contentType', at: 'judged', ranges: answers.ranges.map((r) => r.type) };
  if (answers.may406) {
    const needs = {
      needs: [
        {
          says: '406, or a 2xx answer whose Content-Type is one of the requested media types',
          test: { kind: 'anyOf', tests: [{ kind: 'status', at: 'judged', oneOf: [406] }, requested] },
        } as const,
      ],
    };
    return [
      fail('rest:4.8/unsupported', '406 (none of the requested media types must be supported) or a requested one', verdict.why, needs),
      fail('rest:7/406', '406 Not Acceptable', verdict.why, needs),
    ];
  }
  return [
    fail(ranges > 1 ? 'rest:4.8/fallback' : 'rest:4.8/response', 'an answer in one of the requested, supported media types', verdict.why, {
      needs: [{ says: 'a 2xx answer whose Content-Type is one of the requested media types', test: requested }],
    }),
  ];
}

/**
 * One negotiated answer judged from what was sent and seen (the Accept list, `ranges` of it, and the
 * status, Content-Type and body): judgeAnswer over the model's acceptable answers. Also returns the
 * model's verdict on the answer, which the judges of its body take.
 */
export function judgeNegotiation(
  profile: Profile,
  accept: string,
  opts: { readonly builtIn: boolean },
  ranges: number,
  r: { readonly status: number; readonly contentType: string | undefined; readonly json: unknown },
): { judgements: Judgement[]; verdict: NegotiationVerdict } {
  const answers = acceptableAnswers(profile, accept, opts);
  const verdict = judgeNegotiated(profile, answers, r.status, r.contentType, r.json);
  return { judgements: judgeAnswer(answers, ranges, verdict, r.status), verdict };
}

/**
 * rest:4.8/response: the body is what its Content-Type says (JSON parses, Table and protobuf shapes
 * hold). Nothing for an answer judgeAnswer failed or one without a representation (not 2xx).
 *
 *   judgeBodyAsStated(p, configmaps, 'get', { ok: true, representation: 'json' }, { bodyText: '<html>', json: undefined, ... })
 *     -> [fail rest:4.8/response 'a JSON body, as Content-Type states' / '<html>', pass rest:4.8/default]
 */
export function judgeBodyAsStated(
  profile: Profile,
  rt: ResourceType,
  via: Operation,
  rep: NegotiationVerdict,
  r: Pick<AnswerSeen, 'bodyText' | 'json' | 'bodyBytes'>,
): Judgement[] {
  if (!rep.ok || rep.representation === 'none') return [];
  const what = showRep(rep.representation);
  if (rep.representation === 'json')
    return [
      rule('rest:4.8/response', r.json !== undefined, 'a JSON body, as Content-Type states', r.bodyText.slice(0, 80)),
      pass('rest:4.8/default', 'JSON served'),
    ];
  if (rep.representation === 'table') return judgeTableServed(profile, r.json);
  if (rep.representation === 'protobuf') {
    const kind = via === 'list' ? listKindOf(rt) : rt.kind;
    const bytes = r.bodyBytes ?? new Uint8Array(Buffer.from(r.bodyText, 'utf8'));
    return [
      pass('rest:4.8/protobuf', 'protobuf served for a built-in type'),
      ...judgeEnvelope(bytes, { apiVersion: apiVersionOf(rt), kind, protobufMediaType: profile.protobufMediaType }).judgements,
    ];
  }
  return [pass('rest:4.8/response', `${what} served, as Content-Type states`)];
}

/**
 * rest:2.5.2 and rest:4.8/table on a read that asked for a Table (alone, or with the JSON fallback),
 * after judgeAnswer: a 406 or the served fallback is recorded (a type may lack Tables); a Table served
 * is judged as one. At most one of the three applies.
 *
 *   judgeTableRequest(p, 'application/json;as=Table;g=meta.svc.io;v=v1', false, verdict406, 406) -> [unspecified rest:2.5.2]
 */
export function judgeTableRequest(
  profile: Profile,
  accept: string,
  fallback: boolean,
  verdict: NegotiationVerdict,
  r: Pick<AnswerSeen, 'status' | 'json'>,
): Judgement[] {
  if (r.status === 406) return [noteNoTable(`406 for Accept: ${accept}`)];
  if (verdict.ok && verdict.representation === 'table') return judgeTableServed(profile, r.json);
  if (verdict.ok && verdict.representation === 'json' && fallback) return [noteNoTable(`the JSON fallback served for Accept: ${accept}`)];
  return [];
}

/**
 * rest:4.8/protobuf on a read of a built-in type that asked for protobuf alone: 200 in the protobuf
 * media type (the body, as the Content-Type and body say; the envelope is judgeEnvelope's).
 *
 *   judgeProtobufServed(p, { status: 200, headers: { 'content-type': 'application/json' }, json: {...} })
 *     -> fail rest:4.8/protobuf '200 in application/vnd.svc.protobuf for a built-in type'
 */
export function judgeProtobufServed(profile: Profile, r: Pick<AnswerSeen, 'status' | 'headers' | 'json'>): Judgement {
  const isPb = representationOf(profile, r.headers['content-type'], r.json) === 'protobuf';
  return rule(
    'rest:4.8/protobuf',
    r.status === 200 && isPb,
    `200 in ${profile.protobufMediaType} for a built-in type`,
    `status ${r.status}, Content-Type ${JSON.stringify(r.headers['content-type'])}`,
  );
}

/**
 * rest:4.8/protobuf, rest:4.8/response and rest:2.7.2 on a protobuf write (Accept: JSON) of the envelope
 * the target served for `live` (`key`), sent back unchanged: stored unchanged (same content modulo keys
 * the suite does not own, same uid), answered in JSON, the suite's envelope accepted. A 415 is the
 * target refusing protobuf request bodies: recorded. `written` is the answer's body read as an object.
 *
 *   judgeProtobufWriteBack(p, 'ns/a', live, written, { status: 415, ... }, known) -> [unspecified rest:4.8/protobuf 'refused with 415']
 */
export function judgeProtobufWriteBack(
  profile: Profile,
  key: string,
  live: { readonly content: Content; readonly uid: unknown },
  written: ObservedObject,
  put: Pick<AnswerSeen, 'status' | 'headers' | 'json' | 'bodyText'>,
  knownKeys: ReadonlySet<string>,
): Judgement[] {
  if (put.status === 415)
    return [unspecified('rest:4.8/protobuf', 'protobuf request bodies: the target may refuse them', 'refused with 415')];
  const m =
    put.status >= 200 && put.status < 300
      ? contentMismatch(live.content, written, knownKeys)
      : `status ${put.status} ${put.bodyText.slice(0, 160)}`;
  return [
    rule(
      'rest:4.8/protobuf',
      m === undefined && written.uid === live.uid,
      `the object read as protobuf, written back as protobuf, is stored unchanged (${key})`,
      m ?? `uid ${JSON.stringify(written.uid)}`,
    ),
    rule(
      'rest:4.8/response',
      representationOf(profile, put.headers['content-type'], put.json) === 'json' && put.json !== undefined,
      'a protobuf request answered in JSON as Accept asked',
      `Content-Type ${JSON.stringify(put.headers['content-type'])}`,
    ),
    pass('rest:2.7.2', 'an envelope encoded by the suite is accepted'),
  ];
}
