/**
 * The resourceVersions a reused namespace answered before a case leased it. A read the spec lets be
 * served from any past state (rv="0") may show them: states the case's model never held, which the
 * read oracle counts as inconclusive rather than wrong (reference/read-context.ts).
 */

/** What the oracles read of a set of versions (reference/read-oracle.ts): membership and emptiness. */
export interface VersionSet {
  has(v: string): boolean;
  readonly size: number;
}

/**
 * The versions a namespace answered before a lease began: a view of the pool's record (version -> order
 * first seen), not a copy of it per lease; versions seen after the lease began are not in it.
 */
export class SeenBefore implements VersionSet {
  constructor(
    private readonly seen: ReadonlyMap<string, number>,
    readonly size: number,
  ) {}

  has(v: string): boolean {
    const at = this.seen.get(v);
    return at !== undefined && at < this.size;
  }
}

/**
 * A case's prior versions: those of every pooled namespace it reused. Different namespaces hold
 * different objects, so their versions are apart and the sizes add up.
 */
export class PriorVersions implements VersionSet {
  private readonly parts: VersionSet[] = [];

  include(part: VersionSet): void {
    if (part.size > 0) this.parts.push(part);
  }

  has(v: string): boolean {
    return this.parts.some((p) => p.has(v));
  }

  get size(): number {
    return this.parts.reduce((n, p) => n + p.size, 0);
  }
}
