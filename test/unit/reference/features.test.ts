/**
 * The capability map's decisions (reference/features.ts): what each probe answer shows. Each rule is
 * shown to tell served from not served from served wrongly, so no answer reads as served by default.
 */
import { describe, expect, it } from 'vitest';
import {
  byStatus,
  failsWhenNotServed,
  capabilityMapOf,
  decideDiscovery,
  decideDryRun,
  decideEncoding,
  decideGenerateName,
  decidePaging,
  decideWatchDelivery,
  FEATURES,
  FEATURE_IDS,
  notServedOf,
} from '../../../reference/features.ts';
import { catalog } from '../../../reference/catalog/index.ts';

const answer = (status: number, body?: unknown) => ({ request: 'GET /x', status, body });

describe('features', () => {
  it('every feature has one entry, under a clause of the catalog', () => {
    expect(FEATURES.map((f) => f.id)).toEqual(
      [...FEATURE_IDS].sort((a, b) => FEATURES.findIndex((f) => f.id === a) - FEATURES.findIndex((f) => f.id === b)),
    );
    expect(new Set(FEATURES.map((f) => f.id)).size).toBe(FEATURE_IDS.length);
    const ids = new Set(catalog.map((c) => c.id));
    expect(FEATURES.filter((f) => !ids.has(f.clause)).map((f) => f.clause)).toEqual([]);
  });

  it('only the features the spec lets a server leave out are optional (chunking rest:4.4.5, Table rest:2.5.2, custom types rest:4.7.9)', () => {
    expect(FEATURES.filter((f) => !f.required).map((f) => f.id)).toEqual(['paging', 'table', 'crd-serving']);
  });

  it('a silent watch is never a failure: delivery is required but bounded in no time (rest:6.1), so it is notServed', () => {
    expect(FEATURES.filter((f) => f.required && !failsWhenNotServed(f)).map((f) => f.id)).toEqual(['watch-delivery']);
  });

  it('by status: 2xx served, 404/405/415/501 not served, another answer served wrongly, none unknown', () => {
    expect(byStatus('put', answer(200)).state).toBe('served');
    for (const s of [404, 405, 415, 501]) expect(byStatus('put', answer(s)).state).toBe('notServed');
    expect(byStatus('put', answer(500)).state).toBe('servedWrongly');
    expect(byStatus('put', answer(0)).state).toBe('unknown');
    expect(byStatus('put', undefined).state).toBe('unknown');
    expect(byStatus('put', answer(405)).evidence).toBe('GET /x answered 405');
  });

  it('generateName: a name completed from the prefix is served; refused as nameless is not served; another name is served wrongly', () => {
    expect(decideGenerateName(answer(201, { metadata: { name: 'g-x1y2z' } }), 'g-').state).toBe('served');
    expect(decideGenerateName(answer(422), 'g-').state).toBe('notServed');
    expect(decideGenerateName(answer(400), 'g-').state).toBe('notServed');
    expect(decideGenerateName(answer(201, { metadata: { name: 'g-' } }), 'g-').state).toBe('servedWrongly');
    expect(decideGenerateName(answer(201, { metadata: {} }), 'g-').state).toBe('servedWrongly');
  });

  it('dry-run: refused with 400 is not served; a stored dry-run is served wrongly (a bug, never an absent feature)', () => {
    expect(decideDryRun(answer(201), false).state).toBe('served');
    expect(decideDryRun(answer(400), undefined).state).toBe('notServed');
    expect(decideDryRun(answer(501), undefined).state).toBe('notServed');
    expect(decideDryRun(answer(201), true).state).toBe('servedWrongly');
  });

  it('paging: one item and a token is served; every item without a token is not served; anything else is wrong', () => {
    expect(decidePaging(answer(200, { metadata: { continue: 't' }, items: [{}] }), 3).state).toBe('served');
    expect(decidePaging(answer(200, { metadata: {}, items: [{}, {}, {}] }), 3).state).toBe('notServed');
    expect(decidePaging(answer(200, { metadata: {}, items: [{}] }), 3).state).toBe('servedWrongly');
    expect(decidePaging(answer(200, { metadata: { continue: 't' }, items: [{}, {}] }), 3).state).toBe('servedWrongly');
  });

  it('watch delivery: the later write seen is served; an open, silent stream or a refused watch is not served', () => {
    expect(decideWatchDelivery(answer(200), true, 1500, 'w').state).toBe('served');
    const silent = decideWatchDelivery(answer(200), false, 1500, 'w');
    expect(silent.state).toBe('notServed');
    expect(silent.evidence).toContain('within 1500 ms');
    expect(decideWatchDelivery(answer(405), false, 1500, 'w').state).toBe('notServed');
  });

  it('discovery: the core group listing configmaps is served; without them it is not', () => {
    expect(decideDiscovery(answer(200, { resources: [{ name: 'configmaps' }] }), 'configmaps').state).toBe('served');
    expect(decideDiscovery(answer(200, { resources: [{ name: 'pods' }] }), 'configmaps').state).toBe('notServed');
  });

  it('encodings: the asked representation is served; 406 or another representation is not served', () => {
    const table = (_ct: string | undefined, body: unknown) =>
      (body as { kind?: string }).kind === 'Table' ? ('served' as const) : ('notServed' as const);
    expect(decideEncoding('table', answer(200, { kind: 'Table' }), table).state).toBe('served');
    expect(decideEncoding('table', answer(200, { kind: 'ConfigMapList' }), table).state).toBe('notServed');
    expect(decideEncoding('table', answer(406), table).state).toBe('notServed');
    expect(decideEncoding('table', answer(200, { kind: 'List' }), () => 'servedWrongly').state).toBe('servedWrongly');
  });

  it('the map lists every feature once, in catalog order; those not probed are unknown, never served', () => {
    const map = capabilityMapOf([byStatus('put', answer(405))]);
    expect(map.map((f) => f.feature)).toEqual(FEATURES.map((f) => f.id));
    expect(map.find((f) => f.feature === 'get')?.state).toBe('unknown');
    expect(notServedOf(map)).toEqual(['put']);
  });
});
