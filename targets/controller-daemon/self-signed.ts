/**
 * node:2.6/tls-cert-file: with HTTPS on and no certificate or key given, a self-signed pair is
 * generated in --cert-dir (reused when already there). Node has no X.509 writer, so the `openssl`
 * CLI makes it; without --cert-dir the pair is made in a temporary directory removed once it is read.
 */
import { execFile } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { selfSignedCertArgs } from '../../harness/processes/index.ts';

export interface Pair {
  readonly cert: string;
  readonly key: string;
  readonly cleanup: () => void;
}

/** Runs a command to completion; rejects when it cannot start or exits non-zero. */
export type RunCommand = (file: string, args: readonly string[]) => Promise<void>;

/** A child of this process (the daemon as its own process). */
export const runHere: RunCommand = (file, args) =>
  new Promise((resolve, reject) =>
    execFile(file, [...args], { encoding: 'utf8' }, (e, _out, err) =>
      e ? reject(new Error(`${e.message.split('\n')[0]} ${err}`.trim())) : resolve(),
    ),
  );

/**
 * The pair, made with `run` (asynchronously: a daemon running inside the suite's process must not
 * stop that process's event loop while openssl works).
 */
export async function selfSignedPair(certDir: string, stem: string, run: RunCommand = runHere): Promise<Pair> {
  const temporary = certDir === '';
  const dir = temporary ? mkdtempSync(path.join(tmpdir(), 'svc-daemon-cert-')) : certDir;
  const cleanup = temporary ? () => rmSync(dir, { recursive: true, force: true }) : () => undefined;
  mkdirSync(dir, { recursive: true });
  const certFile = path.join(dir, `${stem}.crt`);
  const keyFile = path.join(dir, `${stem}.key`);
  if (!existsSync(certFile) || !existsSync(keyFile)) {
    try {
      await run('openssl', selfSignedCertArgs({ keyFile, certFile, commonName: `localhost@${Date.now()}`, days: 365, loopback: true }));
    } catch (e) {
      cleanup();
      throw new Error(`cannot generate a self-signed pair in ${dir} (needs the openssl command): ${(e as Error).message.split('\n')[0]}`);
    }
  }
  const pair = { cert: readFileSync(certFile, 'utf8'), key: readFileSync(keyFile, 'utf8') };
  // Held in memory from here on: a temporary folder goes at once, since a daemon the suite kills (it
  // reaps every start) runs no exit hook, and each such start left one folder in /tmp behind.
  if (temporary) {
    cleanup();
    return { ...pair, cleanup: () => undefined };
  }
  return { ...pair, cleanup };
}
