/**
 * rest:2.7 and rest:4.8/protobuf: objects and collections of built-in types read as protobuf carry
 * the envelope (magic prefix, Unknown with the right typeMeta); where the target takes protobuf
 * writes, the envelope read is sent back unchanged (the raw bytes are opaque to the suite: the inner
 * schema is not shown) and the object must come back the same, answered in JSON (a protobuf
 * request may get a JSON response). A target refusing protobuf writes (415) is recorded, not failed.
 */
import fc from 'fast-check';
import type { Check } from '../../harness/check.ts';
import { contentArb, namePool, type ContentSpec, type ResName } from '../../generators/ops.ts';
import { knownKeys, namespaceOf, resourceOf, runOp } from '../../harness/rest-interpreter.ts';
import { encodeEnvelope, judgeEnvelope } from '../../reference/protobuf-envelope.ts';
import { apiVersionOf, collectionPath, listKindOf, objectPath } from '../../reference/resources.ts';
import { contentMismatch, keyOf, readObject } from '../../reference/objects.ts';
import { current, recordWrite } from '../../reference/history.ts';
import { representationOf } from '../../reference/media-types.ts';
import { pass, rule, unspecified } from '../../reference/judgement.ts';

interface ProtobufInput {
  readonly res: ResName;
  readonly name: (typeof namePool)[number];
  readonly content: ContentSpec;
  /** Go writes empty contentEncoding/contentType explicitly; protobufjs leaves them out: both must do. */
  readonly writeEmptyStrings: boolean;
}

export const protobufEnvelope: Check<ProtobufInput> = {
  id: 'protobuf-envelope',
  suite: 'rest-negotiation',
  title: 'protobuf answers carry the envelope of rest:2.7 and round-trip through a protobuf write',
  clauses: ['rest:2.7.1', 'rest:2.7.2', 'rest:8/protobuf-prefix', 'rest:4.8/protobuf', 'rest:4.8/response'],
  defaultRuns: 5,
  arbitrary: () => fc.record({ res: fc.constantFrom<ResName>('configmaps', 'leases'), name: fc.constantFrom(...namePool), content: contentArb, writeEmptyStrings: fc.boolean() }),
  describe: (i) => [`create ${i.res} ns0/${i.name}`, 'get it and its collection as protobuf', `put the envelope back as protobuf${i.writeEmptyStrings ? ' (empty strings written)' : ''}, read as JSON`],
  run: async (input, cx) => {
    const profile = cx.env.profile;
    const rt = resourceOf(cx, input.res);
    await runOp(cx, { op: 'create', res: input.res, ns: 0, name: input.name, content: input.content });
    const ns = await namespaceOf(cx, 0);
    const key = keyOf(ns, input.name);
    const want = { apiVersion: apiVersionOf(rt), protobufMediaType: profile.protobufMediaType };
    const accept = { accept: profile.protobufMediaType };

    const list = await cx.send({ method: 'GET', path: collectionPath(rt, ns), headers: accept });
    const listIsPb = representationOf(profile, list.headers['content-type'], list.json) === 'protobuf';
    cx.judge([rule('rest:4.8/protobuf', list.status === 200 && listIsPb, `200 in ${profile.protobufMediaType} for a built-in type`, `status ${list.status}, Content-Type ${JSON.stringify(list.headers['content-type'])}`)]);
    cx.judge(judgeEnvelope(list.bodyBytes ?? new Uint8Array(), { ...want, kind: listKindOf(rt) }).judgements);

    const got = await cx.send({ method: 'GET', path: objectPath(rt, input.name, ns), headers: accept });
    const gotIsPb = representationOf(profile, got.headers['content-type'], got.json) === 'protobuf';
    cx.judge([rule('rest:4.8/protobuf', got.status === 200 && gotIsPb, `200 in ${profile.protobufMediaType} for a built-in type`, `status ${got.status}, Content-Type ${JSON.stringify(got.headers['content-type'])}`)]);
    const { judgements, envelope } = judgeEnvelope(got.bodyBytes ?? new Uint8Array(), { ...want, kind: rt.kind });
    cx.judge(judgements);
    if (!envelope) return;

    const live = current(cx.history(input.res)).objects.get(key);
    if (!live) return;
    const body = encodeEnvelope(envelope, { writeEmptyStrings: input.writeEmptyStrings });
    const view = { metadata: { name: input.name, namespace: ns, labels: live.content.labels } };
    const put = await cx.send({ method: 'PUT', path: objectPath(rt, input.name, ns), headers: { 'content-type': profile.protobufMediaType, accept: 'application/json' }, body, bodyView: view });
    if (put.status === 415) return cx.judge([unspecified('rest:4.8/protobuf', 'protobuf request bodies: the target may refuse them', 'refused with 415')]);
    const o = readObject(rt, put.json);
    const m = put.status >= 200 && put.status < 300 ? contentMismatch(live.content, o, knownKeys(cx)) : `status ${put.status} ${put.bodyText.slice(0, 160)}`;
    cx.judge([
      rule('rest:4.8/protobuf', m === undefined && o.uid === live.uid, `the object read as protobuf, written back as protobuf, is stored unchanged (${key})`, m ?? `uid ${JSON.stringify(o.uid)}`),
      rule('rest:4.8/response', representationOf(profile, put.headers['content-type'], put.json) === 'json' && put.json !== undefined, 'a protobuf request answered in JSON as Accept asked', `Content-Type ${JSON.stringify(put.headers['content-type'])}`),
      pass('rest:2.7.2', 'an envelope encoded by the suite is accepted'),
    ]);
    if (typeof o.rv === 'string' && o.rv !== live.rv) {
      cx.writeRvs.add(o.rv);
      cx.setHistory(input.res, recordWrite(cx.history(input.res), { op: 'put', version: { ...live, rv: o.rv }, atMs: cx.writeSentAtMs }));
    }
  },
};
