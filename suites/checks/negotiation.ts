/**
 * rest:4.8 content negotiation over randomized Accept lists: reads (object, collection) and writes
 * (sent as dry-run, so nothing changes), each answer judged against the model's acceptable set:
 * a representation some requested range allows, or 406 only when nothing requested must be served.
 */
import { judgeNegotiation, judgeBodyAsStated } from '../../harness/case/index.ts';
import fc from 'fast-check';
import type { Check } from '../../harness/case/index.ts';
import {
  acceptListArb,
  fallbackListArb,
  namedRange,
  unsupportedListArb,
  wildcardLedListArb,
  type GeneratedRange,
} from '../../generators/media-types.ts';
import { bodyFor, contentFor, namespaceOf, resourceOf, runOp } from '../../harness/interpreters/index.ts';
import { contentArb, namePool, type ContentSpec, type ResName } from '../../generators/ops.ts';
import { tableMediaType, type Operation } from '../../reference/media-types.ts';

import { collectionPath, objectPath } from '../../reference/resources.ts';
import type { TargetRequest, TargetResponse } from '../../harness/transport/index.ts';
import type { CaseContext } from '../../harness/case/index.ts';
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

async function send(cx: CaseContext, input: NegotiationInput, q: NegotiationRequest): Promise<{ r: TargetResponse; rt: ResourceType }> {
  const rt = resourceOf(cx, q.res);
  const ns = await namespaceOf(cx, 0);
  const headers = { accept: q.accept.map((a) => a.text).join(', ') };
  let req: TargetRequest;
  if (q.via === 'get') req = { method: 'GET', path: objectPath(rt, input.name, ns), headers };
  else if (q.via === 'list') req = { method: 'GET', path: collectionPath(rt, ns), headers };
  // A write whose answer is negotiated but that changes nothing (rest:4.6.2).
  else
    req = {
      method: 'POST',
      path: collectionPath(rt, ns),
      query: [['dryRun', 'All']],
      headers,
      body: bodyFor(rt, `${input.name}-dry`, ns, contentFor(cx, rt, input.content)),
    };
  return { r: await cx.send(req), rt };
}

export const negotiationAcceptLists: Check<NegotiationInput> = {
  id: 'negotiation-accept-lists',
  suite: 'rest-negotiation',
  title: 'randomized Accept lists are answered in a requested, supported type, or 406 when none is',
  clauses: [
    'rest:4.8/default',
    'rest:4.8/protobuf',
    'rest:4.8/table',
    'rest:4.8/fallback',
    'rest:4.8/unsupported',
    'rest:4.8/response',
    'rest:7/406',
  ],
  defaultRuns: 8,
  // One request of each kind the clauses name: a default, a protobuf and a Table read, a fallback list
  // on a write, and a list nothing serves (406); random lists of six kinds reached some only on some seeds.
  examples: (env) => [
    {
      name: 'alpha',
      content: { labels: {}, annotations: {}, data: { k1: 'v1' } },
      requests: [
        { via: 'get', res: 'configmaps', accept: [namedRange(env.profile, '*/*')] },
        { via: 'get', res: 'leases', accept: [namedRange(env.profile, env.profile.protobufMediaType)] },
        { via: 'list', res: 'configmaps', accept: [namedRange(env.profile, tableMediaType(env.profile))] },
        {
          via: 'write',
          res: 'configmaps',
          accept: [namedRange(env.profile, tableMediaType(env.profile)), namedRange(env.profile, 'application/json')],
        },
        { via: 'get', res: 'configmaps', accept: [namedRange(env.profile, 'application/xml')] },
        { via: 'list', res: 'leases', accept: [namedRange(env.profile, 'text/html'), namedRange(env.profile, 'application/yaml')] },
      ],
    },
  ],
  arbitrary: (env) =>
    fc.record({
      name: fc.constantFrom(...namePool),
      content: contentArb,
      requests: fc.array(
        fc.record({
          via: fc.constantFrom<Operation>('get', 'list', 'write'),
          res: fc.constantFrom<ResName>('configmaps', 'leases'),
          accept: fc.oneof(
            acceptListArb(env.profile),
            fallbackListArb(env.profile),
            unsupportedListArb(env.profile),
            wildcardLedListArb(env.profile),
          ),
        }),
        { minLength: 1, maxLength: 6 },
      ),
    }),
  describe: (i) => [
    `create configmaps and leases ns0/${i.name}`,
    ...i.requests.map((q) => `${q.via} ${q.res} with Accept: ${q.accept.map((a) => a.text).join(', ')}`),
  ],
  run: async (input, cx) => {
    for (const res of ['configmaps', 'leases'] as const)
      await runOp(cx, { op: 'create', res, ns: 0, name: input.name, content: input.content });
    for (const q of input.requests) {
      const { r, rt } = await send(cx, input, q);
      const accept = q.accept.map((a) => a.text).join(', ');
      const { judgements, verdict } = judgeNegotiation(cx.env.profile, accept, { builtIn: true }, q.accept.length, {
        status: r.status,
        contentType: r.headers['content-type'],
        json: r.json,
      });
      cx.judge(judgements);
      // Nothing but a 2xx answer has a body to judge (judgeBodyAsStated returns nothing for the rest).
      cx.judge(judgeBodyAsStated(cx.env.profile, rt, q.via, verdict, r));
    }
  },
};
