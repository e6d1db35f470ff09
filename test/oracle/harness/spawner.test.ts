// Starts through the spawn helper: the caller sees what a direct spawn shows (output in order, the
// exit code, the signal, a command that cannot start), a stopped child is reaped, and the helper is
// reaped by closeSpawner with its leftover children killed.
import { afterAll, describe, expect, it } from 'vitest';
import { closeSpawner, holdSpawner, spawnChild, spawnDirect, type SpawnOptions } from '../../../harness/processes/spawner.ts';

const node = process.execPath;

function collect(): SpawnOptions & { text: () => string } {
  let out = '';
  return { onOutput: (s) => void (out += s), capChars: 64 * 1024, text: () => out };
}

afterAll(() => closeSpawner());

describe('spawn helper', () => {
  it('shows the same output, exit code and signal as a direct spawn', async () => {
    const script = `process.stdout.write('out '); setTimeout(() => { process.stderr.write('err'); process.exit(3); }, 50);`;
    const [a, b] = [collect(), collect()];
    const viaHelper = spawnChild(node, ['-e', script], a);
    const direct = spawnDirect(node, ['-e', script], b);
    expect(await viaHelper.exited).toEqual({ code: 3 });
    expect(await direct.exited).toEqual({ code: 3 });
    expect(a.text()).toBe('out err');
    expect(a.text()).toBe(b.text());
  });

  it('a SIGTERM ends a running child with that signal', async () => {
    const o = collect();
    const s = spawnChild(node, ['-e', `process.stdout.write('up'); setInterval(() => {}, 1000)`], o);
    while (o.text() !== 'up') await new Promise((r) => setTimeout(r, 20));
    s.kill('SIGTERM');
    expect(await s.exited).toEqual({ code: null, signal: 'SIGTERM' });
  });

  it('a command that does not exist exits 127 and says why', async () => {
    const o = collect();
    expect(await spawnChild('/nonexistent/svc-daemon', [], o).exited).toEqual({ code: 127 });
    expect(o.text()).toContain('could not start');
  });

  it('keeps output up to the cap, then sends no more', async () => {
    const o = { ...collect(), capChars: 10 };
    let out = '';
    // Four times a pipe's buffer (64 KiB): a chunk that starts below the cap is kept whole, and on a
    // busy machine 50 KB came through as one chunk, all kept.
    await spawnChild(node, ['-e', `for (let i = 0; i < 256; i++) process.stdout.write('x'.repeat(1000) + '\\n')`], {
      onOutput: (s) => void (out += s),
      capChars: o.capChars,
    }).exited;
    expect(out.length).toBeGreaterThanOrEqual(10);
    expect(out.length).toBeLessThanOrEqual(64 * 1024);
  });

  it('closeSpawner kills what is left and reaps the helper; the next start forks a new one', async () => {
    const s = spawnChild(node, ['-e', 'setInterval(() => {}, 1000)'], collect());
    await closeSpawner();
    // The helper killed it on its way out: this process never saw it exit (no verdict from it).
    await s.lost;
    const o = collect();
    expect(await spawnChild(node, ['-e', `process.stdout.write('again')`], o).exited).toEqual({ code: 0 });
    expect(o.text()).toBe('again');
  });

  it('two runs of one process hold the helper: the first to end leaves the children of the other running; the last closes it', async () => {
    const [first, second] = [holdSpawner(), holdSpawner()];
    const o = collect();
    const s = spawnChild(node, ['-e', `setTimeout(() => process.stdout.write('still here'), 300)`], o);
    await first();
    await first(); // a second release of the same hold counts once
    expect(await Promise.race([s.exited, s.lost.then(() => 'lost')])).toEqual({ code: 0 });
    expect(o.text()).toBe('still here');
    const left = spawnChild(node, ['-e', 'setInterval(() => {}, 1000)'], collect());
    await second();
    await left.lost;
  });
});
