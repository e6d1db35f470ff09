/**
 * The operation vocabulary of the REST suites and its arbitraries. Operations are plain, serialisable
 * data (docs/architecture.md "Generation apart from execution"): they never import the HTTP client; the harness interprets them. A
 * resourceVersion is never generated: `RvPick` says which *learned* version to use at run time.
 */
import fc from 'fast-check';
import type { MatchClass } from '../reference/rv-semantics.ts';

export type ResName = 'configmaps' | 'leases';

/** `learned`: the pick-th resourceVersion the suite has learned so far (modulo how many). */
export type RvPick = { readonly kind: 'unset' } | { readonly kind: 'zero' } | { readonly kind: 'learned'; readonly pick: number };

export interface ContentSpec {
  readonly labels: Readonly<Record<string, string>>;
  readonly annotations: Readonly<Record<string, string>>;
  /** ConfigMap `data` or Lease `spec`, built from this by the harness per resource. */
  readonly data: Readonly<Record<string, string>>;
}

export type WriteOp =
  | { readonly op: 'create'; readonly res: ResName; readonly ns: number; readonly name: string; readonly content: ContentSpec }
  | { readonly op: 'update'; readonly res: ResName; readonly ns: number; readonly name: string; readonly content: ContentSpec }
  | { readonly op: 'delete'; readonly res: ResName; readonly ns: number; readonly name: string };

export interface ListOp {
  readonly op: 'list';
  readonly res: ResName;
  /** A namespace of the case, or every namespace (`/api/v1/configmaps`, narrowed by the case label). */
  readonly ns: number | 'all';
  readonly match: MatchClass;
  readonly rv: RvPick;
  readonly limit?: number;
  readonly selector?: string;
  /** Writes run after page i (cycled), to show pages stay on the first page's snapshot. */
  readonly between?: readonly WriteOp[];
  /** `resourceVersion` sent with continuation requests (the limit+continue row of rest:4.5). */
  readonly continueRv?: RvPick;
}

export type ReadOp =
  | { readonly op: 'get'; readonly res: ResName; readonly ns: number; readonly name: string; readonly rv: RvPick }
  | ListOp
  | { readonly op: 'tooLarge'; readonly res: ResName; readonly ns: number; readonly via: 'get' | 'list' | 'list-exact' | 'list-limit' };

export type Op = WriteOp | ReadOp;

/** The suite's label and annotation vocabulary: small pools, so equal values and no-op updates happen. */
export const labelPool = ['app', 'tier'] as const;
export const labelValues = ['web', 'db', 'x'] as const;
export const annotationPool = ['note'] as const;
export const namePool = ['alpha', 'bravo', 'charlie', 'delta', 'echo', 'foxtrot'] as const;

export const contentArb: fc.Arbitrary<ContentSpec> = fc.record({
  labels: fc.dictionary(fc.constantFrom(...labelPool), fc.constantFrom(...labelValues), { maxKeys: 2 }),
  annotations: fc.dictionary(fc.constantFrom(...annotationPool), fc.constantFrom('one', 'two'), { maxKeys: 1 }),
  data: fc.dictionary(fc.constantFrom('k1', 'k2', 'k3'), fc.constantFrom('v1', 'v2', '', 'a b'), { maxKeys: 3 }),
});

export const rvPickArb: fc.Arbitrary<RvPick> = fc.oneof(
  fc.constant({ kind: 'unset' } as const),
  fc.constant({ kind: 'zero' } as const),
  fc.nat({ max: 50 }).map((pick) => ({ kind: 'learned', pick }) as const),
);

export const selectorArb: fc.Arbitrary<string> = fc.oneof(
  fc.constantFrom(...labelPool).chain((k) => fc.constantFrom(...labelValues).map((v) => `${k}=${v}`)),
  fc.constantFrom(...labelPool).chain((k) => fc.constantFrom(...labelValues).map((v) => `${k}!=${v}`)),
  fc.constantFrom(...labelPool).map((k) => `${k} in (web,db)`),
  fc.constantFrom(...labelPool),
  fc.constantFrom(...labelPool).map((k) => `!${k}`),
);

export interface OpsShape {
  readonly resources: readonly ResName[];
  readonly namespaces: number;
}

export function writeOpArb(shape: OpsShape): fc.Arbitrary<WriteOp> {
  const res = fc.constantFrom(...shape.resources);
  const ns = fc.nat({ max: shape.namespaces - 1 });
  const name = fc.constantFrom(...namePool);
  return fc.oneof(
    { weight: 4, arbitrary: fc.record({ op: fc.constant('create' as const), res, ns, name, content: contentArb }) },
    { weight: 3, arbitrary: fc.record({ op: fc.constant('update' as const), res, ns, name, content: contentArb }) },
    { weight: 1, arbitrary: fc.record({ op: fc.constant('delete' as const), res, ns, name }) },
  );
}

export function listOpArb(shape: OpsShape, opts: { paged?: boolean } = {}): fc.Arbitrary<ListOp> {
  const base = {
    op: fc.constant('list' as const),
    res: fc.constantFrom(...shape.resources),
    ns: fc.oneof({ weight: 4, arbitrary: fc.nat({ max: shape.namespaces - 1 }) }, { weight: 1, arbitrary: fc.constant('all' as const) }),
    match: fc.constantFrom<MatchClass>('unset', 'unset', 'Exact', 'NotOlderThan'),
    rv: rvPickArb,
  };
  const paged = fc.record(
    {
      ...base,
      limit: fc.integer({ min: 1, max: 4 }),
      between: fc.array(writeOpArb(shape), { maxLength: 3 }),
      continueRv: rvPickArb,
      selector: fc.option(selectorArb, { nil: undefined }),
    },
    { requiredKeys: ['op', 'res', 'ns', 'match', 'rv', 'limit', 'between'] },
  );
  const unpaged = fc.record(
    { ...base, selector: fc.option(selectorArb, { nil: undefined }) },
    { requiredKeys: ['op', 'res', 'ns', 'match', 'rv'] },
  );
  return opts.paged ? paged : fc.oneof(unpaged, paged);
}

export function readOpArb(shape: OpsShape): fc.Arbitrary<ReadOp> {
  return fc.oneof(
    {
      weight: 2,
      arbitrary: fc.record({
        op: fc.constant('get' as const),
        res: fc.constantFrom(...shape.resources),
        ns: fc.nat({ max: shape.namespaces - 1 }),
        name: fc.constantFrom(...namePool),
        rv: rvPickArb,
      }),
    },
    { weight: 3, arbitrary: listOpArb(shape) },
  );
}

/** Mixed sequences: the CRUD and resourceVersion property. */
export function opsArb(shape: OpsShape, opts: { maxLength?: number } = {}): fc.Arbitrary<Op[]> {
  return fc.array(
    fc.oneof(
      { weight: 3, arbitrary: writeOpArb(shape) as fc.Arbitrary<Op> },
      { weight: 2, arbitrary: readOpArb(shape) as fc.Arbitrary<Op> },
    ),
    {
      minLength: 1,
      maxLength: opts.maxLength ?? 16,
    },
  );
}

/**
 * Operation sequences where, in about half the cases, one random object is created and later deleted
 * at random places in the sequence. A random delete hits a live object in only a few sequences (24
 * keys, one write in eight a delete), so at the default budget some seeds would never judge a delete
 * of a live object; the pair shrinks away when a failure does not need it.
 */
export function opsWithLifecycleArb(shape: OpsShape, opts: { maxLength?: number } = {}): fc.Arbitrary<Op[]> {
  const lifecycle = fc.record({
    res: fc.constantFrom(...shape.resources),
    ns: fc.nat({ max: shape.namespaces - 1 }),
    name: fc.constantFrom(...namePool),
    content: contentArb,
    at: fc.nat(),
    after: fc.nat(),
  });
  return fc
    .record({
      ops: opsArb(shape, { maxLength: Math.max(1, (opts.maxLength ?? 16) - 2) }),
      life: fc.option(lifecycle, { nil: undefined, freq: 2 }),
    })
    .map(({ ops, life }) => {
      if (!life) return ops;
      const at = life.at % (ops.length + 1);
      const del = at + 1 + (life.after % (ops.length - at + 1));
      const out: Op[] = [...ops];
      out.splice(at, 0, { op: 'create', res: life.res, ns: life.ns, name: life.name, content: life.content });
      out.splice(del, 0, { op: 'delete', res: life.res, ns: life.ns, name: life.name });
      return out;
    });
}

/** One readable line per operation, for counterexamples. */
export function showOp(op: Op): string {
  const where = (ns: number | 'all') => (ns === 'all' ? 'all-namespaces' : `ns${ns}`);
  const rv = (p: RvPick | undefined) =>
    p === undefined ? '' : p.kind === 'unset' ? '' : p.kind === 'zero' ? ' rv=0' : ` rv=learned[${p.pick}]`;
  switch (op.op) {
    case 'create':
    case 'update':
      return `${op.op} ${op.res} ${where(op.ns)}/${op.name} labels=${JSON.stringify(op.content.labels)} data=${JSON.stringify(op.content.data)}`;
    case 'delete':
      return `delete ${op.res} ${where(op.ns)}/${op.name}`;
    case 'get':
      return `get ${op.res} ${where(op.ns)}/${op.name}${rv(op.rv)}`;
    case 'tooLarge':
      return `${op.via} ${op.res} ${where(op.ns)} with a resourceVersion far in the future`;
    case 'list':
      return `list ${op.res} ${where(op.ns)}${op.match !== 'unset' ? ` match=${op.match}` : ''}${rv(op.rv)}${op.limit !== undefined ? ` limit=${op.limit}` : ''}${op.selector ? ` selector=${JSON.stringify(op.selector)}` : ''}${op.continueRv && op.continueRv.kind !== 'unset' ? ` continue-with${rv(op.continueRv)}` : ''}${op.between?.length ? ` with writes between pages: [${op.between.map(showOp).join('; ')}]` : ''}`;
  }
}
