/**
 * Field paths as the loader protocol writes them (docs/architecture.md "Targets and protocols"):
 * `a.b[0].c`, split into keys and list indexes.
 *
 *   pathSegments('evictionHard[0].memory') -> ['evictionHard', 0, 'memory']
 */
export function pathSegments(path: string): (string | number)[] {
  const out: (string | number)[] = [];
  for (const m of path.matchAll(/([^.[\]]+)|\[(\d+)\]/g)) out.push(m[2] !== undefined ? Number(m[2]) : m[1]!);
  return out;
}
