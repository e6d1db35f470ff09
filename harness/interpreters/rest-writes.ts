/**
 * The writes of the REST interpreter (create, update, delete and the rest of generators/ops.ts's
 * WriteOp): each sent, its answer judged by the model's write rules, what it changed recorded in the
 * case's history. The reads send them too, between the pages of a list.
 */
import { current, recordWrite, taint } from '../../reference/history.ts';
import { keyOf, readObject } from '../../reference/objects.ts';
import { collectionPath, objectPath } from '../../reference/resources.ts';
import type { WriteOp } from '../../generators/ops.ts';
import {
  judgeAfterDelete,
  judgeCreate,
  judgeCreateOfTerminatingName,
  judgeCreated,
  judgeDeleteAccepted,
  judgeDuplicateCreate,
  judgeObjectEnvelope,
  judgeUpdate,
  judgeUpdated,
  type CaseContext,
} from '../case/index.ts';
import { bodyFor, contentFor, is2xx, knownKeys, namespaceOf, noteRvs, resourceOf, versionOf } from './rest-basics.ts';

export async function runWrite(cx: CaseContext, op: WriteOp): Promise<void> {
  const rt = resourceOf(cx, op.res);
  const ns = await namespaceOf(cx, op.ns);
  const key = keyOf(ns, op.name);
  const h = cx.history(op.res);
  const live = current(h).objects.get(key);
  const tainted = h.tainted.has(key);

  if (op.op === 'create') {
    const content = contentFor(cx, rt, op.content);
    const r = await cx.send({ method: 'POST', path: collectionPath(rt, ns), body: bodyFor(rt, op.name, ns, content) });
    noteRvs(cx, r);
    if (tainted) {
      cx.judge(judgeCreateOfTerminatingName(r.status));
      if (is2xx(r.status))
        cx.setHistory(
          op.res,
          recordWrite(
            { ...h, tainted: new Set([...h.tainted].filter((k) => k !== key)) },
            { op: 'put', version: versionOf(cx, rt, r, content), atMs: cx.writeSentAtMs },
          ),
        );
      return;
    }
    if (live) {
      cx.judge(judgeDuplicateCreate(key, r.status));
      return;
    }
    const reused = h.everKeys.has(key);
    cx.judge(judgeCreate({ key, reused, status: r.status, body: r.bodyText }));
    const o = readObject(rt, r.json);
    cx.judge([
      ...judgeObjectEnvelope(rt, o, { name: op.name, namespace: ns }, 'elsewhere'),
      ...judgeCreated(o, content, cx.learned, knownKeys(cx)),
    ]);
    const v = versionOf(cx, rt, r, content);
    cx.uids.set(v.uid, key);
    cx.writeRvs.add(v.rv);
    cx.setHistory(op.res, recordWrite(h, { op: 'put', version: v, atMs: cx.writeSentAtMs }));
    return;
  }

  if (!live || tainted) return; // nothing to update or delete: the operation is a no-op for this case.

  if (op.op === 'update') {
    const content = contentFor(cx, rt, op.content);
    const r = await cx.send({ method: 'PUT', path: objectPath(rt, op.name, ns), body: bodyFor(rt, op.name, ns, content, live.rv) });
    noteRvs(cx, r);
    cx.judge(judgeUpdate({ key, status: r.status, body: r.bodyText }));
    const o = readObject(rt, r.json);
    cx.judge([
      ...judgeObjectEnvelope(rt, o, { name: op.name, namespace: ns }, 'elsewhere'),
      ...judgeUpdated(o, live, content, cx.learned, knownKeys(cx)),
    ]);
    const v = versionOf(cx, rt, r, content);
    if (v.rv !== live.rv) {
      cx.writeRvs.add(v.rv);
      cx.setHistory(op.res, recordWrite(h, { op: 'put', version: v, atMs: cx.writeSentAtMs }));
    }
    return;
  }

  const r = await cx.send({ method: 'DELETE', path: objectPath(rt, op.name, ns) });
  cx.judge(judgeDeleteAccepted(key, r.status));
  // Deletion of an object without finalizers is "not shown" (rest:3.1): learn what the target did.
  const probe = await cx.send({ method: 'GET', path: objectPath(rt, op.name, ns) });
  const after = judgeAfterDelete(key, {
    status: probe.status,
    deletionTimestamp: is2xx(probe.status) ? readObject(rt, probe.json).deletionTimestamp : undefined,
  });
  cx.judge(after.judgements);
  cx.setHistory(op.res, after.removed ? recordWrite(h, { op: 'remove', key, atMs: cx.writeSentAtMs }) : taint(h, key));
}
