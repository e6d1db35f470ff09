/**
 * What the benches measure against: the embedded reference server, open to everyone (a bench measures
 * the harness, not authentication), started by runner/embedded.ts, and a check environment opened by
 * runner/session.ts, as a run gets them. Figures only: nothing here asserts on time.
 */
import type { CheckEnv, TargetSettings } from '../../harness/case/index.ts';
import { profiles } from '../../reference/profile.ts';
import { startEmbeddedTarget, type EmbeddedStartOptions, type EmbeddedTarget, type EmbeddedTargetSpec } from '../../runner/embedded.ts';
import { defaultTargetSettings } from '../../runner/env.ts';
import { openSession } from '../../runner/session.ts';

const profile = profiles.svc;

/** `access: 'run'` for a replay of a run's requests, which carry the run's token (scripts/dev/bench-replay.ts). */
export function benchServer(
  spec: EmbeddedTargetSpec = {},
  o: Pick<EmbeddedStartOptions, 'tooLargeWaitMs' | 'access'> = {},
): Promise<EmbeddedTarget> {
  return startEmbeddedTarget(spec, profile, { access: 'open', ...o, source: 'bench' });
}

/** A server of its own and one environment on it; `close` ends both. */
export async function benchSession(o: {
  runId: string;
  server?: EmbeddedTargetSpec;
  settings?: Partial<TargetSettings>;
}): Promise<{ env: CheckEnv; close(): Promise<void> }> {
  const target = await benchServer(o.server);
  const opened = openSession({ target: target.config, profile, runId: o.runId, settings: { ...defaultTargetSettings, ...o.settings } });
  return {
    env: opened.env,
    close: async () => {
      await opened.close();
      await target.close();
    },
  };
}
