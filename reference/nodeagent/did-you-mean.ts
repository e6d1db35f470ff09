/** The field a person likely meant by a mistyped name, for the messages of the node-agent config model. */
/**
 * The field meant, for a name a person likely mistyped: the same letters in another case, or one
 * edit away (a letter missing, extra, changed or two swapped).
 *   didYouMean('maxpods', ['maxPods', 'podsPerCore']) -> ' (did you mean maxPods?)'
 */
export function didYouMean(name: string, known: readonly string[]): string {
  const lower = name.toLowerCase();
  const hit =
    known.find((k) => k.toLowerCase() === lower) ?? known.find((k) => k.length > 3 && editDistanceAtMostOne(k.toLowerCase(), lower));
  return hit === undefined ? '' : ` (did you mean ${hit}?)`;
}

function editDistanceAtMostOne(a: string, b: string): boolean {
  if (Math.abs(a.length - b.length) > 1) return false;
  let i = 0;
  while (i < a.length && i < b.length && a[i] === b[i]) i++;
  if (a.length === b.length) {
    if (i === a.length) return true;
    if (a.slice(i + 1) === b.slice(i + 1)) return true;
    return a[i] === b[i + 1] && a[i + 1] === b[i] && a.slice(i + 2) === b.slice(i + 2);
  }
  return a.length > b.length ? a.slice(i + 1) === b.slice(i) : a.slice(i) === b.slice(i + 1);
}
