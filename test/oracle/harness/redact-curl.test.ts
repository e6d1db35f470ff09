import { spawnSync } from 'node:child_process';
import { chmodSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { describeExchange, toCurlScript } from '../../../harness/reproducers/curl.ts';
import type { Exchange } from '../../../harness/transport/exchange.ts';
import { redactHeaders, redactJson, redactText } from '../../../harness/transport/redact.ts';
import { fixture } from './servers.ts';

const TOKEN = 'eyJhbGciOiJSUzI1NiJ9.c2VjcmV0LXRva2Vu.sig-9xZ';
const KEY_PEM = fixture('client.key');
const KEY_BODY_LINE = KEY_PEM.split('\n')[1]!;

describe('redactText', () => {
  it('removes bearer tokens, secret headers, PEM blocks, kubeconfig key data and URL user info', () => {
    const text = [
      `Authorization: Bearer ${TOKEN}`,
      `cookie: session=abc123`,
      KEY_PEM,
      `    client-key-data: ${Buffer.from(KEY_PEM).toString('base64')}`,
      `    token: plain-token-value`,
      `{"token":"json-token-value","continue":"eyJydiI6MTB9"}`,
      'see https://admin:hunter2@example.com/api',
      'group authorization.k8s.io/v1 stays',
    ].join('\n');
    const out = redactText(text);
    for (const secret of [TOKEN, 'abc123', KEY_BODY_LINE, 'plain-token-value', 'json-token-value', 'hunter2', 'admin:', 'LS0tLS1CRUdJTi']) {
      expect(out).not.toContain(secret);
    }
    expect(out).toContain('Authorization: Bearer <redacted>');
    expect(out).toContain('-----BEGIN PRIVATE KEY-----<redacted>-----END PRIVATE KEY-----');
    expect(out).toContain('"continue":"eyJydiI6MTB9"');
    expect(out).toContain('https://<redacted>@example.com/api');
    expect(out).toContain('group authorization.k8s.io/v1 stays');
    expect(redactText(out)).toBe(out);
  });

  it('a truncated PEM block is still removed', () => {
    const cut = KEY_PEM.slice(0, 200);
    expect(redactText(`x ${cut}`)).toBe('x -----BEGIN PRIVATE KEY-----<redacted>');
  });

  it('redactHeaders keeps the scheme and other headers', () => {
    expect(
      redactHeaders({
        Authorization: `Bearer ${TOKEN}`,
        'proxy-authorization': 'Basic Zm9vOmJhcg==',
        Cookie: 'a=b',
        accept: 'application/json',
      }),
    ).toEqual({
      Authorization: 'Bearer <redacted>',
      'proxy-authorization': 'Basic <redacted>',
      Cookie: '<redacted>',
      accept: 'application/json',
    });
  });

  it('redactJson blanks credential keys at any depth and keeps __proto__ as an own key', () => {
    const input = JSON.parse(`{"status":{"token":"${TOKEN}"},"__proto__":{"password":"p"},"data":{"n":1}}`) as unknown;
    const out = redactJson(input) as Record<string, unknown>;
    expect(JSON.stringify(out)).toBe('{"status":{"token":"<redacted>"},"__proto__":{"password":"<redacted>"},"data":{"n":1}}');
  });
});

const exchanges: Exchange[] = [
  {
    seq: 1,
    request: {
      method: 'GET',
      path: '/api/v1/namespaces/x/configmaps',
      query: [['limit', '2']],
      headers: { accept: 'application/json', authorization: `Bearer ${TOKEN}` },
    },
    response: { status: 200, headers: {}, bodyText: '{}', json: {} },
    startedAtMs: 0,
    durationMs: 1,
  },
  {
    seq: 2,
    request: {
      method: 'POST',
      path: '/api/v1/namespaces/x/configmaps',
      headers: { 'content-type': 'application/json', Cookie: 'c=1' },
      body: { metadata: { name: "it's" }, data: { 'tls.key': KEY_PEM, note: 'a $HOME `b` "q"' } },
    },
    transportError: `connection reset (Bearer ${TOKEN})`,
    startedAtMs: 0,
    durationMs: 1,
  },
];

describe('describeExchange', () => {
  it('one line with status or transport error, redacted', () => {
    expect(describeExchange(exchanges[0]!)).toBe('GET /api/v1/namespaces/x/configmaps?limit=2 -> 200');
    expect(describeExchange(exchanges[1]!)).toBe(
      'POST /api/v1/namespaces/x/configmaps -> transport error: connection reset (Bearer <redacted>)',
    );
  });
});

describe('toCurlScript', () => {
  const script = toCurlScript(exchanges, { server: 'https://u:pw@127.0.0.1:6443/', insecure: true });

  it('is a redacted bash script with one commented request per exchange', () => {
    expect(script.startsWith('#!/usr/bin/env bash\n')).toBe(true);
    expect(script).toContain('\nset -u\n');
    expect(script).toContain("SERVER=${SERVER:-'https://<redacted>@127.0.0.1:6443'}");
    expect(script).toContain('# recorded: 200\ncall 0 ');
    expect(script).toContain('# recorded: transport error: connection reset (Bearer <redacted>)\ncall 1 ');
    expect(script.match(/^call \d /gm)).toHaveLength(2);
    // The run skipped verification; the script says so and skips it only when asked (INSECURE=1).
    expect(script).toContain('(the recorded run skipped it)');
    for (const secret of [TOKEN, KEY_BODY_LINE, 'pw@', 'c=1']) expect(script).not.toContain(secret);
  });

  it('runs under bash with the exact arguments (fake curl on PATH records argv)', () => {
    const dir = mkdtempSync(join(tmpdir(), 'svc-conformance-curl-'));
    try {
      const fake = join(dir, 'curl');
      const log = join(dir, 'argv.log');
      // The script keeps curl's stdout (the status code) in a file: the fake logs its argv elsewhere.
      writeFileSync(
        fake,
        `#!${process.execPath}\nrequire('fs').appendFileSync(${JSON.stringify(log)}, JSON.stringify(process.argv.slice(2)) + '\\n'); process.stdout.write('200');\n`,
      );
      chmodSync(fake, 0o755);
      const scriptPath = join(dir, 'repro.sh');
      writeFileSync(scriptPath, script);
      const run = (env: Record<string, string>): { argv: string[][]; status: number | null } => {
        rmSync(log, { force: true });
        const r = spawnSync('bash', [scriptPath], {
          env: { PATH: `${dir}:${dirname(process.execPath)}:/usr/bin:/bin`, ...env },
          encoding: 'utf8',
        });
        return {
          status: r.status,
          argv: readFileSync(log, 'utf8')
            .trim()
            .split('\n')
            .map((l) => JSON.parse(l) as string[]),
        };
      };

      const plain = run({ SERVER: 'http://other:1' });
      // No need is known for these exchanges: the script says it cannot decide (3), never "fixed".
      expect(plain.status).toBe(3);
      const [get, post] = plain.argv.filter((a) => a.includes('-X'));
      const url = (a: string[] | undefined) => a?.slice(a.indexOf('-X'));
      expect(get?.slice(0, 4)).toEqual(['-sS', '--path-as-is', '-g', '-D']);
      expect(get).not.toContain('-k');
      expect(url(get)).toEqual(['-X', 'GET', 'http://other:1/api/v1/namespaces/x/configmaps?limit=2', '-H', 'accept: application/json']);
      expect(post?.slice(-4)).toEqual([
        '-H',
        'content-type: application/json',
        '--data-binary',
        JSON.stringify({
          metadata: { name: "it's" },
          data: { 'tls.key': '-----BEGIN PRIVATE KEY-----<redacted>-----END PRIVATE KEY-----\n', note: 'a $HOME `b` "q"' },
        }),
      ]);

      const withToken = run({ TOKEN: 'tok en', INSECURE: '1', CA: '/x/ca.crt' }).argv.filter((a) => a.includes('-X'))[0];
      expect(url(withToken)?.slice(0, 5)).toEqual([
        '-X',
        'GET',
        'https://<redacted>@127.0.0.1:6443/api/v1/namespaces/x/configmaps?limit=2',
        '-H',
        'Authorization: Bearer tok en',
      ]);
      expect(withToken?.slice(3, 6)).toEqual(['--cacert', '/x/ca.crt', '-k']);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
