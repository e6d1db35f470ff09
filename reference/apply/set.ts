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

  /** Any member strictly below `p`. */
  hasUnder(p: Path): boolean {
    const prefix = p.length === 0 ? '[' : `${pathKey(p).slice(0, -1)},`;
    for (const k of this.keys) if (k.startsWith(prefix) && k !== pathKey(p)) return true;
    return false;
  }

  get size(): number {
    return this.keys.size;
  }

  isEmpty(): boolean {
    return this.keys.size === 0;
  }

  paths(): Path[] {
    return [...this.keys].sort().map(pathOfKey);
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
