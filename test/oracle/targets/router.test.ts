// The reference server's router (rest:4.1 path shapes): the per-request shortcuts (core types looked up
// once per profile, segments decoded only when escaped, the extra types asked for only on a miss) must
// route every path as a plain scan of all types would.
import { describe, expect, it } from 'vitest';
import { route } from '../../../targets/api-server/router.ts';
import { profiles } from '../../../reference/profile.ts';
import type { ResourceType } from '../../../reference/resources.ts';

const svc = profiles.svc;
const widget: ResourceType = { plural: 'widgets', kind: 'Widget', group: 'example.com', version: 'v1', namespaced: true };
const shadow: ResourceType = { plural: 'configmaps', kind: 'Shadow', group: '', version: 'v1', namespaced: true };

describe('route', () => {
  it('decodes escaped segments and refuses a malformed escape', () => {
    expect(route(svc, '/api/v1/namespaces/a%2Db/configmaps/x%20y')).toMatchObject({
      kind: 'object',
      namespace: 'a-b',
      name: 'x y',
      rt: { plural: 'configmaps' },
    });
    expect(route(svc, '/api/v1/namespaces/ns/configmaps/100%')).toEqual({ kind: 'none' });
    expect(route(svc, '/api/v1/namespaces/ns/configmaps/plain')).toMatchObject({ kind: 'object', name: 'plain' });
  });

  it('prefers a core type to an extra type of the same group and plural, and asks for the extras only on a miss', () => {
    let asked = 0;
    const extras = () => {
      asked++;
      return [shadow, widget];
    };
    expect(route(svc, '/api/v1/namespaces/ns/configmaps', extras)).toMatchObject({ kind: 'collection', rt: { kind: 'ConfigMap' } });
    expect(asked).toBe(0);
    expect(route(svc, '/apis/example.com/v1/namespaces/ns/widgets/w', extras)).toMatchObject({ kind: 'object', rt: widget, name: 'w' });
    expect(asked).toBe(1);
    expect(route(svc, '/apis/example.com/v1/namespaces/ns/widgets/w', [widget])).toMatchObject({ kind: 'object', rt: widget });
    expect(route(svc, '/apis/example.com/v1/namespaces/ns/gadgets', extras)).toEqual({ kind: 'none' });
  });

  it('serves the profile named group of a core type', () => {
    expect(route(svc, '/apis/coordination.svc.io/v1/namespaces/ns/leases/l')).toMatchObject({
      kind: 'object',
      rt: { kind: 'Lease' },
      name: 'l',
    });
    expect(route(profiles.k8s, '/apis/coordination.svc.io/v1/namespaces/ns/leases/l')).toEqual({ kind: 'none' });
  });
});
