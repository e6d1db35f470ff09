import { existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { createTargetClient } from '../../../harness/transport/client.ts';
import { InfrastructureError } from '../../../harness/transport/exchange.ts';
import { ConfigError, loadTargetConfig, type TargetConfig } from '../../../harness/transport/kubeconfig.ts';
import { fixture, json, startHttp, startHttps, TLS_DIR, type TestServer } from './servers.ts';

let dir: string;
beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'svc-conformance-kc-'));
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

function write(name: string, text: string): string {
  const p = join(dir, name);
  writeFileSync(p, text);
  return p;
}

const b64 = (s: string): string => Buffer.from(s).toString('base64');

/** Loads with an empty environment so the developer's own KUBECONFIG never leaks into a test. */
function load(opts: Parameters<typeof loadTargetConfig>[0]): Promise<TargetConfig> {
  return loadTargetConfig({ env: { HOME: dir }, serviceAccountDir: join(dir, 'no-sa'), ...opts });
}

async function configError(p: Promise<unknown>): Promise<string> {
  const err = await p.then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(err).toBeInstanceOf(ConfigError);
  const message = (err as Error).message;
  expect(message).not.toContain('\n');
  return message;
}

function kubeconfig(o: { server: string; user?: string; context?: string; current?: string; extraUser?: string }): string {
  const ctx = o.context ?? 'main';
  return [
    'apiVersion: v1',
    'kind: Config',
    'clusters:',
    `- name: ${ctx}-cluster`,
    '  cluster:',
    `    server: ${o.server}`,
    'users:',
    `- name: ${ctx}-user`,
    '  user:',
    o.user ?? '    token: tok-' + ctx,
    'contexts:',
    `- name: ${ctx}`,
    '  context:',
    `    cluster: ${ctx}-cluster`,
    `    user: ${ctx}-user`,
    `current-context: ${o.current ?? ctx}`,
    '',
  ].join('\n');
}

describe('loadTargetConfig: sources and credentials', () => {
  let http: TestServer;
  beforeAll(async () => {
    http = await startHttp((_req, res) => json(res, 200, { major: '1', minor: '30' }));
  });
  afterAll(() => http.close());
  afterEach(() => http.seen.splice(0));

  it('plain http:// kubeconfig works and the bearer token reaches the server', async () => {
    const p = write('http.yaml', kubeconfig({ server: http.url + '/' }));
    const cfg = await load({ kubeconfig: p });
    expect(cfg.server).toBe(http.url);
    expect(cfg.contextName).toBe('main');
    expect(cfg.source).toBe(`kubeconfig ${p} (context main)`);
    expect(cfg.source).not.toContain('tok-main');
    const target = createTargetClient(cfg, {});
    try {
      const res = await target.send({ method: 'GET', path: '/version' });
      expect(res.status).toBe(200);
      expect(res.json).toEqual({ major: '1', minor: '30' });
    } finally {
      await target.close();
    }
    expect(http.seen).toHaveLength(1);
    expect(http.seen[0]?.headers.authorization).toBe('Bearer tok-main');
    expect(http.seen[0]?.headers.accept).toBe('application/json');
  });

  it('token-file is read relative to the kubeconfig that names it', async () => {
    write('token.txt', 'from-file\n');
    const p = write('tokfile.yaml', kubeconfig({ server: http.url, user: '    token-file: token.txt' }));
    const cfg = await load({ kubeconfig: p });
    expect(cfg.headers.Authorization).toBe('Bearer from-file');
  });

  it('KUBECONFIG with two files merges them like kubectl: first current-context and first definition win', async () => {
    const a = write('a.yaml', kubeconfig({ server: 'https://a.example:6443', context: 'alpha' }));
    const bText = kubeconfig({ server: http.url, context: 'beta' }).replace(
      'clusters:\n',
      'clusters:\n- name: alpha-cluster\n  cluster:\n    server: https://shadowed.example\n',
    );
    const b = write('b.yaml', bText);
    const env = { HOME: dir, KUBECONFIG: `${a}:${join(dir, 'missing.yaml')}:${b}` };
    const first = await loadTargetConfig({ env });
    expect(first.contextName).toBe('alpha');
    expect(first.server).toBe('https://a.example:6443');
    expect(first.headers.Authorization).toBe('Bearer tok-alpha');
    expect(first.source).toBe(`KUBECONFIG ${a}:${b} (context alpha)`);

    const second = await loadTargetConfig({ env, context: 'beta' });
    expect(second.server).toBe(http.url);
    expect(second.headers.Authorization).toBe('Bearer tok-beta');
  });

  it('--context selects among the contexts of one file', async () => {
    const text = [
      'clusters:',
      '- {name: c1, cluster: {server: "https://one.example"}}',
      '- {name: c2, cluster: {server: "https://two.example", insecure-skip-tls-verify: true}}',
      'users:',
      '- {name: u1, user: {token: t1}}',
      '- {name: u2, user: {token: t2}}',
      'contexts:',
      '- {name: one, context: {cluster: c1, user: u1}}',
      '- {name: two, context: {cluster: c2, user: u2}}',
      'current-context: one',
    ].join('\n');
    const p = write('multi.yaml', text);
    const dflt = await load({ kubeconfig: p });
    expect([dflt.server, dflt.headers.Authorization, dflt.tls.insecureSkipTlsVerify]).toEqual(['https://one.example', 'Bearer t1', false]);
    const two = await load({ kubeconfig: p, context: 'two' });
    expect([two.server, two.headers.Authorization, two.tls.insecureSkipTlsVerify]).toEqual(['https://two.example', 'Bearer t2', true]);
  });

  it('exec credential plugins run through client-node and yield the bearer token', async () => {
    const script = write(
      'exec-plugin.mjs',
      `console.log(JSON.stringify({ apiVersion: 'client.authentication.k8s.io/v1', kind: 'ExecCredential', status: { token: 'from-exec' } }));`,
    );
    const user = `    exec:\n      apiVersion: client.authentication.k8s.io/v1\n      command: ${process.execPath}\n      args: [${script}]\n      interactiveMode: Never`;
    const cfg = await load({ kubeconfig: write('exec.yaml', kubeconfig({ server: http.url, user })) });
    expect(cfg.headers.Authorization).toBe('Bearer from-exec');
  });

  it('checkOnly (run --dry-run) validates the file and context but starts no exec plugin', async () => {
    const script = write(
      'exec-count.mjs',
      `import { appendFileSync } from 'node:fs';\nappendFileSync(${JSON.stringify(join(dir, 'exec-ran'))}, 'x');\nconsole.log(JSON.stringify({ apiVersion: 'client.authentication.k8s.io/v1', kind: 'ExecCredential', status: { token: 't' } }));`,
    );
    const user = `    exec:\n      apiVersion: client.authentication.k8s.io/v1\n      command: ${process.execPath}\n      args: [${script}]\n      interactiveMode: Never`;
    const file = write('exec-check.yaml', kubeconfig({ server: http.url, user }));
    const checked = await load({ kubeconfig: file, checkOnly: true });
    expect(checked.server).toBe(http.url);
    expect(existsSync(join(dir, 'exec-ran'))).toBe(false);
    expect(await configError(load({ kubeconfig: file, checkOnly: true, context: 'other' }))).toMatch(/context "other" not found/);
    // The same file without checkOnly does start it: the check above is not vacuous.
    expect((await load({ kubeconfig: file })).headers.Authorization).toBe('Bearer t');
    expect(existsSync(join(dir, 'exec-ran'))).toBe(true);
  });

  it('a failing exec plugin is a ConfigError', async () => {
    const user = `    exec:\n      apiVersion: client.authentication.k8s.io/v1\n      command: ${join(dir, 'no-such-plugin')}`;
    const err = await load({ kubeconfig: write('exec-bad.yaml', kubeconfig({ server: http.url, user })) }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(ConfigError);
    expect((err as Error).message).toMatch(/^kubeconfig .*exec-bad\.yaml: cannot use credentials of user "main-user": /);
  });

  it("a JSON kubeconfig, as the run writes its controller daemon's, is read like its YAML twin", async () => {
    const { kubeconfigJson } = await import('../../../harness/processes/controller-daemon.ts');
    const cfg = await load({ kubeconfig: write('daemon.json', kubeconfigJson('http://127.0.0.1:1', 'tok:"x"')) });
    expect(cfg.server).toBe('http://127.0.0.1:1');
    expect(cfg.headers['Authorization']).toBe('Bearer tok:"x"');
  });

  it('explicit --server and --token win over everything', async () => {
    const cfg = await loadTargetConfig({ server: 'https://10.0.0.1:6443/', token: 'abc', env: { KUBECONFIG: '/nonexistent' } });
    expect(cfg).toEqual({
      server: 'https://10.0.0.1:6443',
      tls: { insecureSkipTlsVerify: false },
      headers: { Authorization: 'Bearer abc' },
      source: '--server',
    });
  });

  it('in-cluster service-account files are used when no kubeconfig exists', async () => {
    const sa = join(dir, 'sa');
    const { mkdirSync } = await import('node:fs');
    mkdirSync(sa, { recursive: true });
    writeFileSync(join(sa, 'token'), 'sa-token\n');
    writeFileSync(join(sa, 'ca.crt'), fixture('ca.crt'));
    const cfg = await loadTargetConfig({
      env: { HOME: join(dir, 'nohome'), KUBERNETES_SERVICE_HOST: 'fd00::1', KUBERNETES_SERVICE_PORT: '443' },
      serviceAccountDir: sa,
    });
    expect(cfg.server).toBe('https://[fd00::1]');
    expect(cfg.headers).toEqual({ Authorization: 'Bearer sa-token' });
    expect(String(cfg.tls.ca)).toContain('BEGIN CERTIFICATE');
  });
});

describe('loadTargetConfig: errors are one clear line', () => {
  it('missing file', async () => {
    const p = join(dir, 'x', 'y');
    expect(await configError(load({ kubeconfig: p }))).toBe(`kubeconfig ${p}: no such file`);
  });

  it('malformed YAML gives line and column', async () => {
    const p = write('bad.yaml', 'apiVersion: v1\nusers:\n- name: u\n  user:\n    token: a: b\n');
    expect(await configError(load({ kubeconfig: p }))).toBe(
      `kubeconfig ${p}: line 5, column 12: Nested mappings are not allowed in compact mappings`,
    );
  });

  it('duplicate keys are reported at the duplicate', async () => {
    const p = write('dup.yaml', 'clusters: []\nusers: []\nclusters: []\n');
    expect(await configError(load({ kubeconfig: p }))).toMatch(new RegExp(`^kubeconfig ${p}: line 3, column 1: .*[Uu]nique`));
  });

  it('a JSON kubeconfig (read without the YAML parser) reports its problems as YAML would: a repeated key, a missing field', async () => {
    const dup = write('dup.json', '{"clusters": [], "users": [{"name": "u", "user": {"token": "a:b", "token": "c"}}]}');
    expect(await configError(load({ kubeconfig: dup }))).toMatch(new RegExp(`^kubeconfig ${dup}: line 1, column 67: .*[Uu]nique`));
    const missing = write('noserver.json', '{"clusters": [{"name": "a", "cluster": {"certificate-authority-data": "eA=="}}]}');
    expect(await configError(load({ kubeconfig: missing }))).toBe(
      `kubeconfig ${missing}: line 1, column 40: clusters[0].cluster.server is missing`,
    );
  });

  it('missing server names the field path and points at its cluster', async () => {
    const p = write('noserver.yaml', 'clusters:\n- name: a\n  cluster:\n    certificate-authority-data: eA==\n');
    expect(await configError(load({ kubeconfig: p }))).toBe(`kubeconfig ${p}: line 4, column 5: clusters[0].cluster.server is missing`);
  });

  it('unknown context lists the available ones', async () => {
    const p = write('ctx.yaml', kubeconfig({ server: 'https://a', context: 'alpha' }));
    expect(await configError(load({ kubeconfig: p, context: 'gamma' }))).toBe(
      `kubeconfig ${p}: context "gamma" not found (available: alpha)`,
    );
  });

  it('context referring to an undefined user or cluster', async () => {
    const p = write(
      'dangling.yaml',
      'clusters: [{name: c, cluster: {server: "https://a"}}]\ncontexts:\n- {name: x, context: {cluster: c, user: ghost}}\n- {name: y, context: {cluster: nowhere}}\ncurrent-context: x\n',
    );
    expect(await configError(load({ kubeconfig: p }))).toBe(`kubeconfig ${p}: context "x" refers to user "ghost", which is not defined`);
    expect(await configError(load({ kubeconfig: p, context: 'y' }))).toBe(
      `kubeconfig ${p}: context "y" refers to cluster "nowhere", which is not defined`,
    );
  });

  it('no current-context and no --context', async () => {
    const p = write(
      'nocur.yaml',
      'clusters: [{name: c, cluster: {server: "https://a"}}]\ncontexts: [{name: a, context: {cluster: c}}, {name: b, context: {cluster: c}}]\n',
    );
    expect(await configError(load({ kubeconfig: p }))).toBe(`kubeconfig ${p}: no current-context set; pass --context (available: a, b)`);
  });

  it('unreadable certificate file', async () => {
    const p = write(
      'nocert.yaml',
      kubeconfig({ server: 'https://a', user: '    client-certificate: missing.crt\n    client-key: missing.key' }),
    );
    expect(await configError(load({ kubeconfig: p }))).toBe(
      `${p}: users[0].user.client-certificate ${join(dir, 'missing.crt')}: no such file`,
    );
  });

  it('unsupported auth-provider', async () => {
    const p = write('ap.yaml', kubeconfig({ server: 'https://a', user: '    auth-provider: {name: magic}' }));
    expect(await configError(load({ kubeconfig: p }))).toContain('auth-provider "magic", which is not supported');
  });

  it('no source at all', async () => {
    expect(await configError(load({}))).toBe(
      'no target configured: pass --server or --kubeconfig, set KUBECONFIG, or run inside a cluster',
    );
  });
});

describe('TLS: CA bundle, client certificates, insecure-skip-tls-verify', () => {
  let https: TestServer;
  beforeAll(async () => {
    https = await startHttps((_req, res, seen) => json(res, 200, { clientCn: seen.clientCn ?? null }), { requestCert: true });
  });
  afterAll(() => https.close());

  async function get(cfg: TargetConfig): Promise<unknown> {
    const target = createTargetClient(cfg, { maxRetries: 0 });
    try {
      return (await target.send({ method: 'GET', path: '/version' })).json;
    } finally {
      await target.close();
    }
  }

  it('presents the client certificate (data fields) and verifies the server with the CA file', async () => {
    const user = `    client-certificate-data: ${b64(fixture('client.crt'))}\n    client-key-data: ${b64(fixture('client.key'))}`;
    const text = kubeconfig({ server: https.url, user }).replace(
      `server: ${https.url}`,
      `server: ${https.url}\n    certificate-authority: ${join(TLS_DIR, 'ca.crt')}`,
    );
    const cfg = await load({ kubeconfig: write('mtls.yaml', text) });
    expect(cfg.headers).toEqual({});
    expect(await get(cfg)).toEqual({ clientCn: 'svc-conformance-test-client' });
  });

  it('client certificate from files relative to the kubeconfig', async () => {
    const text = kubeconfig({
      server: https.url,
      user: `    client-certificate: ${TLS_DIR}client.crt\n    client-key: ${TLS_DIR}client.key`,
    }).replace(`server: ${https.url}`, `server: ${https.url}\n    certificate-authority-data: ${b64(fixture('ca.crt'))}`);
    expect(await get(await load({ kubeconfig: write('mtls-files.yaml', text) }))).toEqual({ clientCn: 'svc-conformance-test-client' });
  });

  it('--server with --certificate-authority: the CA file verifies the server; another certificate as CA does not', async () => {
    const cfg = await load({ server: https.url, certificateAuthority: join(TLS_DIR, 'ca.crt') });
    expect(cfg.tls.ca).toContain('BEGIN CERTIFICATE');
    expect(await get(cfg)).toEqual({ clientCn: null });
    const wrong = await load({ server: https.url, certificateAuthority: join(TLS_DIR, 'client.crt') });
    expect(((await get(wrong).catch((e: unknown) => e)) as Error).message).toMatch(/TLS: server certificate not trusted/);
    await expect(load({ server: https.url, certificateAuthority: join(TLS_DIR, 'client.key') })).rejects.toThrow(
      /--certificate-authority .*client\.key: not a PEM certificate/,
    );
    await expect(load({ server: https.url, certificateAuthority: join(dir, 'none.crt') })).rejects.toThrow(
      /--certificate-authority .*none\.crt: no such file/,
    );
  });

  it('without the CA the server is not trusted, unless insecureSkipTlsVerify', async () => {
    const cfg = await load({ kubeconfig: write('noca.yaml', kubeconfig({ server: https.url })) });
    const err = await get(cfg).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(InfrastructureError);
    expect((err as Error).message).toMatch(new RegExp(`^cannot reach ${https.url}: TLS: server certificate not trusted \\(\\w+\\)`));

    const insecure = await load({ kubeconfig: write('noca.yaml', kubeconfig({ server: https.url })), insecureSkipTlsVerify: true });
    expect(insecure.tls.insecureSkipTlsVerify).toBe(true);
    expect(await get(insecure)).toEqual({ clientCn: null });
  });
});
