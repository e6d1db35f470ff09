// The legal-variation self-tests (test/oracle/variation-cases.ts) run against a variation only the
// checks whose requests pass its decision point in an unvaried run. That is sound only if every varied
// behaviour is decided at a point the server reports: these tests pin the reports and the rule that
// no variation is read past them.
import { readdirSync, readFileSync } from 'node:fs';
import { afterEach, describe, expect, it } from 'vitest';
import { type ReferenceServer, type VariationName } from '../../../targets/api-server/index.ts';
import { referenceServer } from '../../helpers/reference-server.ts';
import { mapTypeOwnedIn, schemaChangeCrd, schemaChangeResource, schemaChangeVersions } from '../../../reference/apply/index.ts';
import { profiles } from '../../../reference/profile.ts';

let server: ReferenceServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

async function observing(variations: VariationName[] = []): Promise<{
  passed: Set<VariationName>;
  call: (method: string, path: string, o?: { body?: unknown; accept?: string }) => Promise<number>;
}> {
  const passed = new Set<VariationName>();
  server = await referenceServer({ variations, onVariationPoint: (v) => passed.add(v) });
  const call = async (method: string, path: string, o: { body?: unknown; accept?: string } = {}) => {
    const r = await fetch(server!.url + path, {
      method,
      headers: { 'content-type': 'application/json', ...(o.accept ? { accept: o.accept } : {}) },
      ...(o.body !== undefined ? { body: JSON.stringify(o.body) } : {}),
    });
    await r.arrayBuffer();
    return r.status;
  };
  return { passed, call };
}

describe('variation decision points', () => {
  it('a request reports the points it passes, and only those', async () => {
    const { passed, call } = await observing();
    expect(await call('POST', '/api/v1/namespaces', { body: { metadata: { name: 'a' } } })).toBe(201);
    for (const name of ['x', 'y'])
      expect(await call('POST', '/api/v1/namespaces/a/configmaps', { body: { metadata: { name } } })).toBe(201);
    expect(await call('GET', '/api/v1/namespaces/a/configmaps', { accept: 'application/json' })).toBe(200);
    // Every request may be delayed or throttled; a list of two may come in another order.
    for (const v of ['latency', 'retry-after-429', 'shuffled-order', 'status-200-on-create'] as const) expect(passed).toContain(v);
    // Nothing here asked for a partial wildcard, a protected group's definition or a conflict.
    for (const v of ['subtype-wildcard-406', 'crd-protected-groups', 'conflict-as-422', 'dry-run-flag-persists'] as const)
      expect(passed).not.toContain(v);
    passed.clear();
    // The same Accept again: a remembered choice must report its points too.
    for (let i = 0; i < 2; i++) {
      passed.delete('subtype-wildcard-406');
      expect(await call('GET', '/api/v1/namespaces/a/configmaps', { accept: 'application/*' })).toBe(200);
      expect(passed).toContain('subtype-wildcard-406');
    }
  });

  it('a definition in a protected group passes its point; one in another group does not', async () => {
    const { passed, call } = await observing(['crd-protected-groups']);
    const crd = (group: string) => ({
      apiVersion: 'apiextensions.svc.io/v1',
      kind: 'CustomResourceDefinition',
      metadata: { name: `widgets.${group}` },
      spec: {
        group,
        scope: 'Namespaced',
        names: { plural: 'widgets', singular: 'widget', kind: 'Widget' },
        versions: [
          {
            name: 'v1',
            served: true,
            storage: true,
            schema: { openAPIV3Schema: { type: 'object', 'x-kubernetes-preserve-unknown-fields': true } },
          },
        ],
      },
    });
    expect(await call('POST', '/apis/apiextensions.svc.io/v1/customresourcedefinitions', { body: crd('example.com') })).toBe(201);
    expect(passed).not.toContain('crd-protected-groups');
    expect(await call('POST', '/apis/apiextensions.svc.io/v1/customresourcedefinitions', { body: crd('things.svc.io') })).toBe(422);
    expect(passed).toContain('crd-protected-groups');
  });

  it('a changed definition schema passes its point for a while after the change; varied, every other request meets the previous schema', async () => {
    const { passed, call } = await observing(['crd-schema-change-lags']);
    const rt = schemaChangeResource(profiles.svc, 'lag');
    const crdPath = `/apis/apiextensions.svc.io/v1/customresourcedefinitions/${rt.plural}.${rt.group}`;
    expect(
      await call('POST', '/apis/apiextensions.svc.io/v1/customresourcedefinitions', {
        body: schemaChangeCrd(profiles.svc, 'granular', { 'svc-conformance/run': 'lag' }),
      }),
    ).toBe(201);
    expect(await call('POST', '/api/v1/namespaces', { body: { metadata: { name: 'a' } } })).toBe(201);
    const owned = async (i: number) => {
      const path = `/apis/${rt.group}/v1/namespaces/a/${rt.plural}/p${i}?fieldManager=probe`;
      const r = await fetch(server!.url + path, {
        method: 'PATCH',
        headers: { 'content-type': 'application/apply-patch+yaml' },
        body: JSON.stringify({ apiVersion: `${rt.group}/v1`, kind: rt.kind, metadata: { name: `p${i}` }, spec: { m: { x: String(i) } } }),
      });
      const o = (await r.json()) as { metadata: { managedFields: { fieldsV1: unknown }[] } };
      return mapTypeOwnedIn(o.metadata.managedFields[0]!.fieldsV1);
    };
    expect(await owned(0)).toBe('granular');
    expect(passed).not.toContain('crd-schema-change-lags');
    const patch = { spec: { versions: schemaChangeVersions(profiles.svc, 'atomic') } };
    const r = await fetch(server!.url + crdPath, {
      method: 'PATCH',
      headers: { 'content-type': 'application/merge-patch+json' },
      body: JSON.stringify(patch),
    });
    expect(r.status).toBe(200);
    const seen = [await owned(1), await owned(2), await owned(3), await owned(4)];
    expect(passed).toContain('crd-schema-change-lags');
    expect(new Set(seen)).toEqual(new Set(['granular', 'atomic']));
    await new Promise((done) => setTimeout(done, 400));
    expect([await owned(5), await owned(6)]).toEqual(['atomic', 'atomic']);
  });

  it('no server file reads a variation except through its decision point', () => {
    const dir = new URL('../../../targets/api-server/', import.meta.url);
    const readers = readdirSync(dir)
      .filter((f) => f.endsWith('.ts'))
      .flatMap((f) =>
        readFileSync(new URL(f, dir), 'utf8')
          .split('\n')
          .map((line, i) => ({ where: `${f}:${i + 1}`, line }))
          .filter(({ line }) => /variations\.has\(|\.variations\b/.test(line)),
      )
      .map(({ where }) => where);
    // state.ts defines `varies`; the codec is built with its two formats and reports them itself (encoding.ts).
    expect(readers.filter((w) => !w.startsWith('state.ts:') && !w.startsWith('server.ts:'))).toEqual([]);
    // Each read in server.ts is an argument of the codec's construction: the nearest call opened above it is makeCodec(.
    const serverLines = readFileSync(new URL('server.ts', dir), 'utf8').split('\n');
    const serverReads = serverLines.flatMap((line, i) => (/variations\.has\(/.test(line) ? [i] : []));
    expect(serverReads.length).toBeGreaterThan(0);
    const insideMakeCodec = (i: number) => serverLines.slice(Math.max(0, i - 4), i + 1).some((l) => l.includes('makeCodec('));
    expect(serverReads.filter((i) => !insideMakeCodec(i)).map((i) => `server.ts:${i + 1}`)).toEqual([]);
  });
});
