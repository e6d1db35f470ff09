/**
 * The reports folder, made and proven writable before any request is sent. Node's recursive mkdir
 * never returns on some paths (under /proc it retries ENOENT forever at 100% CPU), so the missing
 * components are made one at a time, each refusal reported once.
 */
import { accessSync, constants, mkdirSync, statSync } from 'node:fs';
import path from 'node:path';

/** Throws an Error whose message names why `dir` cannot hold reports; returns when it can. */
export function makeWritableDir(dir: string): void {
  const missing: string[] = [];
  let at = path.resolve(dir);
  for (;;) {
    try {
      if (!statSync(at).isDirectory()) throw new Error(`${at} is not a directory`);
      break;
    } catch (e) {
      if ((e as NodeJS.ErrnoException).code !== 'ENOENT') throw e;
      const parent = path.dirname(at);
      if (parent === at) throw e;
      missing.unshift(at);
      at = parent;
    }
  }
  for (const p of missing) {
    try {
      mkdirSync(p);
    } catch (e) {
      if ((e as NodeJS.ErrnoException).code !== 'EEXIST') throw e;
    }
  }
  accessSync(dir, constants.W_OK);
}
