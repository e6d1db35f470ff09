/**
 * The capability probe against the embedded server (harness/interpreters/capability-probe.ts): the full server
 * serves every feature; each partial mode (`--without`) is found not served, and only that feature;
 * a feature served wrongly (a planted fault that stores a dry-run, a silent watch) is not mistaken for
 * an absent one, or the reverse. The probe is the oracle of the capability map, so it is shown to tell
 * the broken target from the good one.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { startEmbeddedTarget, type EmbeddedTarget } from '../../../runner/embedded.ts';
import { openProbeClients } from '../../../runner/env.ts';
import { probeCapabilities } from '../../../harness/interpreters/capability-probe.ts';
import { profiles } from '../../../reference/profile.ts';
import { FEATURES, type FeatureFinding } from '../../../reference/features.ts';
import { partialModes, type PartialModeName } from '../../../targets/api-server/partial-modes.ts';
import type { FaultName } from '../../../targets/api-server/index.ts';

const profile = profiles.svc;
let started: EmbeddedTarget | undefined;
afterEach(async () => {
  await started?.close();
  started = undefined;
});

async function mapOf(o: { without?: PartialModeName[]; faults?: FaultName[] }): Promise<FeatureFinding[]> {
  started = await startEmbeddedTarget({ faults: o.faults ?? [], variations: [], without: o.without }, profile);
  const clients = openProbeClients(started.config, 'probe0001', profile, 5_000);
  try {
    return await probeCapabilities(clients.guarded, clients.plain, { profile, runId: 'probe0001', watchWaitMs: 1_000, typeWaitMs: 1_000 });
  } finally {
    await clients.close();
  }
}
const stateOf = (map: readonly FeatureFinding[], id: FeatureFinding['feature']) => map.find((f) => f.feature === id)?.state;

describe('capability probe', () => {
  it('the full reference server serves every feature of the map', async () => {
    const map = await mapOf({});
    expect(map.map((f) => f.feature)).toEqual(FEATURES.map((f) => f.id));
    expect(map.filter((f) => f.state !== 'served')).toEqual([]);
  });

  it.each(partialModes.map((m) => [m.name, m.feature] as const))('without %s: that feature alone is not served', async (name, feature) => {
    const map = await mapOf({ without: [name] });
    expect(map.filter((f) => f.state !== 'served').map((f) => [f.feature, f.state])).toEqual([[feature, 'notServed']]);
  });

  it('all modes at once: exactly their features are not served', async () => {
    const map = await mapOf({ without: partialModes.map((m) => m.name) });
    expect(new Set(map.filter((f) => f.state !== 'served').map((f) => f.feature))).toEqual(new Set(partialModes.map((m) => m.feature)));
    expect(map.filter((f) => f.state !== 'served').every((f) => f.state === 'notServed')).toBe(true);
  });

  it('a dry-run that is stored is served wrongly, not absent: the dry-run checks judge it', async () => {
    const map = await mapOf({ faults: ['dry-run-persists'] });
    expect(stateOf(map, 'dry-run')).toBe('servedWrongly');
  });

  it('a watch that opens and stays silent is not served (the probe waits its bound, once)', async () => {
    const map = await mapOf({ faults: ['silent-watch'] });
    const f = map.find((x) => x.feature === 'watch-delivery')!;
    expect(f.state).toBe('notServed');
    expect(f.evidence).toContain('within 1000 ms');
  });

  it('a paging fault that still pages is served: the paging checks judge it', async () => {
    expect(stateOf(await mapOf({ faults: ['page-overflow'] }), 'paging')).toBe('servedWrongly');
    expect(stateOf(await mapOf({ faults: ['remaining-off-by-one'] }), 'paging')).toBe('served');
  });
});

describe('capability probe on legal variations', () => {
  it('a server that ends every watch soon still delivers: the probe watches again from the same version', async () => {
    started = await startEmbeddedTarget({ faults: [], variations: ['watch-short-timeout'] }, profile);
    const clients = openProbeClients(started.config, 'probe0002', profile, 5_000);
    try {
      const map = await probeCapabilities(clients.guarded, clients.plain, {
        profile,
        runId: 'probe0002',
        watchWaitMs: 1_000,
        typeWaitMs: 1_000,
      });
      expect(stateOf(map, 'watch-delivery')).toBe('served');
    } finally {
      await clients.close();
    }
  });

  it('a server without Table serves it not (optional, rest:2.5.2), and everything else', async () => {
    started = await startEmbeddedTarget({ faults: [], variations: ['no-table-support'] }, profile);
    const clients = openProbeClients(started.config, 'probe0003', profile, 5_000);
    try {
      const map = await probeCapabilities(clients.guarded, clients.plain, {
        profile,
        runId: 'probe0003',
        watchWaitMs: 1_000,
        typeWaitMs: 1_000,
      });
      expect(map.filter((f) => f.state !== 'served').map((f) => [f.feature, f.state])).toEqual([['table', 'notServed']]);
    } finally {
      await clients.close();
    }
  });
});
