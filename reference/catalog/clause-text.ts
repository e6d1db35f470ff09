/**
 * The words of the spec behind a clause id (a failure page quotes what the spec says).
 * Pure: the spec's sections are data (spec-text.ts, generated from the documents).
 *
 *   clauseText('rest:4.4.6').quote   -> ['6. `metadata.remainingItemCount` is the number of further items. ...']
 *   clauseText('node:2.2/maxPods')   -> the table row of `maxPods` in 2.2, under its header row
 *
 * A numbered item is quoted whole; a slug (`/maxPods`, `/tls-min-version`, `/metadata.continue`) quotes the
 * lines that name it in backticks (as `x` or `--x`). Where nothing names it exactly (a table cell such
 * as `rest:4.5/list/unset/limit-continue/other`), `quote` is empty and the section is the text: a guess
 * at the right line would put words in the spec's mouth.
 */
import { specSections } from './spec-text.ts';
import { clauseById } from './index.ts';
import type { SpecSection } from './spec-section.ts';

export interface ClauseText {
  readonly doc: 'rest' | 'node';
  readonly section: string;
  readonly title: string;
  /** The lines that state the clause (with a table's header row first); empty when none names it exactly. */
  readonly quote: readonly string[];
  /** The whole section, for context. */
  readonly sectionLines: readonly string[];
}

export function clauseText(id: string, sections: readonly SpecSection[] = specSections): ClauseText | undefined {
  const m = /^(rest|node):([\d.]+)(?:\/(.+))?$/.exec(id);
  if (!m) return undefined;
  const doc = m[1] as 'rest' | 'node';
  const number = m[2]!;
  const slug = m[3];
  // The catalog knows which part of the number is the section (`4.4` of `rest:4.4.6`).
  const sectionId = clauseById(id)?.section ?? number;
  const s = sections.find((x) => x.doc === doc && x.section === sectionId) ?? sections.find((x) => x.doc === doc && x.section === number);
  if (!s) return undefined;
  const base = { doc, section: s.section, title: s.title, sectionLines: s.lines };
  if (slug === undefined && number !== s.section && number.startsWith(`${s.section}.`))
    return { ...base, quote: numberedItem(s.lines, number.slice(s.section.length + 1)) };
  if (slug !== undefined) return { ...base, quote: namedLines(s.lines, slug) };
  return { ...base, quote: [] };
}

/** Item `6.` of a numbered list, with its continuation lines. */
function numberedItem(lines: readonly string[], item: string): string[] {
  const at = lines.findIndex((l) => new RegExp(`^\\s*${item.replace(/\./g, '\\.')}\\.\\s`).test(l));
  if (at < 0) return [];
  const out = [lines[at]!];
  for (let i = at + 1; i < lines.length && lines[i]!.trim() !== '' && !/^\s*\d+\.\s/.test(lines[i]!); i++) out.push(lines[i]!);
  return out;
}

/** Lines naming the slug in backticks (`maxPods`, `--tls-min-version`); a table row comes under its header row. */
function namedLines(lines: readonly string[], slug: string): string[] {
  const candidates = [slug, slug.split('/').pop()!];
  for (const name of [...new Set(candidates)]) {
    const named = (l: string) =>
      l.includes(`\`${name}\``) || l.includes(`\`--${name}\``) || l.includes(`\`--${name}=`) || l.includes(`\`${name}=`);
    const hits = lines.map((l, i) => [l, i] as const).filter(([l]) => named(l));
    if (hits.length === 0) continue;
    const out: string[] = [];
    for (const [l, i] of hits.slice(0, 4)) {
      if (l.trimStart().startsWith('|')) {
        const header = tableHeader(lines, i);
        if (header !== undefined && !out.includes(header)) out.push(header);
      }
      out.push(l);
    }
    return out;
  }
  return [];
}

function tableHeader(lines: readonly string[], row: number): string | undefined {
  let i = row;
  while (i > 0 && lines[i - 1]!.trimStart().startsWith('|')) i--;
  return i < row ? lines[i] : undefined;
}
