/**
 * The clause catalog (DESIGN.md "Clause ids"): the single list the report, coverage and docs read.
 */
import type { Clause, SpecDoc } from './types.ts';
import { restRows, type Row } from './rest-clauses.ts';

export type { Clause, SpecDoc } from './types.ts';

const kinds = { n: 'normative', u: 'unspecified', i: 'informative' } as const;

const restTitles: Record<string, string> = {
  '1': 'what the service does', '2': 'resources and fields', '3': 'states and transitions', '4': 'endpoints',
  '4.1': 'resource paths', '4.2': 'health endpoints', '4.3': 'query parameters', '4.4': 'paging',
  '4.5': 'resource versions', '4.6': 'dry-run', '4.7': 'server-side apply', '4.8': 'content negotiation',
  '5': 'authentication', '6': 'events', '7': 'errors', '8': 'limits', '9': 'versioning',
  '2.1': 'terminology', '2.2': 'names and scope', '2.3': 'metadata', '2.4': 'collections', '2.5': 'watch events and tables',
  '2.6': 'managed fields', '2.7': 'protobuf envelope', '2.8': 'generated fields', '3.1': 'deletion', '3.2': 'field ownership', '3.3': 'stability stages',
  '6.1': 'watch events', '6.2': 'event resource', '6.3': 'audit', '9.1': 'groups and paths', '9.2': 'stability levels',
  '9.3': 'deprecation rules', '9.4': 'removed API versions',
};

const sectionNumbers = new Set(Object.keys(restTitles));

/** `rest:4.5/list/...` -> `4.5`; `rest:4.4.3` -> `4.4`; `rest:7/410` -> `7`; `rest:1.9` -> `1`. */
export function sectionOfId(id: string): string {
  const body = id.slice(id.indexOf(':') + 1).split('/')[0]!;
  const parts = body.split('.');
  if (id.includes('/') || sectionNumbers.has(body)) return body;
  // A numbered item: the last number is the item, the rest the section (`4.4.3` -> `4.4`, `1.9` -> `1`).
  return parts.length > 1 ? parts.slice(0, -1).join('.') : body;
}

function build(doc: SpecDoc, rows: readonly Row[]): Clause[] {
  return rows.map(([id, kind, summary]) => ({ id, doc, section: sectionOfId(id), summary, kind: kinds[kind] }));
}

export const catalog: readonly Clause[] = [...build('rest', restRows)];

const byId = new Map(catalog.map((c) => [c.id, c]));

export function clauseById(id: string): Clause | undefined {
  return byId.get(id);
}

export function requireClause(id: string): Clause {
  const c = byId.get(id);
  if (!c) throw new Error(`unknown clause id ${id}: add it to reference/catalog`);
  return c;
}

export function sectionTitle(doc: SpecDoc, section: string): string {
  return doc === 'rest' ? restTitles[section] ?? restTitles[section.split('.')[0]!] ?? '' : '';
}

/** Report area of a clause: its doc and two-level section with a title, e.g. `rest:4.5 resource versions`. */
export function familyOf(id: string): string {
  const doc = (id.startsWith('node:') ? 'node' : 'rest') as SpecDoc;
  const section = sectionOfId(id).split('.').slice(0, 2).join('.');
  const title = sectionTitle(doc, section);
  return `${doc}:${section}${title ? ` ${title}` : ''}`;
}
