// Counterexamples with protobuf request bodies must replay byte for byte: the curl script feeds the
// body through printf escapes instead of pasting invalid UTF-8 and NUL bytes into the shell.
import { describe, expect, it } from 'vitest';
import { execFileSync } from 'node:child_process';
import { toCurlScript } from '../../../harness/reproducers/curl.ts';

describe('curl scripts with binary bodies', () => {
  it('escape every byte and reproduce it exactly', () => {
    const body = Uint8Array.of(0x6b, 0x38, 0x73, 0x00, 0xff, 0x27, 0x25, 0x0a);
    const script = toCurlScript(
      [{ seq: 1, request: { method: 'PUT', path: '/api/v1/namespaces/a/configmaps/x', body }, startedAtMs: 0, durationMs: 1 }],
      { server: 'http://127.0.0.1:1' },
    );
    const line = script.split('\n').find((l) => l.includes('--data-binary'))!;
    expect(line).toContain("@<(printf '\\x6b\\x38\\x73\\x00\\xff\\x27\\x25\\x0a')");
    const printed = execFileSync('bash', ['-c', `cat ${line.trim().replace(/^--data-binary @/, '')}`]);
    expect([...printed]).toEqual([...body]);
  });

  it('ask for a gzipped answer with --compressed, so the script prints it decoded as the check read it', () => {
    const script = toCurlScript(
      [{ seq: 1, request: { method: 'GET', path: '/metrics', headers: { 'accept-encoding': 'gzip' } }, startedAtMs: 0, durationMs: 1 }],
      { server: 'http://127.0.0.1:1' },
    );
    expect(script).toContain('--compressed');
    expect(script.toLowerCase()).not.toContain('accept-encoding');
  });
});
