/**
 * Apply scenarios as tables, in the style of structured-merge-diff's merge tests: each case is the
 * operations in order (with the conflicts an operation must raise), then the object and the
 * ownership expected at the end. Paths: `spec.granularMap.a`, items as `k:{"name":"a"}` / `v:"x"`.
 */
import { profiles } from '../../../../reference/profile.ts';
import {
  configMapSchema,
  fixtureSchema,
  mapList,
  scalar,
  setList,
  struct,
  unstructuredSchema,
  type Schema,
} from '../../../../reference/apply/index.ts';

export const fixture: Schema = fixtureSchema(profiles.svc);
export { configMapSchema, unstructuredSchema };

export type Op =
  | { readonly apply: string; readonly object: Record<string, unknown>; readonly force?: boolean; readonly conflicts?: readonly string[] }
  | { readonly update: string; readonly object: Record<string, unknown>; readonly managedFields?: unknown }
  | { readonly schema: Schema };

export interface Case {
  readonly name: string;
  /** The clause (row, point or table entry) the case pins down. */
  readonly clause: string;
  readonly schema: Schema;
  readonly ops: readonly Op[];
  /** The tracked part expected at the end. */
  readonly object: Record<string, unknown>;
  /** `manager/Operation` -> owned paths. Managers not listed own nothing. */
  readonly managed: Readonly<Record<string, readonly string[]>>;
}

const spec = (s: Record<string, unknown>) => ({ spec: s });
/** A struct and a list of lists, as in upstream's nested-type tests. */
const nested: Schema = struct({
  struct: struct({ name: scalar, value: scalar }),
  listOfLists: mapList(['name'], struct({ name: scalar, value: setList() })),
});
const data = (d: Record<string, string>) => ({ data: d });

export const cases: readonly Case[] = [
  // --- rest:3.2, row by row ---
  {
    name: 'conflict: B applies a different value to a field A owns',
    clause: 'rest:3.2/apply-conflict',
    schema: configMapSchema,
    ops: [
      { apply: 'a', object: data({ k: '1' }) },
      { apply: 'b', object: data({ k: '2' }), conflicts: ['a/Apply data.k'] },
    ],
    object: data({ k: '1' }),
    managed: { 'a/Apply': ['data.k'] },
  },
  {
    name: 'force: B overwrites and becomes sole owner',
    clause: 'rest:3.2/apply-force',
    schema: configMapSchema,
    ops: [
      { apply: 'a', object: data({ k: '1', j: '1' }) },
      { apply: 'b', object: data({ k: '2' }), force: true },
    ],
    object: data({ k: '2', j: '1' }),
    managed: { 'a/Apply': ['data.j'], 'b/Apply': ['data.k'] },
  },
  {
    name: 'same value: ownership is shared',
    clause: 'rest:3.2/apply-same-value',
    schema: configMapSchema,
    ops: [
      { apply: 'a', object: data({ k: '1' }) },
      { apply: 'b', object: data({ k: '1' }) },
    ],
    object: data({ k: '1' }),
    managed: { 'a/Apply': ['data.k'], 'b/Apply': ['data.k'] },
  },
  {
    name: 'omitted by its sole owner: removed',
    clause: 'rest:3.2/apply-omit-sole',
    schema: configMapSchema,
    ops: [
      { apply: 'a', object: data({ k: '1', j: '1' }) },
      { apply: 'a', object: data({ j: '1' }) },
    ],
    object: data({ j: '1' }),
    managed: { 'a/Apply': ['data.j'] },
  },
  {
    name: 'omitted by one of two owners: kept, claim dropped',
    clause: 'rest:3.2/apply-omit-shared',
    schema: configMapSchema,
    ops: [
      { apply: 'a', object: data({ k: '1', j: '1' }) },
      { apply: 'b', object: data({ k: '1' }) },
      { apply: 'a', object: data({ j: '1' }) },
    ],
    object: data({ k: '1', j: '1' }),
    managed: { 'a/Apply': ['data.j'], 'b/Apply': ['data.k'] },
  },
  {
    name: 'omitted while an updater owns it too: kept',
    clause: 'rest:3.2/apply-omit-shared',
    schema: configMapSchema,
    ops: [
      { apply: 'a', object: data({ k: '1' }) },
      { update: 'u', object: data({ k: '1', x: '1' }) },
      { apply: 'a', object: data({ k: '1' }) },
      { update: 'u', object: data({ k: '2', x: '1' }) },
      { apply: 'a', object: data({ z: '1' }) },
    ],
    object: data({ k: '2', x: '1', z: '1' }),
    managed: { 'a/Apply': ['data.z'], 'u/Update': ['data.x', 'data.k'] },
  },
  {
    name: 'non-apply write: no conflict, ownership moves',
    clause: 'rest:3.2/non-apply-write',
    schema: configMapSchema,
    ops: [
      { apply: 'a', object: data({ k: '1', j: '1' }) },
      { update: 'b', object: data({ k: '2', j: '1' }) },
    ],
    object: data({ k: '2', j: '1' }),
    managed: { 'a/Apply': ['data.j'], 'b/Update': ['data.k'] },
  },
  {
    name: 'create by a non-apply write owns the maps it created',
    clause: 'rest:3.2/non-apply-write',
    schema: configMapSchema,
    ops: [{ update: 'c', object: { metadata: { labels: { l: 'v' } }, data: { k: '1' } } }],
    object: { metadata: { labels: { l: 'v' } }, data: { k: '1' } },
    managed: { 'c/Update': ['metadata.labels', 'metadata.labels.l', 'data', 'data.k'] },
  },
  {
    name: 'apply and update under one name are two managers',
    clause: 'rest:2.6/operation',
    schema: configMapSchema,
    ops: [
      { apply: 'm', object: data({ k: '1' }) },
      { update: 'm', object: data({ k: '2' }) },
    ],
    object: data({ k: '2' }),
    managed: { 'm/Update': ['data.k'] },
  },
  // --- rest:4.7 points ---
  {
    name: 'apply merges; applied values win; others untouched',
    clause: 'rest:4.7.3',
    schema: configMapSchema,
    ops: [
      { update: 'u', object: data({ x: '1', k: '0' }) },
      { apply: 'a', object: data({ k: '1' }), force: true },
    ],
    object: data({ x: '1', k: '1' }),
    managed: { 'u/Update': ['data', 'data.x'], 'a/Apply': ['data.k'] },
  },
  {
    name: 'only apply conflicts: an update over an applier never fails',
    clause: 'rest:4.7.4',
    schema: fixture,
    ops: [
      { apply: 'a', object: spec({ granularStruct: { a: '1' } }) },
      { update: 'u', object: spec({ granularStruct: { a: '2', b: '2' } }) },
      { apply: 'a', object: spec({ granularStruct: { a: '1' } }), conflicts: ['u/Update spec.granularStruct.a'] },
    ],
    object: spec({ granularStruct: { a: '2', b: '2' } }),
    managed: { 'u/Update': ['spec.granularStruct.a', 'spec.granularStruct.b'] },
  },
  {
    name: 'reset with one empty entry: the writer owns only what it changed',
    clause: 'rest:4.7.5',
    schema: configMapSchema,
    ops: [
      { apply: 'a', object: data({ k: '1' }) },
      { update: 'b', object: data({ k: '1', j: '1' }), managedFields: [{}] },
    ],
    object: data({ k: '1', j: '1' }),
    managed: { 'b/Update': ['data.j'] },
  },
  {
    name: 'an empty managedFields list does not reset',
    clause: 'rest:4.7.5',
    schema: configMapSchema,
    ops: [
      { apply: 'a', object: data({ k: '1' }) },
      { update: 'b', object: data({ k: '1', j: '1' }), managedFields: [] },
    ],
    object: data({ k: '1', j: '1' }),
    managed: { 'a/Apply': ['data.k'], 'b/Update': ['data.j'] },
  },
  // --- rest:4.7.7, one per list and map type ---
  {
    name: 'atomic list: one owner for the whole list',
    clause: 'rest:4.7.7/list-type',
    schema: fixture,
    ops: [
      { apply: 'a', object: spec({ atomicList: ['x', 'y'] }) },
      { apply: 'b', object: spec({ atomicList: ['x'] }), conflicts: ['a/Apply spec.atomicList'] },
      { apply: 'b', object: spec({ atomicList: ['x'] }), force: true },
    ],
    object: spec({ atomicList: ['x'] }),
    managed: { 'b/Apply': ['spec.atomicList'] },
  },
  {
    name: 'set list: items owned each; union of appliers',
    clause: 'rest:4.7.7/list-type',
    schema: fixture,
    ops: [
      { apply: 'a', object: spec({ setList: ['x', 'y'] }) },
      { apply: 'b', object: spec({ setList: ['y', 'z'] }) },
      { apply: 'a', object: spec({ setList: [] }) },
    ],
    object: spec({ setList: ['y', 'z'] }),
    managed: { 'b/Apply': ['spec.setList v:"y"', 'spec.setList v:"z"'] },
  },
  {
    name: 'map list: keyed items owned each, fields inside too',
    clause: 'rest:4.7.7/list-map-keys',
    schema: fixture,
    ops: [
      { apply: 'a', object: spec({ mapList: [{ name: 'p', value: '1' }] }) },
      {
        apply: 'b',
        object: spec({
          mapList: [
            { name: 'q', value: '2' },
            { name: 'p', note: 'n' },
          ],
        }),
      },
      { apply: 'b', object: spec({ mapList: [{ name: 'p', value: '3' }] }), conflicts: ['a/Apply spec.mapList k:{"name":"p"} value'] },
    ],
    object: spec({
      mapList: [
        { name: 'p', value: '1', note: 'n' },
        { name: 'q', value: '2' },
      ],
    }),
    managed: {
      'a/Apply': ['spec.mapList k:{"name":"p"}', 'spec.mapList k:{"name":"p"} name', 'spec.mapList k:{"name":"p"} value'],
      'b/Apply': [
        'spec.mapList k:{"name":"q"}',
        'spec.mapList k:{"name":"q"} name',
        'spec.mapList k:{"name":"q"} value',
        'spec.mapList k:{"name":"p"}',
        'spec.mapList k:{"name":"p"} name',
        'spec.mapList k:{"name":"p"} note',
      ],
    },
  },
  {
    name: 'map list with two keys: items by both',
    clause: 'rest:4.7.7/list-map-keys',
    schema: fixture,
    ops: [
      {
        apply: 'a',
        object: spec({
          multiKeyList: [
            { name: 'p', port: 80, value: 'x' },
            { name: 'p', port: 81 },
          ],
        }),
      },
    ],
    object: spec({
      multiKeyList: [
        { name: 'p', port: 80, value: 'x' },
        { name: 'p', port: 81 },
      ],
    }),
    managed: {
      'a/Apply': [
        'spec.multiKeyList k:{"name":"p","port":80}',
        'spec.multiKeyList k:{"name":"p","port":80} name',
        'spec.multiKeyList k:{"name":"p","port":80} port',
        'spec.multiKeyList k:{"name":"p","port":80} value',
        'spec.multiKeyList k:{"name":"p","port":81}',
        'spec.multiKeyList k:{"name":"p","port":81} name',
        'spec.multiKeyList k:{"name":"p","port":81} port',
      ],
    },
  },
  {
    name: 'granular map: entries owned each',
    clause: 'rest:4.7.7/map-type',
    schema: fixture,
    ops: [
      { apply: 'a', object: spec({ granularMap: { x: '1' } }) },
      { apply: 'b', object: spec({ granularMap: { y: '2' } }) },
    ],
    object: spec({ granularMap: { x: '1', y: '2' } }),
    managed: { 'a/Apply': ['spec.granularMap.x'], 'b/Apply': ['spec.granularMap.y'] },
  },
  {
    name: 'atomic map: replaced whole, one owner',
    clause: 'rest:4.7.7/map-type',
    schema: fixture,
    ops: [
      { apply: 'a', object: spec({ atomicMap: { x: '1' } }) },
      { apply: 'b', object: spec({ atomicMap: { y: '2' } }), conflicts: ['a/Apply spec.atomicMap'] },
      { apply: 'b', object: spec({ atomicMap: { y: '2' } }), force: true },
    ],
    object: spec({ atomicMap: { y: '2' } }),
    managed: { 'b/Apply': ['spec.atomicMap'] },
  },
  {
    name: 'atomic struct: replaced whole',
    clause: 'rest:4.7.7/map-type',
    schema: fixture,
    ops: [
      { apply: 'a', object: spec({ atomicStruct: { a: '1', b: '1' } }) },
      { apply: 'b', object: spec({ atomicStruct: { a: '1', b: '1' } }) },
      { apply: 'a', object: spec({}) },
    ],
    // `spec: {}` is an empty struct: stating it owns it (upstream too).
    object: spec({ atomicStruct: { a: '1', b: '1' } }),
    managed: { 'a/Apply': ['spec'], 'b/Apply': ['spec.atomicStruct'] },
  },
  {
    name: 'granular struct: fields owned each; a struct emptied by its applier goes',
    clause: 'rest:4.7.7/map-type',
    schema: fixture,
    ops: [
      { apply: 'a', object: spec({ granularStruct: { a: '1' } }) },
      { apply: 'a', object: { metadata: { labels: { l: '1' } } } },
    ],
    object: { metadata: { labels: { l: '1' } } },
    managed: { 'a/Apply': ['metadata.labels.l'] },
  },
  {
    name: 'list without type but patchMergeStrategy=merge: map keyed by patchMergeKey',
    clause: 'rest:4.7.8',
    schema: fixture,
    ops: [
      { apply: 'a', object: spec({ legacyList: [{ name: 'p', value: '1' }] }) },
      { apply: 'b', object: spec({ legacyList: [{ name: 'q', value: '2' }] }) },
    ],
    object: spec({
      legacyList: [
        { name: 'p', value: '1' },
        { name: 'q', value: '2' },
      ],
    }),
    managed: {
      'a/Apply': ['spec.legacyList k:{"name":"p"}', 'spec.legacyList k:{"name":"p"} name', 'spec.legacyList k:{"name":"p"} value'],
      'b/Apply': ['spec.legacyList k:{"name":"q"}', 'spec.legacyList k:{"name":"q"} name', 'spec.legacyList k:{"name":"q"} value'],
    },
  },
  {
    name: 'a list with no type and no strategy is atomic',
    clause: 'rest:4.7.7/list-type',
    schema: fixture,
    ops: [
      { apply: 'a', object: spec({ plainList: ['x'] }) },
      { apply: 'b', object: spec({ plainList: ['x', 'y'] }), conflicts: ['a/Apply spec.plainList'] },
    ],
    object: spec({ plainList: ['x'] }),
    managed: { 'a/Apply': ['spec.plainList'] },
  },
  {
    name: 'unstructured: keys are fields, lists atomic',
    clause: 'rest:4.7.9',
    schema: unstructuredSchema,
    ops: [
      { apply: 'a', object: spec({ l: [{ name: 'p' }], m: { x: '1' } }) },
      { apply: 'b', object: spec({ l: [{ name: 'q' }] }), conflicts: ['a/Apply spec.l'] },
      { apply: 'b', object: spec({ m: { y: '2' } }) },
    ],
    object: spec({ l: [{ name: 'p' }], m: { x: '1', y: '2' } }),
    managed: { 'a/Apply': ['spec', 'spec.l', 'spec.m', 'spec.m.x'], 'b/Apply': ['spec', 'spec.m', 'spec.m.y'] },
  },
  {
    name: 'an untyped subtree of a typed object: lists atomic',
    clause: 'rest:4.7.9',
    schema: fixture,
    ops: [
      { apply: 'a', object: spec({ free: { l: ['x'] } }) },
      { apply: 'b', object: spec({ free: { l: ['y'] } }), conflicts: ['a/Apply spec.free.l'] },
    ],
    object: spec({ free: { l: ['x'] } }),
    managed: { 'a/Apply': ['spec.free.l'] },
  },
  // --- facts of upstream's nested-type tests, restated ---
  {
    name: 'a struct the applier fully owned goes when it stops stating it',
    clause: 'rest:3.2/apply-omit-sole',
    schema: nested,
    ops: [
      { apply: 'a', object: { struct: { name: 'x', value: 1 } } },
      { apply: 'a', object: {} },
    ],
    object: {},
    managed: {},
  },
  {
    name: "an updater's field keeps the struct alive when the applier lets go",
    clause: 'rest:3.2/apply-omit-shared',
    schema: nested,
    ops: [
      { apply: 'a', object: { struct: { name: 'x' } } },
      { update: 'u', object: { struct: { name: 'x', value: 1 } } },
      { apply: 'a', object: {} },
    ],
    object: { struct: { value: 1 } },
    managed: { 'u/Update': ['struct.value'] },
  },
  {
    name: 'a field taken over by an updater is not removed by the applier',
    clause: 'rest:3.2/non-apply-write',
    schema: nested,
    ops: [
      { apply: 'a', object: { struct: { name: 'x' } } },
      { update: 'u', object: { struct: { name: 'y', value: 1 } } },
      { apply: 'a', object: {} },
    ],
    object: { struct: { name: 'y', value: 1 } },
    managed: { 'u/Update': ['struct.name', 'struct.value'] },
  },
  {
    name: "changing an item's key replaces the item",
    clause: 'rest:4.7.7/list-map-keys',
    schema: nested,
    ops: [
      { apply: 'a', object: { listOfLists: [{ name: 'p', value: ['b', 'c'] }] } },
      { apply: 'a', object: { listOfLists: [{ name: 'q', value: ['a', 'c'] }] } },
    ],
    object: { listOfLists: [{ name: 'q', value: ['a', 'c'] }] },
    managed: {
      'a/Apply': [
        'listOfLists k:{"name":"q"}',
        'listOfLists k:{"name":"q"} name',
        'listOfLists k:{"name":"q"} value v:"a"',
        'listOfLists k:{"name":"q"} value v:"c"',
      ],
    },
  },
  // --- rest:4.7.10 ---
  {
    name: 'granular to atomic: element owners own the whole, later changes conflict',
    clause: 'rest:4.7.10',
    schema: configMapSchema,
    ops: [
      { apply: 'a', object: data({ x: '1' }) },
      { apply: 'b', object: data({ y: '2' }) },
      {
        schema: {
          type: 'map',
          mapType: 'granular',
          fields: { data: { type: 'map', mapType: 'atomic', fields: {}, values: { type: 'scalar' } } },
          values: undefined,
        },
      },
      { apply: 'a', object: data({ x: '9' }), conflicts: ['b/Apply data'] },
      { apply: 'a', object: data({ x: '9' }), force: true },
    ],
    object: data({ x: '9' }),
    managed: { 'a/Apply': ['data'] },
  },
  {
    name: 'atomic to granular: no inferred owners, no conflicts',
    clause: 'rest:4.7.10',
    schema: {
      type: 'map',
      mapType: 'granular',
      fields: { data: { type: 'map', mapType: 'atomic', fields: {}, values: { type: 'scalar' } } },
      values: undefined,
    },
    ops: [{ apply: 'a', object: data({ x: '1' }) }, { schema: configMapSchema }, { apply: 'b', object: data({ x: '2' }) }],
    object: data({ x: '2' }),
    managed: { 'a/Apply': ['data'], 'b/Apply': ['data.x'] },
  },
];
