/**
 * Cases of the authorization checks (rest:5.3-5.5, rest:4.6.4): a few random rules, bound to the
 * restricted user in the case's first namespace, and requests of that user in either namespace, on a
 * resource, on a custom type, or on that type's status subresource. Biased towards the spots where an
 * authorizer goes wrong: rules on a parent without its subresource, requests in the other namespace.
 * Plain data, symbolic names (reference/authz.ts resolves them per run).
 */
import fc from 'fast-check';
import { AUTHZ_RULE_RESOURCES, AUTHZ_VERBS, type AuthzGroup, type AuthzRule, type AuthzStep } from '../reference/authz.ts';

const groupArb: fc.Arbitrary<AuthzGroup> = fc.constantFrom<AuthzGroup>('core', 'fixture', 'fixture', '*');

export const authzRuleArb: fc.Arbitrary<AuthzRule> = fc.record({
  apiGroups: fc.uniqueArray(groupArb, { minLength: 1, maxLength: 2 }),
  // Parent-only rules come up most: they are where a subresource leak shows.
  resources: fc.uniqueArray(fc.constantFrom(...AUTHZ_RULE_RESOURCES, 'widgets', 'widgets', 'configmaps'), { minLength: 1, maxLength: 2 }),
  verbs: fc.oneof(
    { weight: 6, arbitrary: fc.uniqueArray(fc.constantFrom(...AUTHZ_VERBS), { minLength: 1, maxLength: 4 }) },
    { weight: 1, arbitrary: fc.constant(['*' as const]) },
  ),
});

const STATUS_VERBS = ['get', 'update', 'patch'] as const;

export const authzStepArb: fc.Arbitrary<AuthzStep> = fc.oneof(
  fc.record({
    verb: fc.constantFrom(...AUTHZ_VERBS),
    resource: fc.constantFrom('configmaps' as const, 'widgets' as const),
    status: fc.constant(false),
    ns: fc.constantFrom<0 | 1>(0, 0, 1),
  }),
  fc.record({
    verb: fc.constantFrom(...STATUS_VERBS),
    resource: fc.constant('widgets' as const),
    status: fc.constant(true),
    ns: fc.constantFrom<0 | 1>(0, 0, 1),
  }),
);

export interface AuthzCase {
  readonly rules: readonly AuthzRule[];
  readonly steps: readonly AuthzStep[];
}

export const authzCaseArb = (o: { maxSteps?: number } = {}): fc.Arbitrary<AuthzCase> =>
  fc.record({
    rules: fc.array(authzRuleArb, { minLength: 1, maxLength: 3 }),
    steps: fc.array(authzStepArb, { minLength: 1, maxLength: o.maxSteps ?? 6 }),
  });

export const showAuthzRule = (r: AuthzRule): string =>
  `{apiGroups: [${r.apiGroups.join(', ')}], resources: [${r.resources.join(', ')}], verbs: [${r.verbs.join(', ')}]}`;
