// The catalog is data the report trusts: ids unique and well-formed, sections consistent with ids,
// every numbered item, table row and "not shown" statement of the rest spec present. The expected
// counts were taken from the spec by hand (the spec file is not in this repository).
import { describe, expect, it } from 'vitest';
import { catalog, clauseById, familyOf, requireClause, sectionTitle } from '../../../reference/catalog/index.ts';

const rest = catalog.filter((c) => c.doc === 'rest');
const ids = (prefix: string): string[] => rest.filter((c) => c.id.startsWith(prefix)).map((c) => c.id);

/** Numbered items per section of the rest spec (sections without a numbered list are absent). */
const numberedItems: Record<string, number> = {
  '1': 9,
  '2.2': 5,
  '2.4': 3,
  '2.5': 3,
  '2.7': 2,
  '4.2': 4,
  '4.4': 6,
  '4.6': 4,
  '4.7': 10,
  '5': 6,
  '6.1': 6,
  '7': 7,
  '9.1': 4,
};

describe('clause catalog: shape', () => {
  it('has unique ids', () => {
    const all = catalog.map((c) => c.id);
    expect(all.filter((id, i) => all.indexOf(id) !== i)).toEqual([]);
  });

  it('has strictly well-formed ids', () => {
    const bad = catalog.filter((c) => !/^(rest|node):[0-9]+(\.[0-9]+){0,2}(\/[A-Za-z0-9._-]+)*$/.test(c.id));
    expect(bad.map((c) => c.id)).toEqual([]);
  });

  // The checks over every clause collect what breaks for one assertion: an expect per clause and
  // property costs more than the checks.
  it('gives each clause a section consistent with its id and a titled section', () => {
    const wrong = catalog.flatMap((c) => {
      // The number part names a section (`rest:2.8`, `rest:9.4/...`) or an item of one (`rest:4.4.3`, `rest:4.7.7/list-type`).
      const numbers = c.id.slice(c.doc.length + 1).split('/')[0]!;
      const expected = sectionTitle(c.doc, numbers) !== '' ? numbers : numbers.split('.').slice(0, -1).join('.');
      return [
        ...(c.id.startsWith(`${c.doc}:`) ? [] : [`${c.id}: not in its document ${c.doc}`]),
        ...(c.section === expected ? [] : [`${c.id}: section ${c.section}, expected ${expected}`]),
        ...(sectionTitle(c.doc, c.section) !== '' ? [] : [`${c.id}: section ${c.section} has no title`]),
      ];
    });
    expect(wrong).toEqual([]);
  });

  it('has one-line, non-empty summaries and a valid kind', () => {
    const kinds: readonly string[] = ['normative', 'unspecified', 'informative'];
    const wrong = catalog.flatMap((c) => [
      ...(c.summary.trim().length > 10 ? [] : [`${c.id}: summary of ${c.summary.trim().length} characters`]),
      ...(/[\r\n]/.test(c.summary) ? [`${c.id}: summary of more than one line`] : []),
      ...(kinds.includes(c.kind) ? [] : [`${c.id}: kind ${c.kind}`]),
    ]);
    expect(wrong).toEqual([]);
  });
});

describe('clause catalog: rest coverage', () => {
  it.each(Object.entries(numberedItems))('section %s has exactly its %i numbered items', (section, n) => {
    const items = rest
      .filter((c) => c.section === section && new RegExp(`^rest:${section.replaceAll('.', '\\.')}\\.[0-9]+$`).test(c.id))
      .map((c) => c.id);
    expect(items).toEqual(Array.from({ length: n }, (_, i) => `rest:${section}.${i + 1}`));
  });

  it('has numbered items only in the sections that have them', () => {
    const sections = new Set(
      rest
        .filter((c) => c.id === `rest:${c.section}.${c.id.split('.').at(-1)}` && /^[0-9]+$/.test(c.id.split('.').at(-1)!))
        .map((c) => c.section),
    );
    expect([...sections].sort()).toEqual(Object.keys(numberedItems).sort());
  });

  it('has the 3 get cells, the 3 watch cells and the 21 list cells with their semantic', () => {
    const cells: Record<string, string> = {
      'get/unset': 'Most Recent',
      'get/0': 'Any',
      'get/other': 'Not older than',
      'watch/unset': 'Get State and Start at Most Recent',
      'watch/0': 'Get State and Start at Any',
      'watch/other': 'Start at Exact',
      'list/unset/no-limit/unset': 'Most Recent',
      'list/unset/no-limit/0': 'Any',
      'list/unset/no-limit/other': 'Not older than',
      'list/unset/limit/unset': 'Most Recent',
      'list/unset/limit/0': 'Any',
      'list/unset/limit/other': 'Exact',
      'list/unset/limit-continue/unset': 'Continue Token, Exact',
      'list/unset/limit-continue/0': 'Invalid, treated as Continue Token, Exact',
      'list/unset/limit-continue/other': 'Invalid, 400 Bad Request',
      'list/exact/no-limit/unset': 'Invalid',
      'list/exact/no-limit/0': 'Invalid',
      'list/exact/no-limit/other': 'Exact',
      'list/exact/limit/unset': 'Invalid',
      'list/exact/limit/0': 'Invalid',
      'list/exact/limit/other': 'Exact',
      'list/notolderthan/no-limit/unset': 'Invalid',
      'list/notolderthan/no-limit/0': 'Any',
      'list/notolderthan/no-limit/other': 'Not older than',
      'list/notolderthan/limit/unset': 'Invalid',
      'list/notolderthan/limit/0': 'Any',
      'list/notolderthan/limit/other': 'Not older than',
    };
    for (const [cell, semantic] of Object.entries(cells)) {
      const c = requireClause(`rest:4.5/${cell}`);
      expect(c.kind, cell).toBe('normative');
      expect(c.summary.split(': ').slice(1).join(': ').startsWith(semantic), `${cell}: ${c.summary}`).toBe(true);
    }
    expect(ids('rest:4.5/list/').filter((id) => id.split('/').length === 5)).toHaveLength(21);
    expect(ids('rest:4.5/get/')).toHaveLength(3);
    expect(ids('rest:4.5/watch/')).toHaveLength(3);
    expect(requireClause('rest:4.5/list').kind).toBe('normative');
    expect(requireClause('rest:4.5/list').summary).toMatch(/without a row are unspecified/);
    expect(ids('rest:4.5/meaning/').sort()).toEqual(
      ['any', 'continue-exact', 'exact', 'get-state-start', 'most-recent', 'not-older-than', 'start-exact'].map(
        (m) => `rest:4.5/meaning/${m}`,
      ),
    );
    expect(requireClause('rest:4.5/client-obligations').kind).toBe('informative');
  });

  it('has every row of the 2.3, 4.3, 6.1 and 7 tables under its agreed id', () => {
    expect(ids('rest:2.3/')).toEqual(
      [
        'metadata.name',
        'metadata.namespace',
        'metadata.uid',
        'metadata.creationTimestamp',
        'metadata.deletionTimestamp',
        'metadata.finalizers',
        'metadata.resourceVersion',
        'metadata.continue',
        'metadata.remainingItemCount',
        'metadata.managedFields',
        'metadata.labels',
        'apiVersion',
        'kind',
      ].map((f) => `rest:2.3/${f}`),
    );
    expect(ids('rest:4.3/')).toEqual(
      [
        'watch',
        'resourceVersion',
        'resourceVersionMatch',
        'limit',
        'continue',
        'allowWatchBookmarks',
        'dryRun',
        'fieldManager',
        'force',
        'pretty',
      ].map((p) => `rest:4.3/${p}`),
    );
    expect(ids('rest:6.1/')).toEqual(['rest:6.1/ADDED', 'rest:6.1/MODIFIED', 'rest:6.1/BOOKMARK']);
    expect(ids('rest:7/')).toEqual([
      'rest:7/200',
      'rest:7/400',
      'rest:7/406',
      'rest:7/410',
      'rest:7/504',
      'rest:7/504/exact',
      'rest:7/conflict',
    ]);
  });

  it('has every row of the other tables', () => {
    const rows: Record<string, number> = {
      'rest:2.1/': 6,
      'rest:2.5/': 3,
      'rest:2.6/': 6,
      'rest:3.2/': 6,
      'rest:4.1/patch-type/': 3,
      'rest:4.7.7/': 3,
      'rest:4.8/': 7,
      'rest:6.2/': 7,
      'rest:9.2/': 3,
      'rest:9.3/rule-': 13,
    };
    for (const [prefix, n] of Object.entries(rows)) expect(ids(prefix), prefix).toHaveLength(n);
    // 4.1: 15 path rows, the subresource paragraph, 3 PATCH content types, 3 "not shown".
    expect(ids('rest:4.1/')).toHaveLength(22);
    for (const slug of [
      'get-collection',
      'get-object',
      'get-namespaced-collection',
      'get-namespaced-object',
      'post',
      'put',
      'patch',
      'delete',
      'patch-type/apply',
    ]) {
      expect(clauseById(`rest:4.1/${slug}`), slug).toBeDefined();
    }
    // 4.2: 5 paths and 2 query parameters.
    expect(ids('rest:4.2/')).toEqual(
      ['healthz', 'livez', 'readyz', 'livez-check', 'readyz-check', 'verbose', 'exclude'].map((s) => `rest:4.2/${s}`),
    );
    expect(ids('rest:3.1/')).toContain('rest:3.1/live-to-terminating');
    expect(ids('rest:3.1/')).toContain('rest:3.1/terminating-to-removed');
    expect(ids('rest:8/').filter((id) => !id.endsWith('-not-shown'))).toEqual([
      'rest:8/watch-history',
      'rest:8/continue-token-lifetime',
      'rest:8/protobuf-prefix',
      'rest:8/beta-support',
    ]);
  });

  it('has one 9.4 id per removed group/version/kind', () => {
    const kinds = ids('rest:9.4/').filter((id) => /-v[0-9]+(alpha|beta)[0-9]+-[a-z]+$/.test(id));
    expect(kinds).toHaveLength(45);
    for (const id of [
      'batch-v1beta1-cronjob',
      'rbac-authorization-v1beta1-clusterrolebinding',
      'apps-v1beta2-deployment',
      'extensions-v1beta1-ingress',
      'networking-v1beta1-ingress',
    ]) {
      expect(clauseById(`rest:9.4/${id}`), id).toBeDefined();
    }
  });

  // A "not shown" note about an answer a run can record is unspecified; one that names no request or
  // answer (the schemas of every kind, the maximum of limit) is informative: nothing to record.
  const notShownRecorded = [
    'rest:2.5.3',
    'rest:3.1/no-finalizers-not-shown',
    'rest:5.1/client-auth-not-shown',
    'rest:6.1.6',
    'rest:7.5',
    'rest:7.6',
    'rest:7.7',
  ];
  const notShownInformative = [
    'rest:2.8/kind-fields-not-shown',
    'rest:3.3/kind-state-machines-not-shown',
    'rest:4.1/deletecollection-not-shown',
    'rest:4.1/schemas-not-shown',
    'rest:4.1/strategic-merge-not-shown',
    'rest:8/max-limit-not-shown',
    'rest:8/rate-size-limits-not-shown',
  ];

  it('marks exactly the recordable "not shown" statements unspecified, the others informative', () => {
    expect(
      rest
        .filter((c) => c.kind === 'unspecified')
        .map((c) => c.id)
        .sort(),
    ).toEqual([...notShownRecorded].sort());
    for (const c of rest.filter((c) => c.kind === 'unspecified')) expect(c.summary, c.id).toMatch(/not shown$/);
    for (const id of notShownInformative) expect(requireClause(id).kind, id).toBe('informative');
  });

  it('marks the descriptive items informative', () => {
    for (const id of ['rest:1.1', 'rest:1.9', 'rest:4.5/client-obligations', 'rest:9.3/example-timeline'])
      expect(requireClause(id).kind, id).toBe('informative');
    for (const c of rest.filter((c) => c.section === '2.1')) expect(c.kind, c.id).toBe('informative');
    // "kind List ... is a client-side form and not an API response": a list answer can break it.
    expect(requireClause('rest:2.4.3').kind).toBe('normative');
  });

  it('gives every informative clause its reason, and only those', () => {
    const wrong = catalog
      .filter((c) => (c.kind === 'informative' ? !((c.informative?.trim().length ?? 0) > 20) : c.informative !== undefined))
      .map((c) => c.id);
    expect(wrong).toEqual([]);
  });
});

describe('clause catalog: lookups', () => {
  it('finds clauses and names unknown ids', () => {
    expect(clauseById('rest:4.4.3')?.section).toBe('4.4');
    expect(clauseById('rest:99')).toBeUndefined();
    expect(requireClause('rest:2.8').section).toBe('2.8');
    expect(requireClause('rest:1.9').section).toBe('1');
    expect(requireClause('rest:4.7.7/list-type').section).toBe('4.7');
    expect(() => requireClause('rest:99')).toThrow(/unknown clause id "rest:99"/);
  });

  it('groups clauses into titled areas', () => {
    expect(familyOf('rest:4.4.6')).toBe('rest:4.4 paging');
    expect(familyOf('rest:4.5/list/unset/limit-continue/other')).toBe('rest:4.5 resource versions');
    expect(familyOf('rest:7/410')).toBe('rest:7 errors');
    expect(familyOf('rest:2.8')).toBe('rest:2.8 generated fields');
    expect(sectionTitle('rest', '4.5')).toBe('resource versions');
    expect(sectionTitle('rest', '42')).toBe('');
    expect(() => familyOf('rest:99')).toThrow(/rest:99/);
    expect(catalog.map((c) => familyOf(c.id)).filter((f) => !/^(rest|node):[0-9.]+ \S/.test(f))).toEqual([]);
  });
});
