// The catalog is data the report trusts: ids unique and well-formed, sections consistent, every
// numbered item of sections 2, 4 and 7 and every cell of the rest:4.5 tables present.
import { describe, expect, it } from 'vitest';
import { catalog, clauseById, familyOf, requireClause, sectionOfId } from '../../reference/catalog/index.ts';

describe('clause catalog', () => {
  it('has unique, well-formed ids with one-line summaries', () => {
    const ids = catalog.map((c) => c.id);
    expect(new Set(ids).size).toBe(ids.length);
    for (const c of catalog) {
      expect(c.id).toMatch(/^(rest|node):[0-9]+(\.[0-9]+)*(\/[A-Za-z0-9._-]+)*$/);
      expect(c.summary.length).toBeGreaterThan(10);
      expect(c.summary).not.toContain('\n');
      expect(c.id.startsWith(`${c.doc}:${c.section}`)).toBe(true);
    }
  });

  it('derives sections: items, table rows and section-level ids', () => {
    expect(sectionOfId('rest:4.4.3')).toBe('4.4');
    expect(sectionOfId('rest:4.5/list/unset/limit/0')).toBe('4.5');
    expect(sectionOfId('rest:7/410')).toBe('7');
    expect(sectionOfId('rest:1.9')).toBe('1');
    expect(sectionOfId('rest:2.8')).toBe('2.8');
    expect(familyOf('rest:4.4.6')).toBe('rest:4.4 paging');
  });

  it.each([
    ['2.2', 5], ['2.4', 3], ['2.5', 3], ['2.7', 2], ['4.2', 4], ['4.4', 6], ['4.6', 4], ['4.7', 6], ['7', 7],
  ] as const)('section %s has its %i numbered items', (section, n) => {
    for (let i = 1; i <= n; i++) expect(clauseById(`rest:${section}.${i}`), `rest:${section}.${i}`).toBeDefined();
    expect(clauseById(`rest:${section}.${n + 1}`)).toBeUndefined();
  });

  it('has every cell of the get, list and watch tables and the rows of 2.3, 4.3 and 7', () => {
    expect(catalog.filter((c) => c.id.startsWith('rest:4.5/list/') && c.id.split('/').length === 5)).toHaveLength(21);
    for (const t of ['get', 'watch']) for (const rv of ['unset', '0', 'other']) expect(clauseById(`rest:4.5/${t}/${rv}`)).toBeDefined();
    expect(catalog.filter((c) => c.id.startsWith('rest:2.3/'))).toHaveLength(13);
    expect(catalog.filter((c) => c.id.startsWith('rest:4.3/'))).toHaveLength(10);
    expect(catalog.filter((c) => /^rest:7\/\w+$/.test(c.id)).map((c) => c.id)).toEqual(['rest:7/200', 'rest:7/400', 'rest:7/406', 'rest:7/410', 'rest:7/504', 'rest:7/conflict']);
  });

  it('marks every "not shown" statement unspecified', () => {
    for (const id of ['rest:3.1/no-finalizers-not-shown', 'rest:7.5', 'rest:7.6', 'rest:7.7', 'rest:6.1.6', 'rest:2.5.3', 'rest:4.1/deletecollection-not-shown']) {
      expect(requireClause(id).kind).toBe('unspecified');
    }
    expect(() => requireClause('rest:99')).toThrow(/unknown clause id rest:99/);
  });
});
