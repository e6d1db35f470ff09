/**
 * Write sequences with dry-run writes interleaved (rest:4.6): the real writes build a history, the
 * dry-run ones must leave it as it was, and the reads in between check that against the model.
 */
import fc from 'fast-check';
import { labelValues, namePool, readOpArb, showOp, writeOpArb, type Op, type OpsShape, type ResName, type WriteOp } from './ops.ts';

export type DryRunForm = 'All' | 'flag';

export type PatchKind = 'merge' | 'json' | 'apply';

export type DryRunStep =
  | Op
  /** `staleRv`: a real update first, then the dry-run update with the rv from before it (refused). */
  | { readonly op: 'dryRun'; readonly form: DryRunForm; readonly write: WriteOp; readonly staleRv: boolean; readonly pretty: boolean }
  /** A dry-run create with generateName (rest:2.8): the name is not relied on, nothing is stored. */
  | { readonly op: 'dryRunGenerate'; readonly res: ResName; readonly prefix: string }
  /** A dry-run delete of the case's namespace: it and its objects stay (later reads show them). */
  | { readonly op: 'dryRunDeleteNamespace' }
  /**
   * A dry-run PATCH of every type rest:4.1 shows (merge, JSON, apply), setting the `tier` label of an
   * object; `invalid`: a body the patch type cannot parse or apply, refused like the real request;
   * `ensure`: create the object for real first if the case has none (else a missing one is patched).
   */
  | {
      readonly op: 'dryRunPatch';
      readonly form: DryRunForm;
      readonly patch: PatchKind;
      readonly res: ResName;
      readonly ns: number;
      readonly name: string;
      readonly value: string;
      readonly invalid: boolean;
      readonly ensure: boolean;
      readonly pretty: boolean;
    }
  /** A dry-run POST or PUT whose annotations are not a map of string to string (rest:2.3): refused like the real one, nothing stored. */
  | {
      readonly op: 'dryRunBadBody';
      readonly form: DryRunForm;
      readonly verb: 'create' | 'update';
      readonly res: ResName;
      readonly ns: number;
      readonly name: string;
    }
  /** A dryRun value rest:4.6.1 does not list: refused (4xx). */
  | { readonly op: 'dryRunInvalid'; readonly value: string; readonly write: WriteOp };

export function dryRunStepsArb(shape: OpsShape, opts: { maxLength?: number } = {}): fc.Arbitrary<DryRunStep[]> {
  // Two names only, so dry-runs often meet an existing object, one with several versions, or a gap.
  const fold = <T extends { name: string }>(o: T): T => ({
    ...o,
    name: namePool[namePool.indexOf(o.name as (typeof namePool)[number]) % 2]!,
  });
  const write = writeOpArb(shape).map(fold);
  const unpagedRead = readOpArb(shape)
    .filter((r) => r.op !== 'list' || r.limit === undefined)
    .map((r) => (r.op === 'get' ? fold(r) : r));
  return fc.array(
    fc.oneof(
      { weight: 3, arbitrary: write as fc.Arbitrary<DryRunStep> },
      { weight: 1, arbitrary: unpagedRead as fc.Arbitrary<DryRunStep> },
      {
        weight: 3,
        arbitrary: fc.record({
          op: fc.constant('dryRun' as const),
          form: fc.constantFrom<DryRunForm>('All', 'All', 'flag'),
          write,
          staleRv: fc.boolean(),
          pretty: fc.boolean(),
        }),
      },
      {
        weight: 1,
        arbitrary: fc.record({ op: fc.constant('dryRunInvalid' as const), value: fc.constantFrom('true', 'None', 'all', 'client'), write }),
      },
      {
        weight: 1,
        arbitrary: fc.record({
          op: fc.constant('dryRunGenerate' as const),
          res: fc.constantFrom(...shape.resources),
          prefix: fc.constantFrom('gen-', 'x'),
        }),
      },
      { weight: 1, arbitrary: fc.constant({ op: 'dryRunDeleteNamespace' } as const) },
      {
        weight: 1,
        arbitrary: fc.record({
          op: fc.constant('dryRunBadBody' as const),
          form: fc.constantFrom<DryRunForm>('All', 'flag'),
          verb: fc.constantFrom('create' as const, 'update' as const),
          res: fc.constantFrom(...shape.resources),
          ns: fc.nat({ max: shape.namespaces - 1 }),
          name: fc.constantFrom(namePool[0], namePool[1]),
        }),
      },
      {
        weight: 3,
        arbitrary: fc.record({
          op: fc.constant('dryRunPatch' as const),
          form: fc.constantFrom<DryRunForm>('All', 'All', 'flag'),
          patch: fc.constantFrom<PatchKind>('merge', 'json', 'apply'),
          res: fc.constantFrom(...shape.resources),
          ns: fc.nat({ max: shape.namespaces - 1 }),
          name: fc.constantFrom(namePool[0], namePool[1]),
          value: fc.constantFrom(...labelValues),
          invalid: fc.boolean(),
          ensure: fc.constantFrom(true, true, true, false),
          pretty: fc.boolean(),
        }),
      },
    ),
    { minLength: 1, maxLength: opts.maxLength ?? 10 },
  );
}

export function showDryRunStep(s: DryRunStep): string {
  if (s.op === 'dryRun')
    return `dry-run (${s.form === 'flag' ? '?dryRun' : '?dryRun=All'}${s.pretty ? '&pretty=true' : ''}) ${showOp(s.write)}${s.staleRv && s.write.op === 'update' ? ' after a real update, with the resourceVersion from before it' : ''}`;
  if (s.op === 'dryRunInvalid') return `dryRun=${s.value} ${showOp(s.write)}`;
  if (s.op === 'dryRunGenerate') return `dry-run (?dryRun=All) create ${s.res} ns0 with generateName ${JSON.stringify(s.prefix)}`;
  if (s.op === 'dryRunPatch')
    return `dry-run (${s.form === 'flag' ? '?dryRun' : '?dryRun=All'}${s.pretty ? '&pretty=true' : ''}) ${s.patch} patch ${s.res} ns${s.ns}/${s.name} ${s.invalid ? 'with an invalid body' : `setting label tier=${s.value}`}${s.ensure ? ' (created first if missing)' : ''}`;
  if (s.op === 'dryRunBadBody')
    return `dry-run (${s.form === 'flag' ? '?dryRun' : '?dryRun=All'}) ${s.verb === 'create' ? 'POST' : 'PUT'} ${s.res} ns${s.ns}/${s.name} with an annotation whose value is a number`;
  if (s.op === 'dryRunDeleteNamespace') return 'dry-run (?dryRun=All) delete namespace ns0';
  return showOp(s);
}
