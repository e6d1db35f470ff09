/**
 * rest:4.8 content negotiation over randomized Accept lists: reads (object, collection) and writes
 * (sent as dry-run, so nothing changes), each answer judged against the model's acceptable set:
 * a representation some requested range allows, or 406 only when nothing requested must be served.
 */
import fc from 'fast-check';
import type { Check } from '../../harness/check.ts';
import { acceptListArb, fallbackListArb, unsupportedListArb, type GeneratedRange } from '../../generators/media-types.ts';
import { bodyFor, contentFor, namespaceOf, resourceOf, runOp } from '../../harness/rest-interpreter.ts';
import { contentArb, namePool, type ContentSpec, type ResName } from '../../generators/ops.ts';
import { acceptableAnswers, judgeNegotiated, showRep, type Answers, type Operation } from '../../reference/media-types.ts';
import { judgeEnvelope } from '../../reference/protobuf-envelope.ts';
import { judgeTable } from '../../reference/table.ts';
import { apiVersionOf, collectionPath, listKindOf, objectPath } from '../../reference/resources.ts';
import { fail, pass, rule, type Judgement } from '../../reference/judgement.ts';
import type { TargetRequest, TargetResponse } from '../../harness/exchange.ts';
import type { CaseContext } from '../../harness/case-context.ts';
import type { Profile } from '../../reference/profile.ts';
import type { ResourceType } from '../../reference/resources.ts';

interface NegotiationRequest {
  readonly via: Operation;
  readonly res: ResName;
  readonly accept: readonly GeneratedRange[];
}

interface NegotiationInput {
  readonly name: (typeof namePool)[number];
  readonly content: ContentSpec;
  readonly requests: readonly NegotiationRequest[];
}

/** rest:4.8/response: the body is what its Content-Type says (JSON parses, Table and protobuf shapes hold). */
export function judgeBodyAsStated(profile: Profile, rt: ResourceType, via: Operation, rep: ReturnType<typeof judgeNegotiated>, r: TargetResponse): Judgement[] {
  if (!rep.ok || rep.representation === 'none') return [];
  const what = showRep(rep.representation);
  if (rep.representation === 'json') return [rule('rest:4.8/response', r.json !== undefined, 'a JSON body, as Content-Type states', r.bodyText.slice(0, 80)), pass('rest:4.8/default', 'JSON served')];
  if (rep.representation === 'table') return [pass('rest:4.8/table', 'a Table for the Table media type'), ...judgeTable(profile, r.json)];
  if (rep.representation === 'protobuf') {
    const kind = via === 'list' ? listKindOf(rt) : rt.kind;
    const bytes = r.bodyBytes ?? new Uint8Array(Buffer.from(r.bodyText, 'utf8'));
    return [pass('rest:4.8/protobuf', 'protobuf served for a built-in type'), ...judgeEnvelope(bytes, { apiVersion: apiVersionOf(rt), kind, protobufMediaType: profile.protobufMediaType }).judgements];
  }
  return [pass('rest:4.8/response', `${what} served, as Content-Type states`)];
}

/** The model's verdict on one negotiated answer, under the clause the mistake breaks. */
export function judgeAnswer(answers: Answers, ranges: number, verdict: ReturnType<typeof judgeNegotiated>, status: number): Judgement[] {
  if (verdict.ok) {
    const js: Judgement[] = [];
    if (status === 406) js.push(pass('rest:4.8/unsupported', '406: nothing requested is supported'), pass('rest:7/406', '406 Not Acceptable'));
    else if (status >= 200 && status < 300) {
      js.push(pass('rest:4.8/response', 'a requested media type, stated in Content-Type'));
      if (ranges > 1) js.push(pass('rest:4.8/fallback', 'one of several listed media types served'));
    }
    return js;
  }
  if (answers.may406) return [fail('rest:4.8/unsupported', '406 (none of the requested media types must be supported) or a requested one', verdict.why), fail('rest:7/406', '406 Not Acceptable', verdict.why)];
  return [fail(ranges > 1 ? 'rest:4.8/fallback' : 'rest:4.8/response', 'an answer in one of the requested, supported media types', verdict.why)];
}

async function send(cx: CaseContext, input: NegotiationInput, q: NegotiationRequest): Promise<{ r: TargetResponse; rt: ResourceType }> {
  const rt = resourceOf(cx, q.res);
  const ns = await namespaceOf(cx, 0);
  const headers = { accept: q.accept.map((a) => a.text).join(', ') };
  let req: TargetRequest;
  if (q.via === 'get') req = { method: 'GET', path: objectPath(rt, input.name, ns), headers };
  else if (q.via === 'list') req = { method: 'GET', path: collectionPath(rt, ns), headers };
  // A write whose answer is negotiated but that changes nothing (rest:4.6.2).
  else req = { method: 'POST', path: collectionPath(rt, ns), query: [['dryRun', 'All']], headers, body: bodyFor(rt, `${input.name}-dry`, ns, contentFor(cx, rt, input.content)) };
  return { r: await cx.send(req), rt };
}

export const negotiationAcceptLists: Check<NegotiationInput> = {
  id: 'negotiation-accept-lists',
  suite: 'rest-negotiation',
  title: 'randomized Accept lists are answered in a requested, supported type, or 406 when none is',
  clauses: ['rest:4.8/default', 'rest:4.8/protobuf', 'rest:4.8/table', 'rest:4.8/fallback', 'rest:4.8/unsupported', 'rest:4.8/response', 'rest:7/406'],
  defaultRuns: 8,
  arbitrary: (env) => fc.record({
    name: fc.constantFrom(...namePool),
    content: contentArb,
    requests: fc.array(fc.record({
      via: fc.constantFrom<Operation>('get', 'list', 'write'),
      res: fc.constantFrom<ResName>('configmaps', 'leases'),
      accept: fc.oneof(acceptListArb(env.profile), fallbackListArb(env.profile), unsupportedListArb(env.profile)),
    }), { minLength: 1, maxLength: 6 }),
  }),
  describe: (i) => [`create configmaps and leases ns0/${i.name}`, ...i.requests.map((q) => `${q.via} ${q.res} with Accept: ${q.accept.map((a) => a.text).join(', ')}`)],
  run: async (input, cx) => {
    for (const res of ['configmaps', 'leases'] as const) await runOp(cx, { op: 'create', res, ns: 0, name: input.name, content: input.content });
    for (const q of input.requests) {
      const { r, rt } = await send(cx, input, q);
      const answers = acceptableAnswers(cx.env.profile, q.accept.map((a) => a.text).join(', '), { builtIn: true });
      const verdict = judgeNegotiated(cx.env.profile, answers, r.status, r.headers['content-type'], r.json);
      cx.judge(judgeAnswer(answers, q.accept.length, verdict, r.status));
      if (r.status >= 200 && r.status < 300) cx.judge(judgeBodyAsStated(cx.env.profile, rt, q.via, verdict, r));
    }
  },
};
