// The judges of rest-authz (reference/authz.ts): the right observations pass, the near misses a
// broken server produces fail under the clause it breaks, and what the spec leaves open is recorded.
import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import {
  expectedDecision,
  isLoopbackHost,
  judgeHealthAccess,
  judgeStep,
  judgeStranger,
  judgeSubresourceGet,
  probeStep,
  type AuthzNames,
  type AuthzRule,
  type AuthzStep,
} from '../../../reference/authz.ts';
import { profiles } from '../../../reference/profile.ts';
import { authzCaseArb } from '../../../generators/authz.ts';

const n: AuthzNames = { profile: profiles.svc, runId: 'r1', namespaces: ['a', 'b'] };
const verdicts = (js: readonly { clause: string; verdict: string }[]) => Object.fromEntries(js.map((j) => [j.clause, j.verdict]));
const onWidgets: AuthzRule = { apiGroups: ['fixture'], resources: ['widgets'], verbs: ['get', 'update'] };
const statusUpdate: AuthzStep = { verb: 'update', resource: 'widgets', status: true, ns: 0 };

describe('the model behind the steps', () => {
  it('a rule on the parent does not grant the status subresource; one on widgets/status or */status does', () => {
    expect(expectedDecision(n, 'u', [], [onWidgets], statusUpdate)).toBe(false);
    expect(expectedDecision(n, 'u', [], [{ ...onWidgets, resources: ['widgets/status'] }], statusUpdate)).toBe(true);
    expect(expectedDecision(n, 'u', [], [{ ...onWidgets, resources: ['*/status'] }], statusUpdate)).toBe(true);
  });
  it('the binding grants in namespace #0 only', () => {
    expect(expectedDecision(n, 'u', [], [onWidgets], { verb: 'get', resource: 'widgets', status: false, ns: 0 })).toBe(true);
    expect(expectedDecision(n, 'u', [], [onWidgets], { verb: 'get', resource: 'widgets', status: false, ns: 1 })).toBe(false);
  });
  it('rules that grant any request of a case have a probe (so the case waits for its binding)', () => {
    fc.assert(
      fc.property(
        authzCaseArb(),
        (c) => !c.steps.some((s) => expectedDecision(n, 'u', [], c.rules, { ...s, ns: 0 })) || probeStep(n, 'u', [], c.rules) !== undefined,
      ),
      { numRuns: 500 },
    );
  });

  it('the probe is always a request the rules grant', () => {
    fc.assert(
      fc.property(authzCaseArb(), (c) => {
        const p = probeStep(n, 'u', [], c.rules);
        return p === undefined || expectedDecision(n, 'u', [], c.rules, p);
      }),
    );
  });
});

describe('judgeStep', () => {
  it('accepts a refusal of what nobody granted, served dry-run and review in agreement', () => {
    const v = verdicts(judgeStep(statusUpdate, false, { real: 403, dry: 403, review: false }, 'AuthzWidget'));
    expect(v).toMatchObject({
      'rest:5.3': 'pass',
      'rest:4.6.4': 'pass',
      'rest:5.4': 'pass',
      'rest:4.1/subjectaccessreviews': 'pass',
      'rest:5.1/client-auth-not-shown': 'unspecified',
    });
  });
  it('subresource-inherits-parent: the status write served fails rest:5.3', () => {
    expect(verdicts(judgeStep(statusUpdate, false, { real: 200, dry: 200, review: true }, 'AuthzWidget'))['rest:5.3']).toBe('fail');
  });
  it('binding-leaks-namespace: served in the other namespace fails rest:5.3 and rest:2.2.4', () => {
    const v = verdicts(judgeStep({ ...statusUpdate, status: false, ns: 1 }, false, { real: 200, dry: 200, review: true }, 'AuthzWidget'));
    expect([v['rest:5.3'], v['rest:2.2.4']]).toEqual(['fail', 'fail']);
  });
  it('dry-run-skips-authz: a dry-run served where the real request is refused fails rest:4.6.4 and rest:5.4', () => {
    const v = verdicts(judgeStep(statusUpdate, false, { real: 403, dry: 200 }, 'AuthzWidget'));
    expect([v['rest:4.6.4'], v['rest:5.4'], v['rest:5.3']]).toEqual(['fail', 'fail', 'pass']);
  });
  it('sar-disagrees: a review allowing what is then refused fails the review row only', () => {
    const v = verdicts(judgeStep(statusUpdate, false, { real: 403, dry: 403, review: true }, 'AuthzWidget'));
    expect([v['rest:4.1/subjectaccessreviews'], v['rest:5.3']]).toEqual(['fail', 'pass']);
  });
  it('a granted request refused fails; one failing for another reason is inconclusive, never a pass', () => {
    expect(verdicts(judgeStep(statusUpdate, true, { real: 403 }, 'AuthzWidget'))['rest:5.3']).toBe('fail');
    expect(verdicts(judgeStep(statusUpdate, true, { real: 409 }, 'AuthzWidget'))['rest:5.3']).toBe('inconclusive');
  });
  it('a restricted identity of unknown permissions: a refusal the model expected is not judged', () => {
    expect(verdicts(judgeStep(statusUpdate, undefined, { real: 200, review: true }, 'AuthzWidget'))['rest:5.3']).toBeUndefined();
  });
  it('rest:4.6.3: a write served for real must be served dry too', () => {
    expect(verdicts(judgeStep(statusUpdate, true, { real: 200, dry: 200 }, 'AuthzWidget'))['rest:4.6.3']).toBe('pass');
  });
});

describe('strangers and health', () => {
  it('rest:5.1: anything served to nobody fails, as does a write that stuck', () => {
    expect(verdicts(judgeStranger('anonymous', 'list', 200))['rest:5.1']).toBe('fail');
    expect(verdicts(judgeStranger('unknown', 'create', 403, true))['rest:5.1']).toBe('fail');
    expect(verdicts(judgeStranger('unknown', 'get', 401))).toEqual({ 'rest:5.1': 'pass', 'rest:5.1/client-auth-not-shown': 'unspecified' });
  });
  it('rest:5.6 is judged from a remote host only, and never for the anonymous identity', () => {
    expect(judgeHealthAccess('unknown', '/livez', 200, false).verdict).toBe('unspecified');
    expect(judgeHealthAccess('anonymous', '/livez', 200, true).verdict).toBe('unspecified');
    expect(judgeHealthAccess('unknown', '/livez', 200, true).verdict).toBe('fail');
    expect(judgeHealthAccess('unknown', '/livez', 401, true).verdict).toBe('pass');
    expect(['127.0.0.1', 'localhost', '[::1]'].every(isLoopbackHost) && !isLoopbackHost('10.0.0.1')).toBe(true);
  });
  it('rest:4.1: the status subresource GET answers the object', () => {
    expect(judgeSubresourceGet('/x/status', 200, 'AuthzWidget', 'AuthzWidget').verdict).toBe('pass');
    expect(judgeSubresourceGet('/x/status', 200, 'Status', 'AuthzWidget').verdict).toBe('fail');
    expect(judgeSubresourceGet('/api/v1/namespaces/a/status', 404, undefined, 'Namespace', 'cluster')).toMatchObject({
      clause: 'rest:4.1/get-subresource',
      verdict: 'fail',
    });
  });
});
