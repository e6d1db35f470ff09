// The reference server's PATCH edges the suites do not reach: unknown patch types, bodies the schema
// cannot place, patches of missing objects, and a custom type served from a stored definition.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type ReferenceServer } from '../../../targets/api-server/index.ts';
import { referenceServer } from '../../helpers/reference-server.ts';
import { profiles } from '../../../reference/profile.ts';
import { crdResource, fixtureCrd, fixtureResource } from '../../../reference/apply/index.ts';
import { collectionPath, objectPath } from '../../../reference/resources.ts';

let server: ReferenceServer;
const send = async (method: string, path: string, body?: string, type = 'application/json') => {
  const r = await fetch(server.url + path, {
    method,
    headers: body === undefined ? {} : { 'content-type': type },
    ...(body === undefined ? {} : { body }),
  });
  return { status: r.status, json: (await r.json()) as Record<string, unknown> };
};

describe('reference server PATCH', () => {
  beforeAll(async () => {
    server = await referenceServer();
    await send('POST', '/api/v1/namespaces', JSON.stringify({ apiVersion: 'v1', kind: 'Namespace', metadata: { name: 'ns' } }));
    await send(
      'POST',
      '/api/v1/namespaces/ns/configmaps',
      JSON.stringify({ apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'c' }, data: { a: '1' } }),
    );
  });
  afterAll(async () => {
    await server?.close();
  });

  it('refuses unknown patch types (415) and patches of missing objects (404)', async () => {
    expect((await send('PATCH', '/api/v1/namespaces/ns/configmaps/c', '{}', 'application/x-unknown-patch+json')).status).toBe(415);
    // Strategic merge is served only where it means a merge patch (no lists, no $ directives).
    expect(
      (
        await send(
          'PATCH',
          '/api/v1/namespaces/ns/configmaps/c',
          '{"$patch":"replace","data":{}}',
          'application/strategic-merge-patch+json',
        )
      ).status,
    ).toBe(415);
    expect((await send('PATCH', '/api/v1/namespaces/ns/configmaps/nope', '{}', 'application/merge-patch+json')).status).toBe(404);
    expect(
      (await send('PATCH', '/api/v1/namespaces/ns/configmaps/c', '[{"op":"remove","path":"/data/zz"}]', 'application/json-patch+json'))
        .status,
    ).toBe(422);
  });

  it('records the default manager from the user agent on POST', async () => {
    const r = await send('GET', '/api/v1/namespaces/ns/configmaps/c');
    const mf = (r.json['metadata'] as { managedFields: { manager: string; operation: string }[] }).managedFields;
    expect(mf.map((e) => `${e.manager}/${e.operation}`)).toEqual(['node/Update']);
  });

  it('serves a type once its definition is stored, and refuses a map-list item without its key (422)', async () => {
    const p = profiles.svc;
    const rt = fixtureResource(p);
    expect((await send('GET', collectionPath(rt, 'ns'))).status).toBe(404);
    expect((await send('POST', collectionPath(crdResource(p)), JSON.stringify(fixtureCrd(p, {})))).status).toBe(201);
    expect((await send('GET', collectionPath(rt, 'ns'))).status).toBe(200);
    const apply = (spec: unknown) =>
      send(
        'PATCH',
        `${objectPath(rt, 'f', 'ns')}?fieldManager=m`,
        JSON.stringify({ apiVersion: `${rt.group}/v1`, kind: rt.kind, metadata: { name: 'f' }, spec }),
        'application/apply-patch+yaml',
      );
    expect((await apply({ mapList: [{ value: 'no key' }] })).status).toBe(422);
    const ok = await apply({ setList: ['x'] });
    expect(ok.status).toBe(201);
    const mf = (ok.json['metadata'] as { managedFields: { fieldsV1: unknown }[] }).managedFields;
    expect(mf[0]!.fieldsV1).toEqual({ 'f:spec': { 'f:setList': { 'v:"x"': {} } } });
  });
});
