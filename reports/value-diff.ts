/**
 * A judgement's structured diff (reference/value-diff.ts) as rows a formatter lays out: one per field
 * path, marked `+` added (observed only), `~` modified, `-` removed (expected only). Pure.
 *
 *   diffRows({ added: [{ path: 'd', observed: 4 }], modified: [], removed: [] })
 *     -> [{ mark: '+', kind: 'added', path: 'd', expected: '', observed: '4' }]
 */
import type { ValueDiff } from '../reference/value-diff.ts';

export interface DiffRow {
  readonly mark: '+' | '~' | '-';
  readonly kind: 'added' | 'modified' | 'removed';
  readonly path: string;
  readonly expected: string;
  readonly observed: string;
}

const MAX_VALUE = 200;

/** JSON, shortened; '' for a side the change does not have. */
export function showValue(v: unknown, present: boolean): string {
  if (!present) return '';
  const text = v === undefined ? 'undefined' : JSON.stringify(v);
  return text.length > MAX_VALUE ? `${text.slice(0, MAX_VALUE)}…` : text;
}

export function diffRows(d: ValueDiff): DiffRow[] {
  const row =
    (mark: DiffRow['mark'], kind: DiffRow['kind']) =>
    (c: ValueDiff['added'][number]): DiffRow => ({
      mark,
      kind,
      path: c.path,
      expected: showValue(c.expected, Object.hasOwn(c, 'expected')),
      observed: showValue(c.observed, Object.hasOwn(c, 'observed')),
    });
  return [...d.removed.map(row('-', 'removed')), ...d.modified.map(row('~', 'modified')), ...d.added.map(row('+', 'added'))];
}

/** One line per changed path, for text formatters: `~ data.k: "v1" -> "v2"`. */
export function diffText(d: ValueDiff): string[] {
  return diffRows(d).map((r) =>
    r.kind === 'modified'
      ? `${r.mark} ${r.path}: ${r.expected} -> ${r.observed}`
      : `${r.mark} ${r.path}${r.expected || r.observed ? `: ${r.expected || r.observed}` : ''}`,
  );
}
