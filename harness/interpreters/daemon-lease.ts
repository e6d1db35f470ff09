/**
 * Reading what a controller daemon wrote on its API server: the Lease at the place the model expects,
 * every other Lease with a holder (to see a lock taken elsewhere), and whether the lock namespace
 * exists. Records only; reference/controller-daemon/judge.ts decides. The server is the private
 * reference server of an external run (never the user's cluster) or the embedded target.
 */
import { undici } from '../transport/index.ts';
import type { LeaseSeen, LeaseWindow } from '../../reference/controller-daemon/index.ts';
import type { Profile } from '../../reference/profile.ts';
import { collectionPath, objectPath, resourceTypes } from '../../reference/resources.ts';
import type { CaseContext } from '../case/index.ts';
import type { ControllerDaemonTarget, DaemonProcess } from '../processes/index.ts';
import { stretched, type Pace } from '../transport/index.ts';

type Get = (path: string) => Promise<{ status: number; json: unknown }>;

/** GETs on the daemon's API server: the private server when there is one, else the run's target. */
export function daemonApiGet(t: ControllerDaemonTarget, cx: CaseContext): Get {
  return async (path) => {
    if (t.apiServerUrl === undefined) {
      const r = await cx.send({ method: 'GET', path });
      return { status: r.status, json: r.json };
    }
    const r = await undici().request(new URL(path, t.apiServerUrl));
    const text = await r.body.text();
    return { status: r.statusCode, json: r.statusCode === 200 ? JSON.parse(text) : undefined };
  };
}

type LeaseJson = {
  metadata?: { name?: string; namespace?: string; resourceVersion?: string; labels?: Record<string, string> };
  spec?: { holderIdentity?: string };
};

const seen = (l: LeaseJson): LeaseSeen => ({
  namespace: l.metadata?.namespace ?? '',
  name: l.metadata?.name ?? '',
  resourceVersion: l.metadata?.resourceVersion,
  ...(l.spec?.holderIdentity ? { holder: l.spec.holderIdentity } : {}),
});

export interface LeaseReading {
  readonly at?: LeaseSeen;
  /** Every Lease with a holder, by `namespace/name`, except the suite's own objects. */
  readonly all: ReadonlyMap<string, LeaseSeen>;
}

export async function readLeases(get: Get, profile: Profile, w: Pick<LeaseWindow, 'namespace' | 'name'>): Promise<LeaseReading> {
  const rt = resourceTypes(profile).leases;
  const one = await get(objectPath(rt, w.name, w.namespace));
  const list = await get(collectionPath(rt));
  const items = list.status === 200 ? ((list.json as { items?: LeaseJson[] }).items ?? []) : [];
  const all = new Map(
    items
      .filter((l) => !l.metadata?.labels?.[profile.runLabel] && l.spec?.holderIdentity)
      .map((l) => [`${l.metadata?.namespace}/${l.metadata?.name}`, seen(l)] as const),
  );
  return { at: one.status === 200 ? seen(one.json as LeaseJson) : undefined, all };
}

export async function namespaceExists(get: Get, profile: Profile, namespace: string): Promise<boolean> {
  return (await get(objectPath(resourceTypes(profile).namespaces, namespace))).status === 200;
}

/** Leases of `after` written since `before` (new, or a new resourceVersion) at a place other than the window's. */
export function writtenElsewhere(before: LeaseReading, after: LeaseReading, w: Pick<LeaseWindow, 'namespace' | 'name'>): LeaseSeen[] {
  return [...after.all.entries()]
    .filter(([k, l]) => k !== `${w.namespace}/${w.name}` && before.all.get(k)?.resourceVersion !== l.resourceVersion)
    .map(([, l]) => l);
}

export interface LeadershipWait {
  readonly before: LeaseReading;
  readonly after: LeaseReading;
  readonly exited?: { code: number | null; output: string };
  readonly namespaceExists: boolean;
}

/**
 * Polls the daemon's API server until the daemon writes the Lease at the window's place (or anywhere
 * else), exits, or the window passes. With `settleMs`, a daemon that took the Lease is then given that
 * long to exit (a control-loop value refused when the loop starts). Both waits are stretched by the
 * daemon's `pace` on a busy machine: the spec's window is what a daemon may take, not what the suite
 * must stop at, and a Lease not seen is inconclusive whatever the wait.
 */
export async function awaitLeadership(
  dp: DaemonProcess,
  get: Get,
  profile: Profile,
  w: LeaseWindow,
  before: LeaseReading,
  o: { now: () => number; sleep: (ms: number) => Promise<void>; settleMs?: number; pace?: Pace },
): Promise<LeadershipWait> {
  const gone: { exit?: { code: number | null } } = {};
  void dp.exited.then((e) => (gone.exit = e));
  const deadline = o.now() + stretched(o.pace, w.ms);
  let after = await readLeases(get, profile, w);
  const decided = () =>
    Boolean(after.at?.holder && after.at.resourceVersion !== before.at?.resourceVersion) || writtenElsewhere(before, after, w).length > 0;
  while (!gone.exit && !decided() && o.now() < deadline) {
    await o.sleep(200);
    after = await readLeases(get, profile, w);
  }
  if (!gone.exit && decided() && o.settleMs) {
    await Promise.race([dp.exited, o.sleep(stretched(o.pace, o.settleMs))]);
  }
  return {
    before,
    after,
    exited: gone.exit ? { code: gone.exit.code, output: dp.output() } : undefined,
    namespaceExists: await namespaceExists(get, profile, w.namespace),
  };
}
