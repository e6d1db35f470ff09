/**
 * Field sets (rest:2.6, upstream `fieldpath.Set`): a set of paths. Union, intersection and difference
 * are on member paths only: owning `.spec.m.a` does not mean owning `.spec.m` or `.spec.m.b`.
 * Sets are immutable values.
 */
import { pathKey, pathOfKey, type Path } from './path.ts';

export class FieldSet {
  private constructor(private readonly keys: ReadonlySet<string>) {}

  static readonly empty = new FieldSet(new Set());

  static of(paths: Iterable<Path>): FieldSet {
    const s = new Set<string>();
    for (const p of paths) s.add(pathKey(p));
    return new FieldSet(s);
  }

  has(p: Path): boolean {
    return this.keys.has(pathKey(p));
  }

  private prefixCache: Set<string> | undefined;
  private pathCache: Path[] | undefined;

  /** Any member strictly below `p`. */
  hasUnder(p: Path): boolean {
    if (!this.prefixCache) {
      this.prefixCache = new Set();
      for (const q of this.paths()) for (let i = 0; i < q.length; i++) this.prefixCache.add(pathKey(q.slice(0, i)));
    }
    return this.prefixCache.has(pathKey(p));
  }

  get size(): number {
    return this.keys.size;
  }

  isEmpty(): boolean {
    return this.keys.size === 0;
  }

  /** Members in a stable order (sorted by their keys). */
  paths(): Path[] {
    this.pathCache ??= [...this.keys].sort().map(pathOfKey);
    return this.pathCache;
  }

  union(o: FieldSet): FieldSet {
    return new FieldSet(new Set([...this.keys, ...o.keys]));
  }

  intersection(o: FieldSet): FieldSet {
    return new FieldSet(new Set([...this.keys].filter((k) => o.keys.has(k))));
  }

  difference(o: FieldSet): FieldSet {
    return new FieldSet(new Set([...this.keys].filter((k) => !o.keys.has(k))));
  }

  equals(o: FieldSet): boolean {
    return this.keys.size === o.keys.size && [...this.keys].every((k) => o.keys.has(k));
  }

  filter(keep: (p: Path) => boolean): FieldSet {
    return new FieldSet(new Set([...this.keys].filter((k) => keep(pathOfKey(k)))));
  }
}
