/**
 * A value several oracle files of one vitest run need, computed by the first that asks and read by
 * the others from the run's scratch folder (test/dist.global-setup.ts). The files start in parallel
 * workers: without the lock each of them that started before the first had finished computed it again
 * (two shares of the legal variations each ran every check once more, 12-24 CPU-s on two cores).
 *
 * The value is written only when `compute` succeeds; when it throws, the lock is released and the next
 * file to ask computes it again (and fails the same way, in its own test). A holder that died without
 * releasing (a killed worker) is noticed by its pid.
 */
import { existsSync, openSync, readFileSync, renameSync, rmSync, writeFileSync, closeSync } from 'node:fs';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';

const POLL_MS = 200;

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (e) {
    return (e as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/** Takes the lock (true), or says another process holds it (false); a lock whose holder is gone is removed. */
function tryLock(lock: string): boolean {
  try {
    const fd = openSync(lock, 'wx');
    writeFileSync(fd, String(process.pid));
    closeSync(fd);
    return true;
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code !== 'EEXIST') throw e;
    const holder = Number(readFileSync(lock, 'utf8') || 'NaN');
    // An empty file is a holder between open and write: alive by definition.
    if (Number.isInteger(holder) && !alive(holder)) rmSync(lock, { force: true });
    return false;
  }
}

/** The JSON value named `name` in `scratch`: read when present, else computed here under the lock, or awaited from its holder. */
export async function oncePerRun<T>(scratch: string, name: string, compute: () => Promise<T>): Promise<T> {
  const file = join(scratch, `${name}.json`);
  const lock = `${file}.lock`;
  for (;;) {
    if (existsSync(file)) return JSON.parse(readFileSync(file, 'utf8')) as T;
    if (tryLock(lock)) {
      try {
        if (existsSync(file)) return JSON.parse(readFileSync(file, 'utf8')) as T;
        const value = await compute();
        // Whole or not at all: a reader polls for the name.
        const part = `${file}.${process.pid}`;
        writeFileSync(part, JSON.stringify(value));
        renameSync(part, file);
        return value;
      } finally {
        rmSync(lock, { force: true });
      }
    }
    await sleep(POLL_MS);
  }
}
