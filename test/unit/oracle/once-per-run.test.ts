// The lock that keeps the shares of the legal variations from each running the reference run again.
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { oncePerRun } from '../../helpers/once-per-run.ts';

const scratch = () => mkdtempSync(join(tmpdir(), 'once-per-run-'));

describe('oncePerRun', () => {
  it('computes once for callers that ask at the same time, and gives each the same value', async () => {
    const dir = scratch();
    let computed = 0;
    const compute = async () => {
      computed++;
      await new Promise((r) => setTimeout(r, 300));
      return { n: 42 };
    };
    const values = await Promise.all([oncePerRun(dir, 'v', compute), oncePerRun(dir, 'v', compute), oncePerRun(dir, 'v', compute)]);
    expect(computed).toBe(1);
    expect(values).toEqual([{ n: 42 }, { n: 42 }, { n: 42 }]);
  });

  it('leaves nothing when the computation throws, so the next caller computes it again', async () => {
    const dir = scratch();
    await expect(oncePerRun(dir, 'v', () => Promise.reject(new Error('reference run failed')))).rejects.toThrow('reference run failed');
    expect(await oncePerRun(dir, 'v', () => Promise.resolve(7))).toBe(7);
  });

  it('takes over a lock whose holder is gone', async () => {
    const dir = scratch();
    // A pid no process has (beyond the kernel's pid_max).
    writeFileSync(join(dir, 'v.json.lock'), '99999999');
    expect(await oncePerRun(dir, 'v', () => Promise.resolve('mine'))).toBe('mine');
  });
});
