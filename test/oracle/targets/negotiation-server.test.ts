// The reference server's dry-run, negotiation, Table and protobuf paths on their own: the parts the
// suites judge only through randomized runs, pinned here as plain cases.
import { afterEach, describe, expect, it } from 'vitest';
import { type ReferenceServer } from '../../../targets/api-server/index.ts';
import { referenceServer } from '../../helpers/reference-server.ts';
import { decodeEnvelope, encodeEnvelope } from '../../../reference/protobuf-envelope.ts';
import { decodeObject } from '../../../targets/api-server/protobuf-objects.ts';

let server: ReferenceServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

async function call(method: string, path: string, o: { body?: unknown; accept?: string; contentType?: string } = {}) {
  const body = o.body === undefined ? undefined : o.body instanceof Uint8Array ? o.body : JSON.stringify(o.body);
  const r = await fetch(server!.url + path, {
    method,
    headers: { 'content-type': o.contentType ?? 'application/json', ...(o.accept ? { accept: o.accept } : {}) },
    ...(body !== undefined ? { body } : {}),
  });
  const bytes = new Uint8Array(await r.arrayBuffer());
  const text = Buffer.from(bytes).toString('utf8');
  let json: any;
  try {
    json = JSON.parse(text);
  } catch {
    json = undefined;
  }
  return { status: r.status, type: r.headers.get('content-type'), json, bytes };
}

async function setup(variations: never[] = []) {
  server = await referenceServer({ variations });
  await call('POST', '/api/v1/namespaces', { body: { metadata: { name: 'a' } } });
  await call('POST', '/api/v1/namespaces/a/configmaps', { body: { metadata: { name: 'x', labels: { l: 'v' } }, data: { k: 'v', e: '' } } });
}

describe('reference server: dry-run, negotiation, Table, protobuf', () => {
  it('dry-run (flag and All) answers like the write and stores nothing; other values are refused', async () => {
    await setup();
    const before = (await call('GET', '/api/v1/namespaces/a/configmaps')).json.metadata.resourceVersion;
    for (const q of ['dryRun', 'dryRun=All']) {
      const c = await call('POST', `/api/v1/namespaces/a/configmaps?${q}`, { body: { metadata: { name: 'y' }, data: { k: 'w' } } });
      expect(c.status).toBe(201);
      expect(c.json.data).toEqual({ k: 'w' });
      expect((await call('DELETE', `/api/v1/namespaces/a/configmaps/x?${q}`)).status).toBe(200);
      expect((await call('PUT', `/api/v1/namespaces/a/configmaps/x?${q}`, { body: { metadata: { name: 'x' }, data: {} } })).status).toBe(
        200,
      );
    }
    expect((await call('POST', '/api/v1/namespaces/a/configmaps?dryRun=true', { body: { metadata: { name: 'y' } } })).status).toBe(400);
    expect((await call('GET', '/api/v1/namespaces/a/configmaps/y')).status).toBe(404);
    const x = await call('GET', '/api/v1/namespaces/a/configmaps/x');
    expect(x.json.data).toEqual({ k: 'v', e: '' });
    expect((await call('GET', '/api/v1/namespaces/a/configmaps')).json.metadata.resourceVersion).toBe(before);
  });

  it('406 before a write runs; fallback lists; Table only on GET', async () => {
    await setup();
    expect(
      (await call('POST', '/api/v1/namespaces/a/configmaps', { body: { metadata: { name: 'z' } }, accept: 'application/xml' })).status,
    ).toBe(406);
    expect((await call('GET', '/api/v1/namespaces/a/configmaps/z')).status).toBe(404);
    const t = await call('GET', '/api/v1/namespaces/a/configmaps', {
      accept: 'application/json;as=Table;g=meta.svc.io;v=v1, application/json',
    });
    expect(t.type).toBe('application/json;as=Table;v=v1;g=meta.svc.io');
    expect(t.json.columnDefinitions.map((c: any) => [c.name, c.type])).toEqual([
      ['Name', 'string'],
      ['Created At', 'date'],
    ]);
    expect(t.json.rows[0].cells[0]).toBe('x');
    const w = await call('POST', '/api/v1/namespaces/a/configmaps?dryRun=All', {
      body: { metadata: { name: 'z' } },
      accept: 'application/json;as=Table;g=meta.svc.io;v=v1, application/json',
    });
    expect([w.status, w.type]).toEqual([201, 'application/json']);
    expect((await call('GET', '/api/v1/namespaces/a/configmaps', { accept: 'application/json;as=Table;g=meta.svc.io;v=v1' })).status).toBe(
      200,
    );
  });

  it('protobuf answers and bodies for built-in kinds, empty data values kept', async () => {
    await setup();
    const g = await call('GET', '/api/v1/namespaces/a/configmaps/x', { accept: 'application/vnd.svc.protobuf' });
    expect(g.type).toBe('application/vnd.svc.protobuf');
    const d = decodeEnvelope(g.bytes);
    if (!d.ok) throw new Error(d.why);
    expect(d.envelope.typeMeta).toEqual({ apiVersion: 'v1', kind: 'ConfigMap' });
    const obj = decodeObject('ConfigMap', d.envelope.raw);
    expect(obj).toMatchObject({ metadata: { name: 'x', namespace: 'a', labels: { l: 'v' } }, data: { k: 'v', e: '' } });
    expect(typeof (obj['metadata'] as any).creationTimestamp).toBe('string');
    const body = encodeEnvelope({ ...d.envelope, raw: d.envelope.raw }, { writeEmptyStrings: true });
    const put = await call('PUT', '/api/v1/namespaces/a/configmaps/x', {
      body,
      contentType: 'application/vnd.svc.protobuf',
      accept: 'application/json',
    });
    expect([put.status, put.type]).toEqual([200, 'application/json']);
    expect(put.json.data).toEqual({ k: 'v', e: '' });
    const list = decodeEnvelope((await call('GET', '/api/v1/namespaces/a/configmaps', { accept: 'application/vnd.svc.protobuf' })).bytes);
    expect(list.ok && list.envelope.typeMeta.kind).toBe('ConfigMapList');
  });

  it('variations: no Table at all, no protobuf writes', async () => {
    await setup(['no-table-support', 'no-protobuf-writes'] as never[]);
    expect((await call('GET', '/api/v1/namespaces/a/configmaps', { accept: 'application/json;as=Table;g=meta.svc.io;v=v1' })).status).toBe(
      406,
    );
    const g = await call('GET', '/api/v1/namespaces/a/configmaps/x', { accept: 'application/vnd.svc.protobuf' });
    expect(
      (await call('PUT', '/api/v1/namespaces/a/configmaps/x', { body: g.bytes, contentType: 'application/vnd.svc.protobuf' })).status,
    ).toBe(415);
  });
});
