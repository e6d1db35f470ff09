/**
 * Which checks shard i of n runs: a deterministic split of the registry order, round robin, so each
 * shard gets a mix of slow and fast suites. `i` counts from 1.
 *   shardOf(['a', 'b', 'c', 'd'], 2, 3) -> ['b']
 */
export function shardOf<T>(items: readonly T[], index: number, count: number): T[] {
  return items.filter((_, k) => k % count === index - 1);
}

/** `2/3` -> {index 2, count 3}; undefined when malformed. */
export function parseShard(text: string): { index: number; count: number } | undefined {
  const m = /^(\d+)\/(\d+)$/.exec(text);
  if (!m) return undefined;
  const index = Number(m[1]);
  const count = Number(m[2]);
  return count >= 1 && index >= 1 && index <= count ? { index, count } : undefined;
}
