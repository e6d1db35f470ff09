/**
 * Release ranges of the expectations file (`when: { release: '>=1.24 <1.27' }`): bounds on a target's
 * major.minor, parsed and tested.
 */
export interface ReleaseRange {
  readonly text: string;
  readonly bounds: readonly { readonly op: '>=' | '>' | '<=' | '<' | '='; readonly minor: readonly [number, number] }[];
}

/** `>=1.24 <1.27`, `1.24` (that minor release), `<=1.30`: bounds on major.minor, all of which must hold. */
export function parseReleaseRange(text: string): ReleaseRange | undefined {
  const parts = text.trim().split(/\s+/);
  const bounds: ReleaseRange['bounds'][number][] = [];
  for (const p of parts) {
    const m = /^(>=|<=|>|<|=)?v?(\d+)\.(\d+)$/.exec(p);
    if (!m) return undefined;
    bounds.push({ op: (m[1] ?? '=') as ReleaseRange['bounds'][number]['op'], minor: [Number(m[2]), Number(m[3])] });
  }
  return bounds.length === 0 ? undefined : { text: text.trim(), bounds };
}

/** major.minor of `v1.24.2`, `1.24`, `1.24.0-rc.1`; undefined when it is none of these. */
export function minorOf(release: string): [number, number] | undefined {
  const m = /^v?(\d+)\.(\d+)(?:\.|$|-|\+)/.exec(release.trim());
  return m ? [Number(m[1]), Number(m[2])] : undefined;
}

export function releaseInRange(range: ReleaseRange, release: readonly [number, number]): boolean {
  const cmp = (a: readonly [number, number], b: readonly [number, number]) => a[0] - b[0] || a[1] - b[1];
  return range.bounds.every((b) => {
    const c = cmp(release, b.minor);
    return b.op === '=' ? c === 0 : b.op === '>=' ? c >= 0 : b.op === '>' ? c > 0 : b.op === '<=' ? c <= 0 : c < 0;
  });
}
