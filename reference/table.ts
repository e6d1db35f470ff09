/**
 * rest:2.5 Table representation: the default Table of a type without a custom definition, and the
 * judge of a Table answer.
 *
 *   defaultColumns -> [{ name: 'Name', type: 'string' }, { name: 'Created At', type: 'date' }]
 *
 * What the spec does not fix (rest:2.5.3): column fields beyond `name` and `type`, the row shape, and
 * which types have a custom definition. So a Table whose columns are exactly `Name` and `Created At`
 * is judged as the default (their types must be `string` and `date`), and so is a two-column Table
 * whose cells are each row object's name and creationTimestamp, whatever its columns are called; any
 * other column set is a custom definition the suite cannot predict, recorded as unspecified. A type may not support Table
 * at all (rest:2.5.2): a 406 for a Table-only request is recorded, never failed.
 */
import { isRecord } from './objects.ts';
import type { Profile } from './profile.ts';
import { pass, rule, unspecified, type Judgement } from './judgement.ts';

export interface ColumnDefinition {
  readonly name: string;
  readonly type: string;
  readonly format?: string;
  readonly description?: string;
  readonly priority?: number;
}

export const defaultColumns: readonly ColumnDefinition[] = [
  { name: 'Name', type: 'string', format: 'name', description: 'Name must be unique within a namespace.', priority: 0 },
  {
    name: 'Created At',
    type: 'date',
    description: 'CreationTimestamp is a timestamp representing the server time when this object was created.',
    priority: 0,
  },
];

export const tableApiVersion = (profile: Profile) => `${profile.metaGroup}/v1`;

/** The object a row refers to: only what the default columns derive from. */
export interface RowSource {
  readonly name: string;
  readonly creationTimestamp: string | undefined;
  /** The object itself, for the row's `object` field (upstream sends partial metadata by default). */
  readonly object: Record<string, unknown>;
}

/** rest:2.5.1: the default Table of a collection (or of one object), rows in upstream's shape. */
export function defaultTable(profile: Profile, rows: readonly RowSource[], listMetadata: Record<string, unknown>): Record<string, unknown> {
  return {
    kind: 'Table',
    apiVersion: tableApiVersion(profile),
    metadata: listMetadata,
    columnDefinitions: defaultColumns,
    rows: rows.map((r) => ({ cells: [r.name, r.creationTimestamp ?? null], object: r.object })),
  };
}

const show = (v: unknown) => (v === undefined ? 'absent' : JSON.stringify(v));

/**
 * Two cells per row, derived from the name and the creationTimestamp of the row's object (the spec's own
 * words for the default Table), on every row and at least one: the default Table whatever its columns
 * are called. Recognising it by the names rest:2.5.1 requires would excuse exactly the departure the
 * clause exists to catch (a default Table whose second column is "Age"). Upstream's custom Tables show
 * an age ("5m"), never the timestamp itself, beside the name.
 */
function derivesDefaultColumns(rows: readonly unknown[]): boolean {
  return (
    rows.length > 0 &&
    rows.every((r) => {
      if (!isRecord(r) || !Array.isArray(r['cells']) || r['cells'].length !== 2 || !isRecord(r['object'])) return false;
      const md = r['object']['metadata'];
      return (
        isRecord(md) &&
        typeof md['name'] === 'string' &&
        typeof md['creationTimestamp'] === 'string' &&
        r['cells'][0] === md['name'] &&
        r['cells'][1] === md['creationTimestamp']
      );
    })
  );
}

/** rest:2.5 table row, rest:2.5.1 default columns, rest:2.5.3 the rest unspecified. */
export function judgeTable(profile: Profile, body: unknown): Judgement[] {
  const b = isRecord(body) ? body : {};
  const cols = Array.isArray(b['columnDefinitions']) ? (b['columnDefinitions'] as unknown[]) : undefined;
  const badCol = cols?.findIndex((c) => !isRecord(c) || typeof c['name'] !== 'string' || typeof c['type'] !== 'string');
  // A Table without rows: upstream (Go) writes a nil slice as `rows: null`; the spec fixes no JSON
  // spelling of "no rows", so null counts as none. Absent or any other value is no Table.
  const rows = Array.isArray(b['rows']) ? (b['rows'] as unknown[]) : b['rows'] === null ? [] : undefined;
  const shape =
    b['kind'] === 'Table' && b['apiVersion'] === tableApiVersion(profile) && cols !== undefined && badCol === -1 && rows !== undefined;
  const js: Judgement[] = [
    rule(
      'rest:2.5/table',
      shape,
      `kind Table, apiVersion ${tableApiVersion(profile)}, columnDefinitions each with string name and type, and rows`,
      `kind ${show(b['kind'])}, apiVersion ${show(b['apiVersion'])}, columnDefinitions ${cols ? `array of ${cols.length}${badCol !== -1 ? `, entry ${badCol} without string name/type` : ''}` : show(b['columnDefinitions'])}, rows ${Array.isArray(b['rows']) ? 'array' : show(b['rows'])}`,
    ),
  ];
  if (!shape || cols === undefined) return js;
  const named = cols as { name: string; type: string }[];
  const names = named.map((c) => c.name);
  const byName = names.length === 2 && names.includes('Name') && names.includes('Created At');
  if (byName || derivesDefaultColumns(rows ?? [])) {
    const typeOf = (n: string) => named.find((c) => c.name === n)?.type;
    js.push(
      rule(
        'rest:2.5.1',
        byName && typeOf('Name') === 'string' && typeOf('Created At') === 'date',
        'the default Table: Name of type string, Created At of type date',
        named.map((c) => `${c.name}: ${c.type}`).join(', '),
      ),
    );
  } else {
    js.push(unspecified('rest:2.5.3', 'a custom Table definition: its columns are not shown', names.join(', ')));
  }
  js.push(unspecified('rest:2.5.3', 'row shape beyond the column definitions: not shown', `${rows?.length ?? 0} rows`));
  return js;
}

/**
 * A Table served for the Table media type (rest:4.8/table), then judged as a Table (judgeTable). For
 * the checks that asked for one, so they record and decide nothing.
 *
 *   judgeTableServed(p, { kind: 'Table', apiVersion: 'v1', ... }) -> [pass rest:4.8/table, fail rest:2.5/table ...]
 */
export function judgeTableServed(profile: Profile, body: unknown): Judgement[] {
  return [pass('rest:4.8/table', 'a Table for the Table media type'), ...judgeTable(profile, body)];
}

/** rest:2.5.2: a type may lack Table output (406 to Table alone, the fallback to Table-then-JSON): recorded, not failed. */
export function noteNoTable(observed: string): Judgement {
  return unspecified('rest:2.5.2', 'a type may not support Table output', observed);
}
