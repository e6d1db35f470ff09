// Why: a user's hook is a shell command whose exit status the suite checks; a failing or
// hanging hook is infrastructure trouble with one clear line, never a verdict on the target.
import { describe, expect, it } from 'vitest';
import { parseHookArg, runHook } from '../../../harness/case/hooks.ts';
import { InfrastructureError } from '../../../harness/transport/exchange.ts';

describe('--hook', () => {
  it('parses restart=CMD and compact=CMD, keeping = inside the command', () => {
    expect(parseHookArg('compact=etcdctl compact --rev=5')).toEqual(['compact', { kind: 'command', command: 'etcdctl compact --rev=5' }]);
    for (const bad of ['restart', '=x', 'reboot=x', 'compact=  ']) expect(parseHookArg(bad)).toBeUndefined();
  });

  it('runs a command and checks its exit status', async () => {
    await expect(runHook('restart', { kind: 'command', command: 'true' })).resolves.toBeUndefined();
    const failing = runHook('compact', { kind: 'command', command: 'echo no such revision >&2; exit 3' });
    await expect(failing).rejects.toBeInstanceOf(InfrastructureError);
    await expect(failing).rejects.toThrow(/hook compact: `.*` exited 3: no such revision/);
  });

  it('gives up on a hook that hangs', async () => {
    await expect(runHook('restart', { kind: 'command', command: 'sleep 5' }, 200)).rejects.toThrow(/still running after 200 ms/);
  });
});
