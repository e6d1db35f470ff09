/**
 * The scale profile (`--scale nightly`): how big the rest-scale checks make things. Off in
 * the default run, where the rest-scale checks are not checked. Sizes only: what is acceptable is the
 * model's (reference/scale.ts, reference/scope.ts).
 */
export interface ScaleProfile {
  readonly name: string;
  /** Objects created in one collection (one namespace of the run). */
  readonly objects: number;
  /** Page size of the long chain: objects / pageLimit pages. */
  readonly pageLimit: number;
  /** A write (update, create, delete in turn) after every this many pages. */
  readonly writeEveryPages: number;
  /** Requests in flight while filling the collection. */
  readonly concurrency: number;
  /** Roots of the prefix families: root r gives namespaces <base>-r, <base>-r0, <base>-r00, ... */
  readonly namespaceRoots: number;
  /** Namespaces per family (depth of the prefix chain). */
  readonly namespaceDepth: number;
  /** Objects per namespace of the prefix families. */
  readonly objectsPerNamespace: number;
  /** Bytes of data of an object near the usual size limit (upstream: 1 MiB for a ConfigMap's data). */
  readonly nearLimitBytes: number;
  /** Bytes of data of the one object over it. */
  readonly overLimitBytes: number;
}

export const scaleProfiles = {
  /** The nightly run: thousands of objects, a chain of hundreds of pages, two dozen prefix namespaces. */
  nightly: {
    name: 'nightly',
    objects: 3000,
    pageLimit: 10,
    writeEveryPages: 5,
    concurrency: 8,
    namespaceRoots: 8,
    namespaceDepth: 3,
    objectsPerNamespace: 4,
    nearLimitBytes: 1_000_000,
    overLimitBytes: 1_600_000,
  },
  /** The self-tests: small, but a chain still longer than the planted page-chain-drift needs. */
  selftest: {
    name: 'selftest',
    objects: 130,
    pageLimit: 2,
    writeEveryPages: 7,
    concurrency: 8,
    namespaceRoots: 2,
    namespaceDepth: 3,
    objectsPerNamespace: 2,
    nearLimitBytes: 200_000,
    overLimitBytes: 1_600_000,
  },
} as const satisfies Record<string, ScaleProfile>;

export type ScaleName = keyof typeof scaleProfiles;

/**
 * The embedded server's token lifetime and history window under a scale profile: a long chain must
 * finish within them (its first page's revision must not be compacted); as long as a run without
 * --slow still waits out, so the window-bound checks keep running.
 */
export const SCALE_WINDOW_MS = 10_000;

/** The profiles a user may name on the command line (`selftest` is the self-tests' own). */
export const SCALE_CHOICES = ['nightly'] as const;

export function scaleProfileByName(name: string): ScaleProfile | undefined {
  return (SCALE_CHOICES as readonly string[]).includes(name) ? scaleProfiles[name as ScaleName] : undefined;
}

/** `<base>-1, <base>-10, <base>-100, <base>-2, ...`: every family's names prefix one another. */
export function prefixNamespaceNames(base: string, p: Pick<ScaleProfile, 'namespaceRoots' | 'namespaceDepth'>): string[][] {
  const out: string[][] = [];
  for (let r = 1; r <= p.namespaceRoots; r++) out.push(Array.from({ length: p.namespaceDepth }, (_, d) => `${base}-${r}${'0'.repeat(d)}`));
  return out;
}
