// Why: a failure page quotes the spec's words for the clause it failed. The quote
// must be the clause's own line (never a neighbour's), a clause no line names gets its section and no
// guessed line, and the generated sections must be the spec's current text.
import { describe, expect, it } from 'vitest';
import { existsSync } from 'node:fs';
import path from 'node:path';
import { readFileSync } from 'node:fs';
import { clauseText } from '../../../reference/catalog/clause-text.ts';
import { catalog } from '../../../reference/catalog/index.ts';
import { DEFAULT_SPEC_DIR, SPEC_FILES, SPEC_TEXT_FILE, readSpecSections, renderSpecText } from '../../../scripts/dev/spec-text.ts';

describe('clauseText', () => {
  it('quotes a numbered item whole, and only it', () => {
    const t = clauseText('rest:4.4.6')!;
    expect(t.section).toBe('4.4');
    expect(t.title).toBe('Paging');
    expect(t.quote).toHaveLength(1);
    expect(t.quote[0]).toMatch(/^6\. `metadata\.remainingItemCount` is the number of further items/);
    expect(clauseText('rest:4.4.1')!.quote[0]).toMatch(/^1\. A list with `limit=<n>`/);
  });

  it('quotes a field or option by its table row, under the header row', () => {
    const t = clauseText('node:2.2/maxPods')!;
    expect(t.quote[0]).toMatch(/^\| Field \|/);
    expect(t.quote.some((l) => l.startsWith('| `maxPods` |'))).toBe(true);
    expect(clauseText('node:2.6/tls-min-version')!.quote.some((l) => l.startsWith('| `--tls-min-version` |'))).toBe(true);
    expect(clauseText('rest:2.3/metadata.remainingItemCount')!.quote.some((l) => l.includes('`metadata.remainingItemCount`'))).toBe(true);
  });

  it('gives a table cell no line nobody wrote for it: an empty quote and the section', () => {
    const t = clauseText('rest:4.5/list/unset/limit-continue/other')!;
    expect(t.quote).toEqual([]);
    expect(t.section).toBe('4.5');
    expect(t.sectionLines.join('\n')).toContain('resourceVersionMatch');
  });

  it('finds a section for every catalog clause', () => {
    expect(catalog.filter((c) => clauseText(c.id) === undefined).map((c) => c.id)).toEqual([]);
    expect(clauseText('nonsense')).toBeUndefined();
  });
});

const specDir = process.env.SVC_SPEC_DIR ?? DEFAULT_SPEC_DIR;
describe.skipIf(!existsSync(path.join(specDir, SPEC_FILES.rest)))(
  `reference/catalog/spec-text.ts (skipped: no spec in ${specDir}; SVC_SPEC_DIR names another)`,
  () => {
    it('is the spec as it is now (npm run gen:spec-text)', () => {
      expect(readFileSync(SPEC_TEXT_FILE, 'utf8')).toBe(renderSpecText(readSpecSections(specDir)));
    });
  },
);
