/**
 * A versioned key-value store in the manner of etcd: one global revision counter, every write a new
 * revision, each key a chain of versions so any retained revision can be read as a snapshot, and
 * time-based compaction that drops what is older than the history window.
 */
export type StoredObject = Record<string, unknown> & { metadata: Record<string, unknown> };

/** One change, as a watch delivers it. */
export interface ChangeEvent {
  readonly rev: number;
  readonly key: string;
  /** The object before this change, undefined for a creation. */
  readonly before: StoredObject | undefined;
  /** The object after this change, null for a deletion. */
  readonly after: StoredObject | null;
}

interface Version {
  readonly rev: number;
  /** null: deleted at this revision. */
  readonly obj: StoredObject | null;
}

export class VersionedStore {
  private rev = 0;
  private readonly chains = new Map<string, Version[]>();
  /**
   * The keys of `chains` by their first one and two segments (`configmaps/`, `configmaps/ns-1/`): a
   * read of one collection scans its own keys, not every key the history window still holds.
   */
  private readonly buckets = new Map<string, Set<string>>();
  /** Every write in revision order: when it was made, and its key (the one chain a compaction past it may trim). */
  private readonly revTimes: { rev: number; atMs: number; key: string }[] = [];
  /** Oldest revision still readable as a snapshot. */
  private compacted = 0;
  private readonly waiters = new Set<() => void>();
  /** Changes in revision order, trimmed with the history window (watch history, rest:6.1.4). */
  private readonly log: ChangeEvent[] = [];
  /**
   * Planted fault watch-skip-late-commit: how long a revision's change stays out of the watch log
   * after the write is acknowledged (a SQL shim whose row with a lower id commits after a higher one).
   */
  lateCommitMs: ((rev: number) => number) | undefined;

  get currentRevision(): number {
    return this.rev;
  }

  get oldestRetained(): number {
    return this.compacted;
  }

  /** Versions held in all chains: what compaction bounds. */
  get retainedVersions(): number {
    let n = 0;
    for (const chain of this.chains.values()) n += chain.length;
    return n;
  }

  /** Writes (obj) or deletes (null) a key at a new revision; returns that revision. */
  write(key: string, obj: StoredObject | null, nowMs: number): number {
    const before = this.get(key);
    const rev = ++this.rev;
    const change = { rev, key, before, after: obj };
    const late = this.lateCommitMs?.(rev) ?? 0;
    if (late > 0) {
      setTimeout(() => {
        // Inserted in revision order: a watcher already past it never sees it.
        let at = this.log.length;
        while (at > 0 && this.log[at - 1]!.rev > rev) at--;
        this.log.splice(at, 0, change);
        for (const w of this.waiters) w();
      }, late).unref();
    } else this.log.push(change);
    const chain = this.chains.get(key);
    if (chain) chain.push({ rev, obj });
    else this.addChain(key, [{ rev, obj }]);
    this.revTimes.push({ rev, atMs: nowMs, key });
    for (const w of this.waiters) w();
    return rev;
  }

  /** The next revision number a write will get (to stamp the object before storing it). */
  get nextRevision(): number {
    return this.rev + 1;
  }

  get(key: string, atRev = this.rev): StoredObject | undefined {
    const chain = this.chains.get(key);
    if (!chain) return undefined;
    for (let i = chain.length - 1; i >= 0; i--) {
      const v = chain[i]!;
      if (v.rev <= atRev) return v.obj ?? undefined;
    }
    return undefined;
  }

  private addChain(key: string, chain: Version[]): void {
    this.chains.set(key, chain);
    for (const b of bucketsOf(key)) {
      let set = this.buckets.get(b);
      if (!set) this.buckets.set(b, (set = new Set()));
      set.add(key);
    }
  }

  private dropChain(key: string): void {
    this.chains.delete(key);
    for (const b of bucketsOf(key)) {
      const set = this.buckets.get(b);
      set?.delete(key);
      if (set?.size === 0) this.buckets.delete(b);
    }
  }

  /** Every key that may start with `prefix` (a superset: callers still test the prefix). */
  private keysUnder(prefix: string): Iterable<string> {
    const bucket = bucketOfPrefix(prefix);
    return bucket === undefined ? this.chains.keys() : (this.buckets.get(bucket) ?? []);
  }

  /** Live objects under a key prefix at a revision, ordered by key. */
  list(prefix: string, atRev = this.rev): { key: string; obj: StoredObject }[] {
    const out: { key: string; obj: StoredObject }[] = [];
    for (const key of this.keysUnder(prefix)) {
      if (!key.startsWith(prefix)) continue;
      const obj = this.get(key, atRev);
      if (obj) out.push({ key, obj });
    }
    return out.sort((a, b) => (a.key < b.key ? -1 : a.key > b.key ? 1 : 0));
  }

  /**
   * Drops history older than the window: the newest revision written at or before `now - window`
   * becomes the oldest readable one (reads of older revisions get 410 Gone).
   */
  compact(nowMs: number, windowMs: number): void {
    const horizon = nowMs - windowMs;
    let cut = this.compacted;
    // Only a key written since the last compaction can have a version to drop: every other chain was
    // already trimmed to the one version at or below that cut (this runs before every request).
    const written = new Set<string>();
    while (this.revTimes.length > 0 && this.revTimes[0]!.atMs <= horizon) {
      const w = this.revTimes.shift()!;
      cut = w.rev;
      written.add(w.key);
    }
    if (cut <= this.compacted) return;
    this.compacted = cut;
    while (this.log.length > 0 && this.log[0]!.rev <= cut) this.log.shift();
    for (const key of written) this.trimChain(key, cut);
  }

  /** Keeps the newest version at or below the cut (it is the value at `cut`) and everything after. */
  private trimChain(key: string, cut: number): void {
    const chain = this.chains.get(key);
    if (chain === undefined) return;
    let keepFrom = 0;
    for (let i = 0; i < chain.length; i++) if (chain[i]!.rev <= cut) keepFrom = i;
    const kept = keepFrom === 0 ? chain : chain.slice(keepFrom);
    if (kept.length === 1 && kept[0]!.obj === null && kept[0]!.rev <= cut) this.dropChain(key);
    else if (kept !== chain) this.chains.set(key, kept);
  }

  /** Compacts explicitly (the restart/compact hooks): revisions before `rev` become unreadable. */
  compactTo(rev: number): void {
    if (rev <= this.compacted) return;
    this.compacted = rev;
    while (this.log.length > 0 && this.log[0]!.rev <= rev) this.log.shift();
    while (this.revTimes.length > 0 && this.revTimes[0]!.rev <= rev) this.revTimes.shift();
    for (const key of [...this.chains.keys()]) this.trimChain(key, rev);
  }

  /** Planted fault restart-loses-last-write: the newest revision is lost and its number will be reused. */
  forgetNewest(): void {
    const rev = this.rev;
    if (rev === 0 || rev <= this.compacted) return;
    for (const [key, chain] of this.chains) {
      if (chain[chain.length - 1]?.rev === rev) chain.pop();
      if (chain.length === 0) this.dropChain(key);
    }
    const at = this.log.findIndex((c) => c.rev === rev);
    if (at >= 0) this.log.splice(at, 1);
    if (this.revTimes[this.revTimes.length - 1]?.rev === rev) this.revTimes.pop();
    this.rev = rev - 1;
  }

  /**
   * The newest revision of any write under a key prefix (a deletion included): how far a per-type
   * cache fed only by that type's changes has got (upstream's watch cache, variation watch-cache-lag-504).
   */
  lastRevisionUnder(prefix: string): number {
    let last = this.compacted;
    for (const key of this.keysUnder(prefix)) if (key.startsWith(prefix)) last = Math.max(last, this.chains.get(key)!.at(-1)!.rev);
    return last;
  }

  /** Changes after a revision, in order (what a watch from that revision must deliver). */
  changesAfter(rev: number): ChangeEvent[] {
    let lo = 0;
    while (lo < this.log.length && this.log[lo]!.rev <= rev) lo++;
    return this.log.slice(lo);
  }

  /** Calls `fn` after every write until the returned function is called. */
  subscribe(fn: () => void): () => void {
    this.waiters.add(fn);
    return () => this.waiters.delete(fn);
  }

  /** Resolves when the revision exists or the time is up; true if it exists. */
  async waitForRevision(rev: number, timeoutMs: number): Promise<boolean> {
    if (rev <= this.rev) return true;
    return new Promise((resolve) => {
      const done = (ok: boolean) => {
        this.waiters.delete(check);
        clearTimeout(timer);
        resolve(ok);
      };
      const check = () => {
        if (rev <= this.rev) done(true);
      };
      const timer = setTimeout(() => done(rev <= this.rev), timeoutMs);
      this.waiters.add(check);
    });
  }
}

/** The buckets a key is filed under: its first segment and its first two, each with the slash after it. */
function bucketsOf(key: string): string[] {
  const one = key.indexOf('/');
  if (one < 0) return [];
  const two = key.indexOf('/', one + 1);
  return two < 0 ? [key.slice(0, one + 1)] : [key.slice(0, one + 1), key.slice(0, two + 1)];
}

/** The bucket holding every key that starts with `prefix`: its part up to the slash ending its first two segments (or its first). */
function bucketOfPrefix(prefix: string): string | undefined {
  const one = prefix.indexOf('/');
  if (one < 0) return undefined;
  const two = prefix.indexOf('/', one + 1);
  return two < 0 ? prefix.slice(0, one + 1) : prefix.slice(0, two + 1);
}
