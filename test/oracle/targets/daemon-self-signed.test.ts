// node:2.6/tls-cert-file without --cert-dir: the reference daemon makes a self-signed pair in a
// temporary folder. The suite reaps every daemon start with a signal, which runs no exit hook, so the
// folder must be gone as soon as the pair is read (it used to stay: one folder in /tmp per start).
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { selfSignedPair } from '../../../targets/controller-daemon/self-signed.ts';

const hasOpenssl = (() => {
  try {
    execFileSync('openssl', ['version'], { stdio: 'pipe' });
    return true;
  } catch {
    return false;
  }
})();

describe.skipIf(!hasOpenssl)("the reference daemon's self-signed pair (needs the openssl command)", () => {
  it('without --cert-dir: a PEM pair, and no temporary folder left behind', async () => {
    // A private TMPDIR (os.tmpdir() reads it on every call): daemons other tests start meanwhile make
    // folders of their own in the shared one.
    const mine = mkdtempSync(path.join(tmpdir(), 'svc-tmpdir-test-'));
    const saved = process.env['TMPDIR'];
    process.env['TMPDIR'] = mine;
    try {
      const pair = await selfSignedPair('', 'svc-controller-manager');
      expect(pair.cert).toContain('BEGIN CERTIFICATE');
      expect(pair.key).toContain('PRIVATE KEY');
      expect(readdirSync(mine)).toEqual([]);
    } finally {
      if (saved === undefined) delete process.env['TMPDIR'];
      else process.env['TMPDIR'] = saved;
      rmSync(mine, { recursive: true, force: true });
    }
  });

  it('with --cert-dir: the pair stays there and is reused', async () => {
    const dir = mkdtempSync(path.join(tmpdir(), 'svc-certdir-test-'));
    try {
      const first = await selfSignedPair(dir, 'd');
      first.cleanup();
      expect(readdirSync(dir).sort()).toEqual(['d.crt', 'd.key']);
      expect((await selfSignedPair(dir, 'd')).cert).toBe(first.cert);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
