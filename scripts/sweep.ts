/**
 * Last line of the safety net on a real cluster: after the suites (whose workers clean up on their
 * own), delete any namespace still labelled with this run's id. Only namespaces carrying the run
 * label and the run's name prefix are touched.
 */
import type { Profile } from '../reference/profile.ts';
import type { TargetConfig } from '../harness/kubeconfig.ts';
import { createTargetClient } from '../harness/client.ts';

export async function sweepRun(cfg: TargetConfig, profile: Profile, runId: string, log: (line: string) => void): Promise<void> {
  const client = createTargetClient(cfg, { maxRetries: 2 });
  try {
    const r = await client.send({ method: 'GET', path: '/api/v1/namespaces', query: [['labelSelector', `${profile.runLabel}=${runId}`]] });
    const items = ((r.json as { items?: { metadata?: { name?: string; deletionTimestamp?: string } }[] } | undefined)?.items ?? []).filter((i) => !i.metadata?.deletionTimestamp);
    if (items.length === 0) return;
    log(`svc-conformance: deleting ${items.length} namespace(s) left by run ${runId}`);
    for (const i of items) {
      const name = i.metadata?.name;
      if (!name || !name.startsWith(`svc-conformance-${runId}`)) continue;
      // The workers' guards are gone with them; the same rule made explicit here: both the name
      // prefix and the label must identify this run.
      await client.send({ method: 'DELETE', path: `/api/v1/namespaces/${encodeURIComponent(name)}` });
    }
  } catch (e) {
    log(`svc-conformance: could not sweep run ${runId}: ${e instanceof Error ? e.message : String(e)}`);
  } finally {
    await client.close();
  }
}
