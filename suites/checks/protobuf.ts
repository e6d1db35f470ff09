/**
 * rest:2.7 and rest:4.8/protobuf: objects and collections of built-in types read as protobuf carry
 * the envelope (magic prefix, Unknown with the right typeMeta); where the target takes protobuf
 * writes, the envelope read is sent back unchanged (the raw bytes are opaque to the suite: the inner
 * schema is not shown) and the object must come back the same, answered in JSON (a protobuf
 * request may get a JSON response). A target refusing protobuf writes (415) is recorded, not failed.
 */
import { judgeEnvelope, judgeProtobufServed, judgeProtobufWriteBack } from '../../harness/case/index.ts';
import fc from 'fast-check';
import type { Check } from '../../harness/case/index.ts';
import { contentArb, namePool, type ContentSpec, type ResName } from '../../generators/ops.ts';
import { knownKeys, namespaceOf, resourceOf, runOp } from '../../harness/interpreters/index.ts';
import { encodeEnvelope } from '../../reference/protobuf-envelope.ts';
import { apiVersionOf, collectionPath, listKindOf, objectPath } from '../../reference/resources.ts';
import { keyOf, readObject } from '../../reference/objects.ts';
import { current, recordWrite } from '../../reference/history.ts';

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
  arbitrary: () =>
    fc.record({
      res: fc.constantFrom<ResName>('configmaps', 'leases'),
      name: fc.constantFrom(...namePool),
      content: contentArb,
      writeEmptyStrings: fc.boolean(),
    }),
  describe: (i) => [
    `create ${i.res} ns0/${i.name}`,
    'get it and its collection as protobuf',
    `put the envelope back as protobuf${i.writeEmptyStrings ? ' (empty strings written)' : ''}, read as JSON`,
  ],
  run: async (input, cx) => {
    const profile = cx.env.profile;
    const rt = resourceOf(cx, input.res);
    await runOp(cx, { op: 'create', res: input.res, ns: 0, name: input.name, content: input.content });
    const ns = await namespaceOf(cx, 0);
    const key = keyOf(ns, input.name);
    const want = { apiVersion: apiVersionOf(rt), protobufMediaType: profile.protobufMediaType };
    const accept = { accept: profile.protobufMediaType };

    const list = await cx.send({ method: 'GET', path: collectionPath(rt, ns), headers: accept });
    cx.judge([judgeProtobufServed(profile, list)]);
    cx.judge(judgeEnvelope(list.bodyBytes ?? new Uint8Array(), { ...want, kind: listKindOf(rt) }).judgements);

    const got = await cx.send({ method: 'GET', path: objectPath(rt, input.name, ns), headers: accept });
    cx.judge([judgeProtobufServed(profile, got)]);
    const { judgements, envelope } = judgeEnvelope(got.bodyBytes ?? new Uint8Array(), { ...want, kind: rt.kind });
    cx.judge(judgements);
    if (!envelope) return;

    const live = current(cx.history(input.res)).objects.get(key);
    if (!live) return;
    const body = encodeEnvelope(envelope, { writeEmptyStrings: input.writeEmptyStrings });
    const view = { metadata: { name: input.name, namespace: ns, labels: live.content.labels } };
    const put = await cx.send({
      method: 'PUT',
      path: objectPath(rt, input.name, ns),
      headers: { 'content-type': profile.protobufMediaType, accept: 'application/json' },
      body,
      bodyView: view,
    });
    const o = readObject(rt, put.json);
    cx.judge(judgeProtobufWriteBack(profile, key, live, o, put, knownKeys(cx)));
    if (put.status === 415) return;
    if (typeof o.rv === 'string' && o.rv !== live.rv) {
      cx.writeRvs.add(o.rv);
      cx.setHistory(input.res, recordWrite(cx.history(input.res), { op: 'put', version: { ...live, rv: o.rv }, atMs: cx.writeSentAtMs }));
    }
  },
};
