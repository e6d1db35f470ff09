// Why: a remainingItemCount failure once read "expected 2, observed 1" while a
// third object, made by the cluster's own controller, sat in the namespace and appeared nowhere in the
// report. Here a stand-in controller (a proxy in front of the faulty server) puts an object of its own
// in every namespace the suite creates, before the suite hears back; the counterexample must list
// every item of every page, that object included and named as not created by the suite.
import { describe, expect, it } from 'vitest';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { referenceServer } from '../helpers/reference-server.ts';
import { runPlanned } from '../helpers/planned-run.ts';
import { answerLines } from '../../reports/answer-diff.ts';

const FOREIGN = 'made-by-a-controller';

/** Forwards everything; a namespace created through it gets a ConfigMap without the run's labels first. */
async function controllerProxy(backend: string): Promise<{ url: string; close: () => Promise<void> }> {
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', async () => {
      const body = Buffer.concat(chunks);
      const headers = Object.fromEntries(
        Object.entries(req.headers)
          .filter(([k]) => !['host', 'connection', 'content-length', 'transfer-encoding'].includes(k))
          .map(([k, v]) => [k, String(v)]),
      );
      const r = await fetch(`${backend}${req.url}`, { method: req.method!, headers, ...(body.length > 0 ? { body } : {}) });
      const text = Buffer.from(await r.arrayBuffer());
      if (req.method === 'POST' && req.url === '/api/v1/namespaces' && r.status === 201) {
        const ns = (JSON.parse(text.toString('utf8')) as { metadata: { name: string } }).metadata.name;
        await fetch(`${backend}/api/v1/namespaces/${ns}/configmaps`, {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body: JSON.stringify({ apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: FOREIGN }, data: { by: 'controller' } }),
        });
      }
      const out: Record<string, string> = {};
      r.headers.forEach((v, k) => {
        if (!['content-length', 'transfer-encoding', 'connection', 'content-encoding'].includes(k)) out[k] = v;
      });
      res.writeHead(r.status, out).end(text);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
}

describe('a paging counterexample names every item of every page', () => {
  it('including the object a controller made, marked as not created by the suite', async () => {
    const target = await referenceServer({ faults: ['remaining-off-by-one'] });
    const proxy = await controllerProxy(target.url);
    try {
      const { records } = await runPlanned({
        options: { server: proxy.url, eventualWindow: 600, check: ['paging-snapshot'], runs: 40 },
        seed: 20261126,
        runId: 'tforeign',
        settings: { watchWaitMs: 600 },
      });
      const cx = records.find((r) => r.verdict === 'fail' && r.clause === 'rest:4.4.6')?.counterexample;
      expect(
        cx,
        JSON.stringify(records.filter((r) => r.verdict !== 'pass').map((r) => [r.clause, r.verdict, r.note ?? r.counterexample?.observed])),
      ).toBeDefined();
      const pages = cx!.answers!.filter((a) => a.items !== undefined);
      expect(pages.length).toBeGreaterThan(1);
      const listed = pages.flatMap((p) => p.items!);
      // The controller's object is on a page, named, and marked; the suite's own objects are not marked.
      expect(listed.filter((i) => i.name === FOREIGN).map((i) => i.notCreatedBySuite)).toEqual([true]);
      expect(listed.filter((i) => i.name !== FOREIGN).every((i) => i.notCreatedBySuite === undefined)).toBe(true);
      // Every object the case created is on some page too (the snapshot is whole).
      const created = cx!
        .answers!.filter((a) => a.call.startsWith('POST ') && a.call.includes('/configmaps') && a.status === 201)
        .map((a) => a.name);
      expect(created.length).toBeGreaterThan(0);
      for (const n of created) expect(listed.map((i) => i.name)).toContain(n);
      // And the report says so in its lines.
      expect(answerLines(cx!).join('\n')).toMatch(new RegExp(`${FOREIGN}@\\S+ \\(not created by the suite\\)`));
    } finally {
      await proxy.close();
      await target.close();
    }
  }, 240_000);
});
