/**
 * Leader election of the reference daemon (node:2.6 leader election table): a coordination Lease named
 * and placed by --leader-elect-resource-name / -namespace, acquired when absent or expired, renewed
 * every retry period while held, released on shutdown. The `endpointsleases` and `configmapsleases`
 * locks are multilocks upstream; the reference daemon keeps only their Lease half.
 */
import { hostname } from 'node:os';
import { randomUUID } from 'node:crypto';
import type { Target } from '../../harness/transport/index.ts';
import type { Profile } from '../../reference/profile.ts';
import { collectionPath, objectPath, resourceTypes } from '../../reference/resources.ts';

export interface LeaseOptions {
  readonly name: string;
  readonly namespace: string;
  readonly leaseDurationMs: number;
  readonly retryPeriodMs: number;
  readonly log: (line: string) => void;
  /** Called once, when leadership is first taken (the main loop starts). */
  readonly onLeading?: () => void;
}

/** RFC 3339 with microseconds, as Go's metav1.MicroTime. */
const microTime = (ms: number) => new Date(ms).toISOString().replace(/\.(\d{3})Z$/, '.$1000Z');

export class LeaderElector {
  readonly identity = `${hostname()}_${randomUUID()}`;
  private timer: NodeJS.Timeout | undefined;
  private stopped = false;
  private leading = false;
  /** The round under way, which `stop` lets finish so that what it wrote is known. */
  private round: Promise<void> | undefined;
  /** The Lease as this daemon last wrote it (the server's answer), while it leads. */
  private held: LeaseObject | undefined;

  constructor(
    private readonly api: Target,
    private readonly profile: Profile,
    private readonly o: LeaseOptions,
  ) {}

  start(): void {
    this.round = this.tick();
  }

  private schedule(): void {
    if (!this.stopped) this.timer = setTimeout(() => (this.round = this.tick()), this.o.retryPeriodMs);
  }

  private async tick(): Promise<void> {
    try {
      await this.tryAcquireOrRenew();
    } catch (e) {
      this.o.log(`leader election: ${(e as Error).message}`);
    }
    this.schedule();
  }

  private get rt() {
    return resourceTypes(this.profile).leases;
  }

  private spec(previous?: Record<string, unknown>) {
    const now = microTime(Date.now());
    const transitions = (previous?.['leaseTransitions'] as number | undefined) ?? 0;
    const takeover = previous !== undefined && previous['holderIdentity'] !== this.identity;
    return {
      holderIdentity: this.identity,
      leaseDurationSeconds: Math.max(1, Math.round(this.o.leaseDurationMs / 1000)),
      acquireTime: takeover || previous === undefined ? now : (previous['acquireTime'] ?? now),
      renewTime: now,
      leaseTransitions: takeover ? transitions + 1 : transitions,
    };
  }

  private async tryAcquireOrRenew(): Promise<void> {
    if (this.stopped) return;
    const got = await this.api.send({ method: 'GET', path: objectPath(this.rt, this.o.name, this.o.namespace) });
    if (got.status === 404) {
      const created = await this.api.send({
        method: 'POST',
        path: collectionPath(this.rt, this.o.namespace),
        body: {
          apiVersion: `${this.rt.group}/${this.rt.version}`,
          kind: 'Lease',
          metadata: { name: this.o.name, namespace: this.o.namespace },
          spec: this.spec(),
        },
      });
      if (created.status === 404) {
        // The lock namespace is missing: the reference daemon needs no cluster beyond the reference server.
        await this.api.send({
          method: 'POST',
          path: collectionPath(resourceTypes(this.profile).namespaces),
          body: { apiVersion: 'v1', kind: 'Namespace', metadata: { name: this.o.namespace } },
        });
        return;
      }
      if (created.status < 300) this.becomeLeader(created.json as LeaseObject);
      return;
    }
    if (got.status !== 200) throw new Error(`GET lease answered ${got.status}`);
    const lease = got.json as LeaseObject;
    const spec = lease.spec ?? {};
    const holder = spec['holderIdentity'] as string | undefined;
    const renewed = Date.parse(String(spec['renewTime'] ?? '')) || 0;
    const duration = ((spec['leaseDurationSeconds'] as number | undefined) ?? 0) * 1000;
    const free = !holder || holder === this.identity || renewed + duration < Date.now();
    if (!free) return;
    const put = await this.api.send({
      method: 'PUT',
      path: objectPath(this.rt, this.o.name, this.o.namespace),
      body: { ...lease, spec: { ...spec, ...this.spec(spec) } },
    });
    if (put.status === 200) this.becomeLeader(put.json as LeaseObject);
  }

  private becomeLeader(written: LeaseObject): void {
    this.held = written;
    if (this.leading) return;
    this.o.log(`leader election: ${this.identity} leads ${this.o.namespace}/${this.o.name}`);
    this.leading = true;
    this.o.onLeading?.();
  }

  /**
   * Stops renewing; when leading, clears the holder so a successor need not wait out the lease. One
   * update of the Lease as it last wrote it (as upstream's release does); a conflict means someone else
   * wrote it since, and then it is not this daemon's to clear.
   */
  async stop(): Promise<void> {
    this.stopped = true;
    if (this.timer) clearTimeout(this.timer);
    await this.round;
    const held = this.held;
    if (!this.leading || !held?.metadata?.['resourceVersion']) return;
    try {
      await this.api.send({
        method: 'PUT',
        path: objectPath(this.rt, this.o.name, this.o.namespace),
        body: { ...held, spec: { ...held.spec, holderIdentity: '', leaseDurationSeconds: 1 } },
      });
    } catch {
      // Best effort: the lease expires on its own.
    }
  }
}

type LeaseObject = { metadata: Record<string, unknown>; spec?: Record<string, unknown> };
