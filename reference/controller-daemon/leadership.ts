/**
 * What the leader election table of node:2.6 bounds: where the lock lives and how long a starting daemon
 * may take to hold it. A slot left by an earlier holder that stopped without releasing it is free only
 * after `--leader-elect-lease-duration` without renewal ("Wait of non-leaders before taking over an
 * unrenewed slot"), and attempts come every `--leader-elect-retry-period` ("Wait between acquisition or
 * renewal attempts"). The window the suite waits is therefore the lease duration plus three retry
 * periods (one for the first attempt, two for the jitter a real client adds to its waits); past it the
 * observation is inconclusive, never a failure, since the spec sets no deadline of its own.
 *
 *   leaseWindow(withDefaults({}, 'k8s')) -> { namespace: 'kube-system', name: 'kube-controller-manager', ms: 21000, ... }
 */
import type { Values } from './effective.ts';

export interface LeaseWindow {
  readonly namespace: string;
  readonly name: string;
  /** Longest wait for the Lease, ms. */
  readonly ms: number;
  /** How the window was derived, for the report. */
  readonly basis: string;
}

const NS_PER_MS = 1_000_000n;

/** `values`: the effective options (defaults applied). */
export function leaseWindow(values: Values): LeaseWindow {
  const lease = Number((values['leader-elect-lease-duration'] as bigint) / NS_PER_MS);
  const retry = Number((values['leader-elect-retry-period'] as bigint) / NS_PER_MS);
  return {
    namespace: values['leader-elect-resource-namespace'] as string,
    name: values['leader-elect-resource-name'] as string,
    ms: lease + 3 * retry,
    basis: `lease duration ${lease / 1000}s + 3 × retry period ${retry / 1000}s`,
  };
}
