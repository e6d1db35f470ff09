// What real clients needed from the reference server, checked over plain HTTP so it holds on
// machines without kubectl: watches honour fieldSelector (kubectl get NAME --watch, kubectl wait),
// the list-free subset of strategic merge patch (kubectl patch, client-side kubectl apply), and a
// dry-run DELETE stated in the DeleteOptions body (kubectl delete --dry-run=server).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type ReferenceServer } from '../../../targets/api-server/index.ts';
import { referenceServer } from '../../helpers/reference-server.ts';
import { configMapsPath, createConfigMap, createNamespace, httpJson } from './server-state.ts';

let server: ReferenceServer;
const smp = (name: string, body: unknown) =>
  httpJson(server.url, configMapsPath('fix', name), { method: 'PATCH', body, contentType: 'application/strategic-merge-patch+json' });

/** Reads watch events until `count` arrived or the time is up, then ends the watch. */
async function watchEvents(
  query: string,
  during: () => Promise<void>,
  count: number,
): Promise<{ status: number; events: { type: string; object: { metadata: { name: string } } }[] }> {
  const ac = new AbortController();
  const timer = setTimeout(() => ac.abort(), 5_000);
  const res = await fetch(`${server.url}${configMapsPath('fix')}?watch=true&${query}`, { signal: ac.signal });
  const events: { type: string; object: { metadata: { name: string } } }[] = [];
  try {
    if (res.status !== 200) return { status: res.status, events };
    const reader = res.body!.getReader();
    await during();
    let text = '';
    while (events.length < count) {
      const { value, done } = await reader.read();
      if (done) break;
      text += new TextDecoder().decode(value);
      const lines = text.split('\n');
      text = lines.pop()!;
      for (const l of lines) if (l.trim()) events.push(JSON.parse(l));
    }
    return { status: res.status, events };
  } catch (e) {
    if (ac.signal.aborted) return { status: res.status, events };
    throw e;
  } finally {
    clearTimeout(timer);
    ac.abort();
  }
}

describe('reference-server behaviour real clients needed', () => {
  beforeAll(async () => {
    server = await referenceServer({ profile: 'k8s' });
    await createNamespace(server.url, 'fix');
    await createConfigMap(server.url, 'fix', 'target', { a: '1' });
    await createConfigMap(server.url, 'fix', 'other', { a: '1' });
  });
  afterAll(async () => {
    await server?.close();
  });

  it('a watch with fieldSelector=metadata.name=X reports X only', async () => {
    const rv = String(((await httpJson(server.url, configMapsPath('fix'))).body['metadata'] as Record<string, unknown>)['resourceVersion']);
    const w = await watchEvents(
      `fieldSelector=${encodeURIComponent('metadata.name=target')}&resourceVersion=${rv}`,
      async () => {
        await createConfigMap(server.url, 'fix', 'noise', { a: '1' });
        expect(
          (
            await httpJson(server.url, configMapsPath('fix', 'other'), {
              method: 'PATCH',
              body: { data: { a: '2' } },
              contentType: 'application/merge-patch+json',
            })
          ).status,
        ).toBe(200);
        expect(
          (
            await httpJson(server.url, configMapsPath('fix', 'target'), {
              method: 'PATCH',
              body: { data: { a: '2' } },
              contentType: 'application/merge-patch+json',
            })
          ).status,
        ).toBe(200);
      },
      1,
    );
    expect(w.events.map((e) => `${e.type} ${e.object.metadata.name}`)).toEqual(['MODIFIED target']);
  });

  it('a watch with a field selector the server cannot evaluate is refused with 400, not ignored', async () => {
    expect((await watchEvents(`fieldSelector=${encodeURIComponent('spec.nodeName=x')}`, async () => {}, 0)).status).toBe(400);
  });

  it('a DELETE whose DeleteOptions body says dryRun: [All] deletes nothing; an unknown value is refused', async () => {
    await createConfigMap(server.url, 'fix', 'survivor', { a: '1' });
    const options = (dryRun: string[]) => ({ method: 'DELETE', body: { kind: 'DeleteOptions', apiVersion: 'v1', dryRun } });
    expect((await httpJson(server.url, configMapsPath('fix', 'survivor'), options(['All']))).status).toBe(200);
    expect((await httpJson(server.url, configMapsPath('fix', 'survivor'))).status).toBe(200);
    expect((await httpJson(server.url, configMapsPath('fix', 'survivor'), options(['Bogus']))).status).toBe(400);
    expect((await httpJson(server.url, configMapsPath('fix', 'survivor'))).status).toBe(200);
    expect((await httpJson(server.url, configMapsPath('fix', 'survivor'), options([]))).status).toBe(200);
    expect((await httpJson(server.url, configMapsPath('fix', 'survivor'))).status).toBe(404);
  });

  it('a strategic merge patch without lists or directives is applied as a merge patch', async () => {
    const r = await smp('target', { data: { b: '2', a: null }, metadata: { labels: { l: 'v' } } });
    expect(r.status).toBe(200);
    const stored = (await httpJson(server.url, configMapsPath('fix', 'target'))).body;
    expect(stored['data']).toEqual({ b: '2' });
    expect((stored['metadata'] as Record<string, unknown>)['labels']).toEqual({ l: 'v' });
  });

  it('a strategic merge patch with lists or $ directives is refused with 415 and changes nothing', async () => {
    const before = (await httpJson(server.url, configMapsPath('fix', 'other'))).body;
    expect((await smp('other', { metadata: { finalizers: ['x'] } })).status).toBe(415);
    expect((await smp('other', { data: { $patch: 'replace', a: '3' } })).status).toBe(415);
    expect((await smp('other', ['not', 'an', 'object'])).status).toBe(415);
    expect((await httpJson(server.url, configMapsPath('fix', 'other'))).body).toEqual(before);
  });
});
