/**
 * Fixed API cases: one per kind of input that a target may get wrong while the random properties send
 * it only on some seeds (a bare `?dryRun`, `?dryRun&pretty=true`, a paged selector list whose first
 * batch of keys holds items the selector skips, a JSON Patch `replace` of a missing member, an apply
 * that empties a list). Sent on every run, so a clause's status does not rest on which cases a seed
 * drew. Plain data, like every generator (docs/architecture.md "Generation apart from execution"); the checks of suites/checks run them.
 *
 *   fc.sample(fixedCaseArb(bareDryRunCase), { seed }) -> [bareDryRunCase.input] on every seed
 */
import fc from 'fast-check';
import type { MatchClass } from '../reference/rv-semantics.ts';
import type { InputClass } from '../reference/observations.ts';
import type { ClauseId } from '../reference/catalog/clause-ids.ts';
import type { DryRunStep } from './dry-run-ops.ts';
import type { ContentSpec, ListOp, WriteOp } from './ops.ts';
import type { ApplySequence, ApplyStep, Manager } from './apply.ts';

export interface FixedCase<T> {
  /** The input class of reference/observations.ts the case sends (its judgements carry it), if any. */
  readonly input?: InputClass;
  /** The clauses whose judgement of that input the case decides on every run. */
  readonly decides: readonly ClauseId[];
  readonly value: T;
}

/** The same value on every seed and path; nothing to shrink (the case is small already). */
export function fixedCaseArb<T>(c: FixedCase<T>): fc.Arbitrary<T> {
  return fc.constant(c.value);
}

const content = (labels: Record<string, string>, data: Record<string, string> = { k1: 'v1' }): ContentSpec => ({
  labels,
  annotations: {},
  data,
});
const create = (name: string, labels: Record<string, string>): WriteOp => ({
  op: 'create',
  res: 'configmaps',
  ns: 0,
  name,
  content: content(labels),
});

/**
 * Bare `?dryRun` (no value) on each write a real request would carry out: create, update, merge patch,
 * delete (rest:4.6.1, the rest:4.3 row "no value, or All").
 */
export const bareDryRunCase: FixedCase<DryRunStep[]> = {
  input: 'bare-dryrun',
  decides: ['rest:4.6.1', 'rest:4.3/dryRun'],
  value: [
    create('alpha', { app: 'web' }),
    { op: 'dryRun', form: 'flag', write: create('bravo', { app: 'db' }), staleRv: false, pretty: false },
    {
      op: 'dryRun',
      form: 'flag',
      write: { op: 'update', res: 'configmaps', ns: 0, name: 'alpha', content: content({ app: 'db' }) },
      staleRv: false,
      pretty: false,
    },
    {
      op: 'dryRunPatch',
      form: 'flag',
      patch: 'merge',
      res: 'configmaps',
      ns: 0,
      name: 'alpha',
      value: 'x',
      invalid: false,
      ensure: false,
      pretty: false,
    },
    { op: 'dryRun', form: 'flag', write: { op: 'delete', res: 'configmaps', ns: 0, name: 'alpha' }, staleRv: false, pretty: false },
  ],
};

/**
 * dryRun=All on a create (with pretty) and an update (rest:4.6.2, rest:7/200) and a generateName create
 * (rest:2.8): no bare flag, so a target that refuses it still judges these.
 */
export const dryRunAllCase: FixedCase<DryRunStep[]> = {
  decides: ['rest:4.6.2', 'rest:7/200', 'rest:2.8', 'rest:4.3/pretty'],
  value: [
    create('alpha', { app: 'web' }),
    { op: 'dryRun', form: 'All', write: create('bravo', { app: 'db' }), staleRv: false, pretty: true },
    {
      op: 'dryRun',
      form: 'All',
      write: { op: 'update', res: 'configmaps', ns: 0, name: 'alpha', content: content({ app: 'db' }) },
      staleRv: false,
      pretty: false,
    },
    { op: 'dryRunGenerate', res: 'configmaps', prefix: 'gen-' },
  ],
};

/** `?dryRun&pretty=true` on a create (rest:4.3: pretty is combinable with dryRun, and dryRun takes no value). */
export const prettyBareDryRunCase: FixedCase<DryRunStep[]> = {
  input: 'bare-dryrun',
  decides: ['rest:4.3/pretty', 'rest:4.6.1', 'rest:4.3/dryRun'],
  value: [{ op: 'dryRun', form: 'flag', write: create('alpha', { app: 'web' }), staleRv: false, pretty: true }],
};

/**
 * A paged selector list (limit 2, `app=web`) over alpha..echo where the first two keys hold one match
 * (alpha) and one item the selector skips (bravo), with three keys after them: the pages must together
 * be the snapshot's three matches (rest:4.4.3). A store that fetches keys in batches of the limit and
 * loses the first batch's matches when a later, larger batch comes (upstream's etcd3 growSlice) shows
 * it on every run, not only on seeds that drew such an object layout.
 */
const selectorSetup: readonly WriteOp[] = [
  create('alpha', { app: 'web' }),
  create('bravo', { app: 'db' }),
  create('charlie', { app: 'web' }),
  create('delta', { app: 'db' }),
  create('echo', { app: 'web' }),
];

/** The rest:4.5 list cells the etcd3 store serves for a paged list, by the query they send. */
const selectorCells: readonly { readonly clause: ClauseId; readonly match: MatchClass; readonly rv: ListOp['rv'] }[] = [
  { clause: 'rest:4.5/list/unset/limit/unset', match: 'unset', rv: { kind: 'unset' } },
  // The newest of the five creates' versions (the learned versions are the setup's, in order).
  { clause: 'rest:4.5/list/unset/limit/other', match: 'unset', rv: { kind: 'learned', pick: selectorSetup.length - 1 } },
  { clause: 'rest:4.5/list/exact/limit/other', match: 'Exact', rv: { kind: 'learned', pick: selectorSetup.length - 1 } },
  { clause: 'rest:4.5/list/notolderthan/limit/other', match: 'NotOlderThan', rv: { kind: 'learned', pick: selectorSetup.length - 1 } },
];

export interface SelectorPagingInput {
  readonly setup: readonly WriteOp[];
  readonly list: ListOp;
}

/**
 * A lease written after the ConfigMaps, for the cells served at the newest version (Most Recent, and
 * Not older than, which a store may serve newer): their collection resourceVersion is then never one of
 * the ConfigMaps' own versions, so the model cannot tell which snapshot the first page names (versions
 * are opaque) and a lost item fails the union rule, rest:4.4.3, on every run. Without it the loss was
 * reported against the cell when no other write reached the store between the case's last write and
 * its list, and against rest:4.4.3 otherwise: timing, not the target, chose the clause.
 */
const foreignWrite: WriteOp = { op: 'create', res: 'leases', ns: 0, name: 'alpha', content: content({}) };

/** Most Recent (no resourceVersion) and Not older than: answered at whatever the store holds now. */
const servedAtNewest = (c: (typeof selectorCells)[number]): boolean => c.rv.kind === 'unset' || c.match === 'NotOlderThan';

export const selectorPagingCases: readonly (FixedCase<SelectorPagingInput> & { readonly cell: ClauseId })[] = selectorCells.map((c) => ({
  input: 'paged-selector-list',
  cell: c.clause,
  // An Exact read names its snapshot: the loss fails the cell there.
  decides: servedAtNewest(c) ? ['rest:4.4.3'] : [c.clause],
  value: {
    setup: servedAtNewest(c) ? [...selectorSetup, foreignWrite] : selectorSetup,
    list: { op: 'list', res: 'configmaps', ns: 0, match: c.match, rv: c.rv, limit: 2, selector: 'app=web', between: [] },
  },
}));

/**
 * A JSON Patch `replace` of a member that does not exist, under a parent that does (`/data` holds k2,
 * not k1): RFC 6902 4.3 makes the whole patch fail, so rest:4.1 refuses the write.
 */
export const jsonReplaceMissingCase: FixedCase<ApplySequence> = {
  input: 'json-patch-replace-missing-member',
  decides: ['rest:4.1/patch', 'rest:4.1/patch-type/json'],
  value: {
    resource: 'configmaps',
    steps: [
      { op: 'apply', manager: 'mgr-a', force: false, content: { data: { k2: 'v1' } } },
      { op: 'json', manager: 'mgr-b', ops: [{ op: 'replace', path: '/data/k1', value: 'v2' }] },
    ],
  },
};

const apply = (manager: Manager, spec: Record<string, unknown>, force = false): ApplyStep => ({
  op: 'apply',
  manager,
  force,
  content: { spec },
});

/**
 * A forced apply over the fixture type that drops the applier's only item of a map list (another
 * manager changed a field of that item, so the item is the applier's alone and goes, rest:4.7.3) and
 * at once forces a conflict, states a value another manager owns, drops a field it shares, and touches
 * a set list, a two-key map list, a granular map and the free-form field: every rest:3.2 row and
 * rest:4.7.7-4.7.9 entry such an apply is judged under, on every run. The random sequences draw that
 * shape rarely (the list emptied by its last applier while another manager owns part of its item).
 */
export const emptiedListCase: FixedCase<ApplySequence> = {
  input: 'apply-empties-list',
  decides: [
    'rest:4.7.3',
    'rest:3.2/apply-omit-sole',
    'rest:3.2/apply-omit-shared',
    'rest:3.2/apply-same-value',
    'rest:3.2/apply-force',
    'rest:4.3/force',
    'rest:4.1/patch',
    'rest:4.1/patch-type/apply',
    'rest:4.7.7',
    'rest:4.7.7/list-type',
    'rest:4.7.7/list-map-keys',
    'rest:4.7.7/map-type',
    'rest:4.7.9',
  ],
  value: {
    resource: 'applyfixtures',
    steps: [
      apply('mgr-a', { mapList: [{ name: 'p', value: 'v1' }], granularMap: { k3: 'v1' } }),
      apply('mgr-b', { granularMap: { k3: 'v1' } }),
      {
        op: 'update',
        manager: 'mgr-b',
        managedFields: 'keep',
        content: { spec: { mapList: [{ name: 'p', value: 'v2' }], granularMap: { k1: 'v2', k2: 'v1', k3: 'v1' } } },
      },
      apply(
        'mgr-a',
        {
          granularMap: { k1: 'v1', k2: 'v1' },
          setList: ['v1'],
          multiKeyList: [{ name: 'p', port: 80, value: 'v1' }],
          free: { m: { k1: 'v1' } },
        },
        true,
      ),
    ],
  },
};

export interface TooLargeCase {
  readonly setup: readonly WriteOp[];
  readonly via: 'get' | 'list' | 'list-exact' | 'list-limit';
}

/**
 * A read at a resourceVersion the target never issued, after two writes (the suite names one above
 * every version it saw), by each request form: a get and a list (rest:7/504), and the Exact row
 * (rest:7/504/exact). An upstream store answers the Exact forms 500 where it should wait and 504.
 */
export const tooLargeCases: readonly FixedCase<TooLargeCase>[] = (['get', 'list', 'list-exact', 'list-limit'] as const).map((via) => {
  const exact = via === 'list-exact' || via === 'list-limit';
  return {
    input: exact ? 'exact-read-future-rv' : undefined,
    decides: exact ? ['rest:7/504/exact'] : ['rest:7/504', 'rest:7.1', 'rest:7.2'],
    value: { setup: [create('alpha', { app: 'web' }), create('bravo', { app: 'db' })], via },
  };
});
