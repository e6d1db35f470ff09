// What real components need from the reference server, over plain HTTP: the system
// namespaces, the namespace lifecycle a real namespace controller drives, deletecollection, the
// review APIs, protobuf bodies of the kinds real clients send (and 415 for custom resources,
// rest:4.8), and the OpenAPI documents. Each rule is also shown failing where it should fail.
import { afterEach, describe, expect, it } from 'vitest';
import { type ReferenceServer } from '../../../targets/api-server/index.ts';
import { referenceServer } from '../../helpers/reference-server.ts';
import { profiles, systemNamespaces, type ProfileName } from '../../../reference/profile.ts';
import { encodeEnvelope } from '../../../reference/protobuf-envelope.ts';
import { encodeObject } from '../../../targets/api-server/protobuf-objects.ts';
import { createConfigMap, createNamespace, httpJson, namesOf } from '../clients/server-state.ts';

const servers: ReferenceServer[] = [];
afterEach(async () => {
  for (const s of servers.splice(0)) await s.close();
});
async function start(profile: ProfileName, builtInNamespaceController = true): Promise<string> {
  const s = await referenceServer({ profile: profiles[profile], builtInNamespaceController });
  servers.push(s);
  return s.url;
}

const protobufBody = (profile: ProfileName, apiVersion: string, kind: string, obj: Record<string, unknown>) =>
  Buffer.from(encodeEnvelope({ typeMeta: { apiVersion, kind }, raw: encodeObject(kind, obj), contentEncoding: '', contentType: '' }));

describe.each(['svc', 'k8s'] as const)('profile %s', (profile) => {
  const p = profiles[profile];

  it('has the system namespaces from the start, Active', async () => {
    const url = await start(profile);
    const list = await httpJson(url, '/api/v1/namespaces');
    expect(namesOf(list).sort()).toEqual([...systemNamespaces(p)].sort());
    expect(systemNamespaces(p)).toContain(p.systemNamespace);
    const sys = await httpJson(url, `/api/v1/namespaces/${p.systemNamespace}`);
    expect(sys.body['status']).toEqual({ phase: 'Active' });
  });

  it('takes protobuf bodies of core Events and Leases in the system namespace', async () => {
    const url = await start(profile);
    const lease = protobufBody(profile, `coordination.${p.groupSuffix}/v1`, 'Lease', {
      metadata: { name: 'cm' },
      spec: { holderIdentity: 'me', leaseDurationSeconds: 15 },
    });
    const res = await fetch(`${url}/apis/coordination.${p.groupSuffix}/v1/namespaces/${p.systemNamespace}/leases`, {
      method: 'POST',
      headers: { 'content-type': p.protobufMediaType, accept: 'application/json' },
      body: lease,
    });
    expect(res.status).toBe(201);
    expect(((await res.json()) as { spec: unknown }).spec).toEqual({ holderIdentity: 'me', leaseDurationSeconds: 15 });
    // What the controller manager's event recorder sends (its zero eventTime is checked with the real one, controller-manager.test.ts).
    const event = protobufBody(profile, 'v1', 'Event', {
      metadata: { name: 'e1' },
      involvedObject: { kind: 'Lease', name: 'cm' },
      reason: 'LeaderElection',
      count: 1,
      type: 'Normal',
      firstTimestamp: '2024-01-02T03:04:05Z',
    });
    const ev = await fetch(`${url}/api/v1/namespaces/${p.systemNamespace}/events`, {
      method: 'POST',
      headers: { 'content-type': profiles.k8s.protobufMediaType, accept: 'application/json' },
      body: event,
    });
    expect(ev.status).toBe(201);
    const stored = (await ev.json()) as Record<string, unknown>;
    expect(stored['reason']).toBe('LeaderElection');
    expect(stored['involvedObject']).toEqual({ kind: 'Lease', name: 'cm' });
    expect(stored['firstTimestamp']).toBe('2024-01-02T03:04:05Z');
  });

  it('answers every access review allowed, stores none', async () => {
    const url = await start(profile);
    const path = `/apis/authorization.${p.groupSuffix}/v1/selfsubjectaccessreviews`;
    const r = await httpJson(url, path, {
      method: 'POST',
      body: {
        apiVersion: `authorization.${p.groupSuffix}/v1`,
        kind: 'SelfSubjectAccessReview',
        spec: { resourceAttributes: { verb: 'get', resource: 'configmaps' } },
      },
    });
    expect(r.status).toBe(201);
    expect(r.body['status']).toMatchObject({ allowed: true });
    expect((await httpJson(url, path)).body['items'] ?? []).toEqual([]);
  });
});

describe('namespace lifecycle with an external namespace controller (k8s profile)', () => {
  it('DELETE leaves it Terminating with its content until finalize removes the last finalizer', async () => {
    const url = await start('k8s', false);
    await createNamespace(url, 'doomed');
    await createConfigMap(url, 'doomed', 'a', { k: 'v' });
    const del = await httpJson(url, '/api/v1/namespaces/doomed', { method: 'DELETE' });
    expect(del.status).toBe(200);
    const ns = await httpJson(url, '/api/v1/namespaces/doomed');
    expect(ns.body['status']).toMatchObject({ phase: 'Terminating' });
    expect(ns.body['spec']).toEqual({ finalizers: ['kubernetes'] });
    expect((await httpJson(url, '/api/v1/namespaces/doomed/configmaps/a')).status).toBe(200);
    // No new content in a terminating namespace.
    await expect(createConfigMap(url, 'doomed', 'b', {})).rejects.toThrow(/403/);
    // What the namespace controller does: deletecollection of each type, then finalize.
    expect((await httpJson(url, '/api/v1/namespaces/doomed/configmaps', { method: 'DELETE' })).status).toBe(200);
    expect((await httpJson(url, '/api/v1/namespaces/doomed/configmaps/a')).status).toBe(404);
    const keep = await httpJson(url, '/api/v1/namespaces/doomed/status', {
      method: 'PUT',
      body: { ...ns.body, status: { phase: 'Terminating', conditions: [] } },
    });
    expect(keep.status).toBe(200);
    expect((await httpJson(url, '/api/v1/namespaces/doomed')).status).toBe(200);
    const fin = await httpJson(url, '/api/v1/namespaces/doomed/finalize', {
      method: 'PUT',
      body: { apiVersion: 'v1', kind: 'Namespace', metadata: { name: 'doomed' }, spec: { finalizers: [] } },
    });
    expect(fin.status).toBe(200);
    expect((await httpJson(url, '/api/v1/namespaces/doomed')).status).toBe(404);
  });

  it('the built-in controller (default) empties and removes at once, every type included', async () => {
    const url = await start('k8s');
    await createNamespace(url, 'gone');
    const ev = await httpJson(url, '/api/v1/namespaces/gone/events', {
      method: 'POST',
      body: { apiVersion: 'v1', kind: 'Event', metadata: { name: 'e' }, reason: 'R' },
    });
    expect(ev.status).toBe(201);
    await httpJson(url, '/api/v1/namespaces/gone', { method: 'DELETE' });
    expect((await httpJson(url, '/api/v1/namespaces/gone')).status).toBe(404);
    expect(namesOf(await httpJson(url, '/api/v1/events'))).toEqual([]);
  });

  it('deletecollection honours the label selector', async () => {
    const url = await start('k8s');
    await createNamespace(url, 'sel');
    await httpJson(url, '/api/v1/namespaces/sel/configmaps', {
      method: 'POST',
      body: { metadata: { name: 'x', labels: { drop: 'yes' } } },
    });
    await createConfigMap(url, 'sel', 'y', {});
    await httpJson(url, '/api/v1/namespaces/sel/configmaps?labelSelector=drop%3Dyes', { method: 'DELETE' });
    expect(namesOf(await httpJson(url, '/api/v1/namespaces/sel/configmaps'))).toEqual(['y']);
  });
});

describe('protobuf for custom resources and the metadata client', () => {
  it('415 for a protobuf body of a custom resource (rest:4.8), the same body accepted for a built-in kind', async () => {
    const url = await start('k8s');
    const crd = {
      apiVersion: 'apiextensions.k8s.io/v1',
      kind: 'CustomResourceDefinition',
      metadata: { name: 'configmaps.example.com' },
      spec: {
        group: 'example.com',
        scope: 'Namespaced',
        names: { plural: 'configmaps', kind: 'ConfigMap' },
        versions: [
          {
            name: 'v1',
            served: true,
            storage: true,
            schema: { openAPIV3Schema: { type: 'object', 'x-kubernetes-preserve-unknown-fields': true } },
          },
        ],
      },
    };
    expect((await httpJson(url, '/apis/apiextensions.k8s.io/v1/customresourcedefinitions', { method: 'POST', body: crd })).status).toBe(
      201,
    );
    const body = protobufBody('k8s', 'v1', 'ConfigMap', { metadata: { name: 'c' }, data: { k: 'v' } });
    const post = (path: string) =>
      fetch(url + path, { method: 'POST', headers: { 'content-type': profiles.k8s.protobufMediaType, accept: 'application/json' }, body });
    const custom = await post('/apis/example.com/v1/namespaces/default/configmaps');
    expect(custom.status).toBe(415);
    expect(((await custom.json()) as { message: string }).message).toMatch(/custom resources/);
    expect((await post('/api/v1/namespaces/default/configmaps')).status).toBe(201);
  });

  it('a PartialObjectMetadataList Accept gets the plain JSON list, never a protobuf the client cannot read', async () => {
    const url = await start('k8s');
    const accept =
      'application/vnd.kubernetes.protobuf;as=PartialObjectMetadataList;g=meta.k8s.io;v=v1,application/json;as=PartialObjectMetadataList;g=meta.k8s.io;v=v1,application/json';
    const res = await fetch(`${url}/api/v1/namespaces`, { headers: { accept } });
    expect(res.headers.get('content-type')).toBe('application/json');
    expect(((await res.json()) as { kind: string }).kind).toBe('NamespaceList');
    // The same list with a plain protobuf Accept is protobuf: the exception is only the conversion.
    const pb = await fetch(`${url}/api/v1/namespaces`, { headers: { accept: profiles.k8s.protobufMediaType } });
    expect(pb.headers.get('content-type')).toBe(profiles.k8s.protobufMediaType);
    await pb.arrayBuffer();
  });
});

describe('OpenAPI documents', () => {
  it('v3 lists a document per served group version, custom ones included, with fieldValidation on PATCH', async () => {
    const url = await start('k8s');
    const crd = {
      apiVersion: 'apiextensions.k8s.io/v1',
      kind: 'CustomResourceDefinition',
      metadata: { name: 'widgets.example.com' },
      spec: {
        group: 'example.com',
        scope: 'Namespaced',
        names: { plural: 'widgets', kind: 'Widget' },
        versions: [
          {
            name: 'v1',
            served: true,
            storage: true,
            schema: { openAPIV3Schema: { type: 'object', properties: { spec: { type: 'object', description: 'wishes' } } } },
          },
        ],
      },
    };
    const before = await httpJson(url, '/openapi/v3');
    expect(Object.keys(before.body['paths'] as object)).toEqual(
      expect.arrayContaining(['api/v1', 'apis/coordination.k8s.io/v1', 'apis/apps/v1']),
    );
    expect(Object.keys(before.body['paths'] as object)).not.toContain('apis/example.com/v1');
    await httpJson(url, '/apis/apiextensions.k8s.io/v1/customresourcedefinitions', { method: 'POST', body: crd });
    const paths = (await httpJson(url, '/openapi/v3')).body['paths'] as Record<string, { serverRelativeURL: string }>;
    const doc = await httpJson(url, paths['apis/example.com/v1']!.serverRelativeURL);
    const schemas = (doc.body['components'] as { schemas: Record<string, Record<string, unknown>> }).schemas;
    const widget = Object.values(schemas).find(
      (s) =>
        JSON.stringify(s['x-kubernetes-group-version-kind']) === JSON.stringify([{ group: 'example.com', version: 'v1', kind: 'Widget' }]),
    );
    expect((widget?.['properties'] as Record<string, { description?: string }>)['spec']?.description).toBe('wishes');
    const patch = (doc.body['paths'] as Record<string, { patch?: { parameters: { name: string; in: string }[] } }>)[
      '/apis/example.com/v1/namespaces/{namespace}/widgets/{name}'
    ]?.patch;
    expect(patch?.parameters).toContainEqual(expect.objectContaining({ name: 'fieldValidation', in: 'query' }));
    expect((await httpJson(url, '/openapi/v3/apis/nothing.example.com/v1')).status).toBe(404);
  });

  it('v2 in JSON, and 406 for the protobuf-only Accept kubectl sends first', async () => {
    const url = await start('svc');
    const json = await httpJson(url, '/openapi/v2');
    expect(json.status).toBe(200);
    expect(json.body['swagger']).toBe('2.0');
    expect(JSON.stringify(json.body)).not.toContain('#/components/');
    const pb = await fetch(`${url}/openapi/v2`, { headers: { accept: 'application/com.github.proto-openapi.spec.v2@v1.0+protobuf' } });
    expect(pb.status).toBe(406);
    await pb.arrayBuffer();
  });
});
