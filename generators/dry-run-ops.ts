/**
 * Write sequences with dry-run writes interleaved (rest:4.6): the real writes build a history, the
 * dry-run ones must leave it as it was, and the reads in between check that against the model.
 */
import fc from 'fast-check';
import { readOpArb, showOp, writeOpArb, type Op, type OpsShape, type WriteOp } from './ops.ts';

export type DryRunForm = 'All' | 'flag';

export type DryRunStep =
  | Op
  | { readonly op: 'dryRun'; readonly form: DryRunForm; readonly write: WriteOp }
  /** A dryRun value rest:4.6.1 does not list: refused (4xx). */
  | { readonly op: 'dryRunInvalid'; readonly value: string; readonly write: WriteOp };

export function dryRunStepsArb(shape: OpsShape, opts: { maxLength?: number } = {}): fc.Arbitrary<DryRunStep[]> {
  const write = writeOpArb(shape);
  const unpagedRead = readOpArb(shape).filter((r) => r.op !== 'list' || r.limit === undefined);
  return fc.array(fc.oneof(
    { weight: 3, arbitrary: write as fc.Arbitrary<DryRunStep> },
    { weight: 1, arbitrary: unpagedRead as fc.Arbitrary<DryRunStep> },
    { weight: 3, arbitrary: fc.record({ op: fc.constant('dryRun' as const), form: fc.constantFrom<DryRunForm>('All', 'All', 'flag'), write }) },
    { weight: 1, arbitrary: fc.record({ op: fc.constant('dryRunInvalid' as const), value: fc.constantFrom('true', 'None', 'all', 'client'), write }) },
  ), { minLength: 1, maxLength: opts.maxLength ?? 10 });
}

export function showDryRunStep(s: DryRunStep): string {
  if (s.op === 'dryRun') return `dry-run (${s.form === 'flag' ? '?dryRun' : '?dryRun=All'}) ${showOp(s.write)}`;
  if (s.op === 'dryRunInvalid') return `dryRun=${s.value} ${showOp(s.write)}`;
  return showOp(s);
}
