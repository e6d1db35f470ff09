/**
 * Planted faults generated one per row of a spec table (oracle strength: every row a default run
 * passes has a fault that fails it). Their names carry the row (`removed-version-served/<row>`), so
 * they are apart from the `as const` table of faults.ts, whose names are a closed type; `--fault`,
 * `list-faults`, the self-tests and `npm run mutation` take both.
 *
 * `removed-version-served/<row>`: the group version of one rest:9.4 row is still served once removed.
 * A row not yet removed at the default release (1.24) passes served or not there, so its fault runs
 * the server at the row's removal release (Fault.target), where the row has something to break.
 *
 * `cell-misread/<cell>`: one cell of the rest:4.5 get and list tables read the other way round: a cell
 * the table serves is refused with 400, a cell it refuses is served (as Most Recent).
 *
 * `object-garbled/<field>`: one field of rest:2.3 or rest:2.6 wrong in every object the server answers
 * with (namespaces aside, which the run's own setup reads): the field dropped, or a value of the right
 * type that the clause does not allow.
 */
import { removals } from '../../reference/versioning/removals.ts';
import { compareReleases, REFERENCE_RELEASE } from '../../reference/versioning/release.ts';
import { decideGet, decideList, getClause, listCells } from '../../reference/rv-semantics.ts';
import type { ServerState } from './state.ts';
import type { Fault, FamilyFaultName } from './fault-types.ts';

const rowOf = (clause: string) => clause.replace(/^rest:9\.4\//, '');

const removalFaults: readonly (Fault & { readonly name: FamilyFaultName })[] = removals
  // coordination v1beta1 leases have a fault of their own (faults.ts removed-version-served).
  .filter((r) => r.clause !== 'rest:9.4/coordination-v1beta1-lease')
  .map((r) => ({
    name: `removed-version-served/${rowOf(r.clause)}` as const,
    clause: r.clause,
    description: `${r.group.stem}/${r.version} ${r.resource} (removed in v${r.removedIn.major}.${r.removedIn.minor}) is still served after its removal`,
    checks: ['deprecated-versions'],
    alsoReportedAs: [],
    target: compareReleases(r.removedIn, REFERENCE_RELEASE) > 0 ? { release: `${r.removedIn.major}.${r.removedIn.minor}` } : undefined,
  }));

/** The cells of the get and list tables with an answer the table fixes (resourceVersionMatch with continue has no row). */
const cells = [
  ...(['unset', 'zero', 'other'] as const).map((rv) => ({ clause: getClause(rv), served: decideGet(rv).outcome === 'serve' })),
  ...listCells()
    .map((c) => decideList(c))
    .filter((d) => d.outcome !== 'unspecified')
    .map((d) => ({ clause: d.clause, served: d.outcome === 'serve' })),
];
const cellSlug = (clause: string) => clause.replace(/^rest:4\.5\//, '');

const cellFaults: readonly (Fault & { readonly name: FamilyFaultName })[] = cells.map((c) => ({
  name: `cell-misread/${cellSlug(c.clause)}` as const,
  clause: c.clause,
  description: c.served
    ? `a ${cellSlug(c.clause)} read, which the table serves, is refused with 400`
    : `a ${cellSlug(c.clause)} read, which the table refuses, is served as Most Recent`,
  // The cell's own check (suites/checks/rv-cells.ts names it after the cell).
  checks: [`rv-cell-${cellSlug(c.clause).replaceAll('/', '-')}`],
  alsoReportedAs: [],
}));

type Obj = Record<string, unknown>;
const isObj = (v: unknown): v is Obj => typeof v === 'object' && v !== null && !Array.isArray(v);
const withMetadata = (o: Obj, f: (md: Obj) => Obj): Obj => (isObj(o['metadata']) ? { ...o, metadata: f(o['metadata']) } : o);
const withEntries = (o: Obj, f: (e: Obj) => Obj): Obj =>
  withMetadata(o, (md) =>
    Array.isArray(md['managedFields']) ? { ...md, managedFields: md['managedFields'].map((e: unknown) => (isObj(e) ? f(e) : e)) } : md,
  );
const without = (o: Obj, key: string): Obj => Object.fromEntries(Object.entries(o).filter(([k]) => k !== key));

/** What each object-garbled fault does to an answered object, its clause and the checks that see it. */
const garbles: readonly {
  field: string;
  clause: Fault['clause'];
  what: string;
  checks: readonly string[];
  also?: readonly Fault['clause'][];
  apply: (o: Obj) => Obj;
}[] = [
  {
    field: 'kind',
    clause: 'rest:2.3/kind',
    what: 'kind in lower case',
    checks: ['crud-sequences'],
    apply: (o) => (typeof o['kind'] === 'string' ? { ...o, kind: o['kind'].toLowerCase() } : o),
  },
  {
    field: 'apiVersion',
    clause: 'rest:2.3/apiVersion',
    what: 'apiVersion of a version the type has not (v0)',
    checks: ['crud-sequences'],
    // A core type's objects then no longer say v1.
    also: ['rest:9.1.1'],
    apply: (o) => (typeof o['apiVersion'] === 'string' ? { ...o, apiVersion: o['apiVersion'].replace(/v\w+$/, 'v0') } : o),
  },
  {
    field: 'metadata.namespace',
    clause: 'rest:2.3/metadata.namespace',
    what: 'metadata.namespace left out',
    checks: ['crud-sequences'],
    apply: (o) => withMetadata(o, (md) => without(md, 'namespace')),
  },
  {
    field: 'metadata.creationTimestamp',
    clause: 'rest:2.3/metadata.creationTimestamp',
    what: 'metadata.creationTimestamp left out',
    // An absent generated value is judged once, by generated-metadata; the other checks go on past it.
    checks: ['generated-metadata'],
    apply: (o) => withMetadata(o, (md) => without(md, 'creationTimestamp')),
  },
  {
    field: 'metadata.labels',
    clause: 'rest:2.3/metadata.labels',
    what: 'metadata.labels left out',
    checks: ['crud-sequences'],
    apply: (o) => withMetadata(o, (md) => without(md, 'labels')),
  },
  {
    field: 'metadata.deletionTimestamp',
    clause: 'rest:2.3/metadata.deletionTimestamp',
    what: 'metadata.deletionTimestamp left out (Terminating objects look live)',
    checks: ['deletion-finalizers'],
    apply: (o) => withMetadata(o, (md) => without(md, 'deletionTimestamp')),
  },
  {
    field: 'metadata.finalizers',
    clause: 'rest:2.3/metadata.finalizers',
    what: 'metadata.finalizers left out',
    checks: ['deletion-finalizers'],
    apply: (o) => withMetadata(o, (md) => without(md, 'finalizers')),
  },
  {
    field: 'metadata.managedFields',
    clause: 'rest:2.3/metadata.managedFields',
    what: 'metadata.managedFields left out',
    checks: ['apply-sequences-configmaps'],
    apply: (o) => withMetadata(o, (md) => without(md, 'managedFields')),
  },
  {
    field: 'managedFields.manager',
    clause: 'rest:2.6/manager',
    what: 'each managedFields entry names manager "unknown"',
    checks: ['apply-ownership-table'],
    apply: (o) => withEntries(o, (e) => ({ ...e, manager: 'unknown' })),
  },
  {
    field: 'managedFields.apiVersion',
    clause: 'rest:2.6/apiVersion',
    what: 'managedFields entries without apiVersion',
    checks: ['apply-sequences-configmaps'],
    apply: (o) => withEntries(o, (e) => without(e, 'apiVersion')),
  },
  {
    field: 'managedFields.time',
    clause: 'rest:2.6/time',
    what: 'managedFields times in another format (a Unix time)',
    checks: ['apply-ownership-table'],
    apply: (o) =>
      withEntries(o, (e) => (e['time'] === undefined ? e : { ...e, time: String(Math.floor(Date.parse(String(e['time'])) / 1000)) })),
  },
  {
    field: 'managedFields.fieldsType',
    clause: 'rest:2.6/fieldsType',
    what: 'managedFields entries of fieldsType FieldsV2',
    checks: ['apply-ownership-table'],
    apply: (o) => withEntries(o, (e) => ({ ...e, fieldsType: 'FieldsV2' })),
  },
  {
    field: 'managedFields.fieldsV1',
    clause: 'rest:2.6/fieldsV1',
    what: 'managedFields fieldsV1 as a string, not a field tree',
    checks: ['apply-ownership-table'],
    apply: (o) => withEntries(o, (e) => ({ ...e, fieldsV1: JSON.stringify(e['fieldsV1']) })),
  },
];

/** The event fields of rest:6.2 that an Event read back must carry as written. */
const withSeries = (o: Obj, f: (series: Obj) => Obj): Obj => (isObj(o['series']) ? { ...o, series: f(o['series']) } : o);
const eventGarbles: typeof garbles = [
  {
    field: 'event.eventTime',
    clause: 'rest:6.2/eventTime',
    what: 'eventTime left out of Events',
    checks: ['events-v1-create'],
    apply: (o) => (o['kind'] === 'Event' || 'eventTime' in o ? without(o, 'eventTime') : o),
  },
  {
    field: 'event.series.count',
    clause: 'rest:6.2/series.count',
    what: 'series.count one higher than written',
    checks: ['events-v1-create'],
    apply: (o) => withSeries(o, (s) => (typeof s['count'] === 'number' ? { ...s, count: s['count'] + 1 } : s)),
  },
  {
    field: 'event.series.lastObservedTime',
    clause: 'rest:6.2/series.lastObservedTime',
    what: 'series.lastObservedTime left out',
    checks: ['events-v1-create'],
    apply: (o) => withSeries(o, (s) => without(s, 'lastObservedTime')),
  },
];

const garbleFaults: readonly (Fault & { readonly name: FamilyFaultName })[] = [...garbles, ...eventGarbles].map((g) => ({
  name: `object-garbled/${g.field}` as const,
  clause: g.clause,
  description: `objects are answered with ${g.what}`,
  checks: g.checks,
  alsoReportedAs: g.also ?? [],
}));

/** An answered object as the object-garbled faults on `st` leave it (namespaces untouched). */
export function garbled(st: ServerState, plural: string, o: Obj): Obj {
  if (st.faults.size === 0 || plural === 'namespaces') return o;
  let out = o;
  for (const g of [...garbles, ...eventGarbles]) if (st.faults.has(`object-garbled/${g.field}`)) out = g.apply(out);
  return out;
}

/** `event-rule-skipped/<rule>`: one create-time rule of the events/v1 Event (rest:6.2) not enforced. */
const eventRules = [
  { rule: 'type', clause: 'rest:6.2/type', what: 'an Event of a type other than Normal and Warning is accepted' },
  { rule: 'required', clause: 'rest:6.2/required', what: 'an Event without a field required on create is accepted' },
] as const;
const eventRuleFaults: readonly (Fault & { readonly name: FamilyFaultName })[] = eventRules.map((r) => ({
  name: `event-rule-skipped/${r.rule}` as const,
  clause: r.clause,
  description: r.what,
  checks: ['events-v1-create'],
  alsoReportedAs: [],
}));

/** Whether an event-rule-skipped fault on `st` lifts the rule of `clause`. */
export const eventRuleSkipped = (st: ServerState, clause: string): boolean =>
  st.faults.size > 0 && eventRules.some((r) => r.clause === clause && st.faults.has(`event-rule-skipped/${r.rule}`));

export const familyFaults: readonly (Fault & { readonly name: FamilyFaultName })[] = [
  ...removalFaults,
  ...cellFaults,
  ...garbleFaults,
  ...eventRuleFaults,
];

/** Whether the planted fault cell-misread/<cell> is on for the cell of `clause`. */
export const cellMisread = (st: ServerState, clause: string): boolean =>
  st.faults.size > 0 && st.faults.has(`cell-misread/${cellSlug(clause)}`);

/** The row a removed-version-served fault keeps serving, by its clause; undefined for any other name. */
export function keptRow(name: string): string | undefined {
  return name.startsWith('removed-version-served/') ? `rest:9.4/${name.slice('removed-version-served/'.length)}` : undefined;
}
