// A change is serialised once for every plain watcher of its type: each still gets its own events,
// in its own scope and order, and a watcher that asked for Tables still gets Tables.
import { afterEach, describe, expect, it } from 'vitest';
import { type ReferenceServer } from '../../../targets/api-server/index.ts';
import { referenceServer } from '../../helpers/reference-server.ts';
import { JsonDocumentStream } from '../../../harness/transport/json-stream.ts';

let server: ReferenceServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

type Ev = {
  type: string;
  object: { kind?: string; metadata?: { name?: string; labels?: Record<string, string> }; data?: Record<string, string> };
};

/** Reads a watch until `count` events (BOOKMARKs aside) have come. */
async function watch(url: string, accept: string, ready: Promise<void>[], count: number): Promise<Ev[]> {
  const ctl = new AbortController();
  const res = await fetch(url, { headers: { accept }, signal: ctl.signal });
  const reader = res.body!.getReader();
  const parser = new JsonDocumentStream();
  const events: Ev[] = [];
  ready.push(Promise.resolve());
  while (events.length < count) {
    const { value, done } = await reader.read();
    if (done) break;
    events.push(...(parser.push(value) as Ev[]).filter((e) => e.type !== 'BOOKMARK'));
  }
  ctl.abort();
  return events;
}

describe('watch fan-out', () => {
  it('plain watchers of one collection get the same events; a label-selected one only its own; a Table watcher Tables', async () => {
    server = await referenceServer();
    const send = (method: string, path: string, body?: unknown, type = 'application/json') =>
      fetch(server!.url + path, {
        method,
        headers: { 'content-type': type },
        ...(body !== undefined ? { body: JSON.stringify(body) } : {}),
      }).then((r) => r.status);
    expect(await send('POST', '/api/v1/namespaces', { apiVersion: 'v1', kind: 'Namespace', metadata: { name: 'w' } })).toBe(201);
    const col = `${server.url}/api/v1/namespaces/w/configmaps?watch=1`;
    const ready: Promise<void>[] = [];
    const plain = [watch(col, 'application/json', ready, 5), watch(col, 'application/json', ready, 5)];
    const selected = watch(`${col}&labelSelector=pick%3Dyes`, 'application/json', ready, 3);
    const table = watch(col, 'application/json;as=Table;v=v1;g=meta.svc.io, application/json', ready, 5);
    await new Promise((r) => setTimeout(r, 300));
    const cm = (name: string, labels: Record<string, string>, v: string) => ({
      apiVersion: 'v1',
      kind: 'ConfigMap',
      metadata: { name, labels },
      data: { v: 'x'.repeat(10_000) + v },
    });
    expect(await send('POST', '/api/v1/namespaces/w/configmaps', cm('a', { pick: 'yes' }, '1'))).toBe(201);
    expect(await send('POST', '/api/v1/namespaces/w/configmaps', cm('b', {}, '1'))).toBe(201);
    expect(await send('PUT', '/api/v1/namespaces/w/configmaps/a', cm('a', { pick: 'yes' }, '2'))).toBe(200);
    expect(await send('PUT', '/api/v1/namespaces/w/configmaps/b', cm('b', { pick: 'yes' }, '2'))).toBe(200);
    expect(await send('DELETE', '/api/v1/namespaces/w/configmaps/a')).toBe(200);
    const [one, two] = await Promise.all(plain);
    expect(one!.map((e) => `${e.type} ${e.object.metadata?.name}`)).toEqual([
      'ADDED a',
      'ADDED b',
      'MODIFIED a',
      'MODIFIED b',
      'DELETED a',
    ]);
    expect(two).toEqual(one);
    expect(one![2]!.object.data?.['v']?.endsWith('2')).toBe(true);
    // b enters the selector's scope by its update: ADDED there, MODIFIED for everyone else.
    expect((await selected).map((e) => `${e.type} ${e.object.metadata?.name}`)).toEqual(['ADDED a', 'MODIFIED a', 'ADDED b']);
    expect((await table).map((e) => `${e.type} ${e.object.kind}`)).toEqual([
      'ADDED Table',
      'ADDED Table',
      'MODIFIED Table',
      'MODIFIED Table',
      'DELETED Table',
    ]);
  });
});
