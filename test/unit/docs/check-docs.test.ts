// docs/checks/ is generated from the check registry: it must be what `npm run docs:checks` renders now,
// with a page for every registered check and nothing else.
import { describe, expect, it } from 'vitest';
import { readFileSync, readdirSync } from 'node:fs';
import path from 'node:path';
import { CHECK_DOCS_DIR } from '../../../scripts/dev/check-docs.ts';
import { allCheckDocs, checkDocName } from '../../../reports/check-docs.ts';
import { checks } from '../../../suites/checks/index.ts';

describe('docs/checks/', () => {
  const docs = allCheckDocs();

  it('is up to date with the registry (run `npm run docs:checks`)', () => {
    expect(readdirSync(CHECK_DOCS_DIR).sort()).toEqual(docs.map((d) => d.name).sort());
    for (const d of docs) expect(readFileSync(path.join(CHECK_DOCS_DIR, d.name), 'utf8'), d.name).toBe(d.content);
  });

  it('gives every check a page with an example case, every clause it judges, and the index links them all', () => {
    const index = docs.find((d) => d.name === 'README.md')!.content;
    // The pages rendered above (allCheckDocs renders each check once; drawing an example case costs),
    // and what each lacks collected for one assertion (an expect per clause costs more than the search).
    const pages = new Map(docs.map((d) => [d.name, d.content]));
    const lacking = checks.flatMap((c) => {
      const name = checkDocName(c.id);
      const page = pages.get(name) ?? '';
      return [
        ...(index.includes(`](${name})`) ? [] : [`README.md: no link to ${name}`]),
        ...(/## What it sends\n\nOne example case/.test(page) ? [] : [`${name}: no example case`]),
        ...c.clauses.filter((id) => !page.includes(`| \`${id}\` |`)).map((id) => `${name}: no row for ${id}`),
      ];
    });
    expect(lacking).toEqual([]);
  });
});
