// kubectl against `svc-conformance serve --profile k8s`, the command a user starts to try kubectl on
// the reference server, through the kubeconfig it writes: `describe` shows the object's own events
// (kubectl lists them with an involvedObject.* field selector), `get deploy` and `get pods` find
// the workload types through discovery (short names included), and `get -w` prints its header once
// (watch events framed as Tables the way upstream frames them). Skips where kubectl is absent.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { hasKubectl, removeKubectlCache, runKubectl, startKubectl, type Background } from './client-process.ts';
import { configMapsPath, createConfigMap, createNamespace, httpFetch, httpJson, namesOf } from './server-state.ts';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../..');
let serve: ChildProcess | undefined;
let url = '';
let dir = '';
const backgrounds: Background[] = [];
const kubectl = (...args: string[]) => runKubectl(url, args);

/** Starts `serve --profile k8s` and resolves with the URL it prints. */
function startServe(kubeconfig: string): Promise<string> {
  const child = spawn(
    process.execPath,
    [path.join(root, 'bin/svc-conformance.mjs'), 'serve', '--profile', 'k8s', '--kubeconfig-out', kubeconfig],
    { stdio: ['ignore', 'pipe', 'pipe'] },
  );
  serve = child;
  return new Promise((resolve, reject) => {
    let out = '';
    let err = '';
    const timer = setTimeout(() => reject(new Error(`serve printed no URL\nstdout: ${out}\nstderr: ${err}`)), 30_000);
    child.stderr!.setEncoding('utf8').on('data', (d: string) => {
      err += d;
    });
    child.stdout!.setEncoding('utf8').on('data', (d: string) => {
      out += d;
      // The kubeconfig line comes after the URL line: the file is there once it is printed.
      const m = /listening on (http\S+)\n[\s\S]*kubeconfig written/.exec(out);
      if (m) {
        clearTimeout(timer);
        resolve(m[1]!);
      }
    });
    child.once('exit', (code) => reject(new Error(`serve exited (${code})\nstderr: ${err}`)));
  });
}

/** A core/v1 Event about `regarding` (as a controller records one). */
async function recordEvent(
  ns: string,
  name: string,
  regarding: { kind: string; name: string; uid: string },
  reason: string,
): Promise<void> {
  const now = new Date().toISOString().replace(/\.\d+Z$/, 'Z');
  const r = await httpJson(url, `/api/v1/namespaces/${ns}/events`, {
    method: 'POST',
    body: {
      apiVersion: 'v1',
      kind: 'Event',
      metadata: { name, namespace: ns },
      involvedObject: { apiVersion: 'v1', kind: regarding.kind, name: regarding.name, namespace: ns, uid: regarding.uid },
      reason,
      message: `${reason} happened`,
      type: 'Normal',
      source: { component: 'self-test' },
      count: 1,
      firstTimestamp: now,
      lastTimestamp: now,
    },
  });
  expect([200, 201]).toContain(r.status);
}

const uidOf = (body: Record<string, unknown>) => String((body['metadata'] as Record<string, unknown>)['uid']);

describe.skipIf(!hasKubectl)(
  `kubectl against svc-conformance serve --profile k8s${hasKubectl ? '' : ' [skipped: no kubectl on PATH]'}`,
  () => {
    beforeAll(async () => {
      dir = mkdtempSync(path.join(tmpdir(), 'kubectl-serve-'));
      url = await startServe(path.join(dir, 'kubeconfig'));
    }, 40_000);
    afterAll(async () => {
      await Promise.all(backgrounds.splice(0).map((b) => b.stop()));
      if (serve && serve.exitCode === null) {
        const exited = new Promise((r) => serve!.once('exit', r));
        serve.kill('SIGTERM');
        await exited;
      }
      if (dir) rmSync(dir, { recursive: true, force: true });
      removeKubectlCache();
    });

    it('describe lists the events about that object and no other', async () => {
      await createNamespace(url, 'described');
      const x = await createConfigMap(url, 'described', 'x', { k: 'v' });
      const other = await createConfigMap(url, 'described', 'other', { k: 'v' });
      await recordEvent('described', 'x.1', { kind: 'ConfigMap', name: 'x', uid: uidOf(x.body) }, 'ProbedX');
      await recordEvent('described', 'other.1', { kind: 'ConfigMap', name: 'other', uid: uidOf(other.body) }, 'ProbedOther');
      // Same name, another kind: the kind term of the selector must keep it out.
      await recordEvent('described', 'x.2', { kind: 'Secret', name: 'x', uid: 'not-the-configmap' }, 'ProbedSecret');
      const described = await kubectl('-n', 'described', 'describe', 'configmap', 'x', '-v=6');
      expect(described.status, described.stderr).toBe(0);
      expect(described.stderr).toMatch(/events\?fieldSelector=involvedObject\.\S* 200 OK/);
      const events = described.stdout.slice(described.stdout.indexOf('Events:'));
      expect(events).toMatch(/Normal\s+ProbedX\s.*self-test\s+ProbedX happened/);
      expect(events).not.toContain('ProbedOther');
      expect(events).not.toContain('ProbedSecret');
      // A field this type does not select on is refused, as before (400), not ignored.
      const odd = await httpFetch(`${url}${configMapsPath('described')}?fieldSelector=involvedObject.name%3Dx`);
      expect(odd.status).toBe(400);
    });

    it('get deploy and get pods find the workload types through discovery and list what was stored', async () => {
      await createNamespace(url, 'work');
      const created = await kubectl('-n', 'work', 'create', 'deployment', 'web', '--image=nginx');
      expect(created.status, created.stderr).toBe(0);
      const ran = await kubectl('-n', 'work', 'run', 'p1', '--image=nginx', '--restart=Never');
      expect(ran.status, ran.stderr).toBe(0);
      const deploys = await kubectl('-n', 'work', 'get', 'deploy', '-o', 'name');
      expect(deploys.status, deploys.stderr).toBe(0);
      expect(deploys.stdout.trim()).toBe('deployment.apps/web');
      const pods = await kubectl('-n', 'work', 'get', 'po');
      expect(pods.status, pods.stderr).toBe(0);
      expect(
        pods.stdout
          .trim()
          .split('\n')
          .slice(1)
          .map((l) => l.split(/\s+/)[0]),
      ).toEqual(['p1']);
      // kubectl's names match what is stored (plain objects, nothing added by a controller).
      expect(namesOf(await httpJson(url, '/apis/apps/v1/namespaces/work/deployments'))).toEqual(['web']);
      expect(namesOf(await httpJson(url, '/api/v1/namespaces/work/pods'))).toEqual(['p1']);
      const short = await kubectl('api-resources', '--categories=all', '-o', 'name');
      expect(short.stdout.split('\n')).toEqual(
        expect.arrayContaining([
          'pods',
          'replicationcontrollers',
          'deployments.apps',
          'replicasets.apps',
          'statefulsets.apps',
          'daemonsets.apps',
        ]),
      );
    });

    it('get -w prints the header once and one row per change', async () => {
      await createNamespace(url, 'watched');
      await createConfigMap(url, 'watched', 'before', { k: 'v' });
      const watch = startKubectl(url, ['-n', 'watched', 'get', 'configmaps', '-w', '--request-timeout=20s', '-v=6'], 25_000);
      backgrounds.push(watch);
      await watch.waitFor('stderr', /configmaps\?\S*watch=true\S* 200 OK/);
      await createConfigMap(url, 'watched', 'w', { k: '1' });
      await watch.waitFor('stdout', /^w\s/m);
      expect(
        (
          await httpJson(url, configMapsPath('watched', 'w'), {
            method: 'PATCH',
            body: { data: { k: '2' } },
            contentType: 'application/merge-patch+json',
          })
        ).status,
      ).toBe(200);
      expect((await httpJson(url, configMapsPath('watched', 'w'), { method: 'DELETE' })).status).toBe(200);
      await watch.waitFor('stdout', /(^w\s[^\n]*\n[\s\S]*){3}/m);
      await watch.stop();
      const lines = watch.stdout().trim().split('\n');
      expect(
        lines.filter((l) => /^NAME\s/.test(l)),
        watch.stdout(),
      ).toHaveLength(1);
      expect(lines[0]).toMatch(/^NAME\s/);
      expect(lines.slice(1).map((l) => l.split(/\s+/)[0])).toEqual(['before', 'w', 'w', 'w']);
    });

    it("watch events asked as Tables carry one row each and the columns of the list's Table", async () => {
      await createNamespace(url, 'framed');
      await createConfigMap(url, 'framed', 'a', { k: 'v' });
      const accept = 'application/json;as=Table;v=v1;g=meta.k8s.io,application/json';
      const listed = (await (await httpFetch(`${url}${configMapsPath('framed')}`, { headers: { accept } })).json()) as {
        columnDefinitions: unknown;
      };
      const ac = new AbortController();
      const res = await fetch(`${url}${configMapsPath('framed')}?watch=true`, { signal: ac.signal, headers: { accept } });
      expect(res.status).toBe(200);
      const reader = res.body!.getReader();
      let text = '';
      await createConfigMap(url, 'framed', 'b', { k: 'v' });
      while (text.split('\n').length < 3) text += new TextDecoder().decode((await reader.read()).value);
      ac.abort();
      const events = text
        .split('\n')
        .slice(0, 2)
        .map((l) => JSON.parse(l) as { type: string; object: { kind: string; columnDefinitions: unknown; rows: { cells: unknown[] }[] } });
      expect(events.map((e) => [e.type, e.object.kind, e.object.rows.map((r) => r.cells[0])])).toEqual([
        ['ADDED', 'Table', ['a']],
        ['ADDED', 'Table', ['b']],
      ]);
      for (const e of events) expect(e.object.columnDefinitions).toEqual(listed.columnDefinitions);
    });

    it('get NAME --watch-only --output-watch-events prints the change with its cells (kubectl drops the first event)', async () => {
      await createNamespace(url, 'one');
      await createConfigMap(url, 'one', 'solo', { k: '1' });
      const watch = startKubectl(
        url,
        ['-n', 'one', 'get', 'configmap', 'solo', '--watch-only', '--output-watch-events', '--request-timeout=20s', '-v=6'],
        25_000,
      );
      backgrounds.push(watch);
      await watch.waitFor('stderr', /configmaps\?\S*watch=true\S* 200 OK/);
      expect(
        (
          await httpJson(url, configMapsPath('one', 'solo'), {
            method: 'PATCH',
            body: { data: { k: '2' } },
            contentType: 'application/merge-patch+json',
          })
        ).status,
      ).toBe(200);
      await watch.waitFor('stdout', /^MODIFIED\s+solo\s/m);
      await watch.stop();
    });
  },
);
