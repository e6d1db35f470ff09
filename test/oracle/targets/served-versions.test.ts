// The reference server's release, --runtime-config, deprecation signals and events/v1 validation: the
// behaviour the versioning checks rely on, seen directly.
import { afterEach, describe, expect, it } from 'vitest';
import { type ReferenceServer } from '../../../targets/api-server/index.ts';
import { referenceServer } from '../../helpers/reference-server.ts';
import { profiles } from '../../../reference/profile.ts';
import { parsePrometheusText, parseWarnings } from '../../../reference/versioning/deprecation-signals.ts';

let server: ReferenceServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

const start = async (o: { release?: string; runtimeConfig?: string; profile?: 'svc' | 'k8s' } = {}) => {
  server = await referenceServer({
    profile: profiles[o.profile ?? 'svc'],
    ...(o.release ? { release: o.release } : {}),
    ...(o.runtimeConfig ? { runtimeConfig: o.runtimeConfig } : {}),
  });
};
const get = async (path: string) => {
  const r = await fetch(server!.url + path);
  return { status: r.status, warning: r.headers.get('warning'), text: await r.text() };
};
const groupVersions = async () =>
  (JSON.parse((await get('/apis')).text) as { groups: { versions: { groupVersion: string }[] }[] }).groups.flatMap((g) =>
    g.versions.map((v) => v.groupVersion),
  );

describe('served group versions', () => {
  it('v1.24 (default): batch/v1beta1 served with a Warning and counted; batch/v1 without; /version says v1.24', async () => {
    await start();
    expect(JSON.parse((await get('/version')).text).gitVersion).toBe('v1.24.0');
    expect(await groupVersions()).toEqual(expect.arrayContaining(['batch/v1', 'batch/v1beta1', 'policy/v1beta1', 'events.svc.io/v1']));
    const old = await get('/apis/batch/v1beta1/cronjobs');
    expect(old.status).toBe(200);
    expect(parseWarnings(old.warning!)![0]!.text).toContain('deprecated');
    expect((await get('/apis/batch/v1/cronjobs')).warning).toBeNull();
    const gauge = parsePrometheusText((await get('/metrics')).text).filter((s) => s.name === 'apiserver_requested_deprecated_apis');
    expect(gauge).toEqual([
      {
        name: 'apiserver_requested_deprecated_apis',
        labels: { group: 'batch', version: 'v1beta1', resource: 'cronjobs', subresource: '', removed_release: '1.25' },
        value: 1,
      },
    ]);
  });

  it('v1.25: the 1.25 rows are gone from discovery and paths', async () => {
    await start({ release: 'v1.25' });
    const gvs = await groupVersions();
    expect(gvs).not.toContain('batch/v1beta1');
    expect(gvs).toContain('batch/v1');
    expect((await get('/apis/batch/v1beta1/cronjobs')).status).toBe(404);
  });

  it('--runtime-config turns group versions and single resources off and on', async () => {
    await start({ runtimeConfig: 'batch/v1beta1=false,policy/v1beta1/podsecuritypolicies=false' });
    expect(await groupVersions()).not.toContain('batch/v1beta1');
    expect((await get('/apis/batch/v1beta1/cronjobs')).status).toBe(404);
    expect((await get('/apis/policy/v1beta1/podsecuritypolicies')).status).toBe(404);
    expect((await get('/apis/policy/v1beta1/poddisruptionbudgets')).status).toBe(200);
  });

  it('alpha versions are off by default and --runtime-config turns them on (rest:9.2)', async () => {
    await start();
    expect(await groupVersions()).not.toContain('internal.apiserver.svc.io/v1alpha1');
    await server!.close();
    await start({ runtimeConfig: 'internal.apiserver.svc.io/v1alpha1' });
    expect(await groupVersions()).toContain('internal.apiserver.svc.io/v1alpha1');
    expect((await get('/apis/internal.apiserver.svc.io/v1alpha1/storageversions')).status).toBe(200);
  });

  it('a bad release or runtime-config refuses to start', async () => {
    await expect(referenceServer({ release: 'latest' })).rejects.toThrow(/not a release/);
    await expect(referenceServer({ runtimeConfig: 'batch' })).rejects.toThrow(/runtime-config/);
  });

  it('events/v1 refuses deprecated fields on create with 422; k8s profile names the group', async () => {
    await start({ profile: 'k8s' });
    await fetch(`${server!.url}/api/v1/namespaces`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ metadata: { name: 'e' } }),
    });
    const event = {
      metadata: { name: 'x' },
      type: 'Normal',
      action: 'a',
      reason: 'r',
      reportingController: 'c.io/c',
      reportingInstance: 'i',
    };
    const post = (body: unknown) =>
      fetch(`${server!.url}/apis/events.k8s.io/v1/namespaces/e/events`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify(body),
      });
    expect((await post({ ...event, deprecatedCount: 1 })).status).toBe(422);
    expect((await post(event)).status).toBe(201);
  });
});
