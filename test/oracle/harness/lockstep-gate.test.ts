// Why: lockstep means a side's k-th request waits until the other side has sent its k-th,
// and a side that stopped (its case failed) holds nobody up.
import { describe, expect, it } from 'vitest';
import { Gate } from '../../../harness/interpreters/lockstep.ts';

const tick = () => new Promise<void>((resolve) => setImmediate(resolve));

describe('lockstep gate', () => {
  it('holds the side ahead until the other side reaches the same request', async () => {
    const gate = new Gate();
    const order: string[] = [];
    const a0 = gate.arrive(0).then((k) => order.push(`a${k}`));
    await tick();
    expect(order).toEqual([]);
    const b0 = gate.arrive(1).then((k) => order.push(`b${k}`));
    await Promise.all([a0, b0]);
    expect(order.sort()).toEqual(['a0', 'b0']);
  });

  it('lets a side go on alone once the other has finished', async () => {
    const gate = new Gate();
    let passed = false;
    const a = gate.arrive(0).then(() => {
      passed = true;
    });
    await tick();
    expect(passed).toBe(false);
    gate.finish(1);
    await a;
    expect(passed).toBe(true);
    expect(await gate.arrive(0)).toBe(1);
  });
});
