/**
 * One share of a list of oracle cases, for a file that runs only its share (vitest spreads files, not
 * cases, over its workers). Round robin, so every share gets some of each end of the list; the shares
 * of 1..parts together are the whole list, each item exactly once.
 *
 *   shareOf([a, b, c, d, e], 2, 2) -> [b, d]
 */
export function shareOf<T>(items: readonly T[], part: number, parts: number): T[] {
  if (!Number.isInteger(parts) || parts < 1 || !Number.isInteger(part) || part < 1 || part > parts)
    throw new Error(`share ${part} of ${parts}: not a share`);
  return items.filter((_, i) => i % parts === part - 1);
}
