/**
 * A fixed list as one fast-check case: every item on every run (no draw, so no seed decides which item
 * is judged), shrinking to each item alone, in order (a list of one does not shrink further). A failure
 * found at the k-th item is reported as that item after at most k + 1 further runs of the property.
 */
import fc from 'fast-check';

export class EveryOneArbitrary<T> extends fc.Arbitrary<readonly T[]> {
  constructor(private readonly items: readonly T[]) {
    super();
  }
  generate(): fc.Value<readonly T[]> {
    return new fc.Value(this.items, undefined);
  }
  canShrinkWithoutContext(value: unknown): value is readonly T[] {
    return Array.isArray(value) && value.every((x) => this.items.includes(x as T));
  }
  shrink(value: readonly T[]): fc.Stream<fc.Value<readonly T[]>> {
    if (value.length <= 1) return fc.Stream.nil();
    return fc.Stream.of(...value.map((x) => new fc.Value([x] as readonly T[], undefined)));
  }
}
