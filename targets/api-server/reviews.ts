/**
 * The review APIs (rest:2.1 "virtual resource type", rest:4.1 POST `.../subjectaccessreviews`):
 * `kubectl auth can-i` posts a SelfSubjectAccessReview, components check their permissions the same
 * way. They are questions, never stored, answered from the very authorizer that decides the requests
 * themselves (authz.ts), so a review's `allowed` is what the server then does for that identity.
 */
import { isRecord } from '../../reference/objects.ts';
import { apiVersionOf, type ResourceType } from '../../reference/resources.ts';
import { AUTHENTICATED_GROUP, type RequestAttributes, type UserInfo } from '../../reference/rbac.ts';
import { decide } from './authz.ts';
import type { ServerState } from './state.ts';
import { badRequest, type Answer } from './status.ts';

const REVIEW_KINDS = new Set([
  'SelfSubjectAccessReview',
  'SubjectAccessReview',
  'LocalSubjectAccessReview',
  'SelfSubjectRulesReview',
  'TokenReview',
]);

export const isReview = (rt: ResourceType): boolean => REVIEW_KINDS.has(rt.kind);

/** Verbs a discovery document lists for a review type: create only, as upstream. */
export const REVIEW_VERBS = ['create'];

const str = (v: unknown): string | undefined => (typeof v === 'string' && v !== '' ? v : undefined);

/** The attributes a review asks about, for `who`; undefined when it names neither kind of attributes. */
function askedOf(spec: Record<string, unknown>, who: UserInfo): RequestAttributes | undefined {
  const ra = spec['resourceAttributes'];
  if (isRecord(ra)) {
    const namespace = str(ra['namespace']);
    const name = str(ra['name']);
    const subresource = str(ra['subresource']);
    return {
      ...who,
      verb: str(ra['verb']) ?? '',
      apiGroup: typeof ra['group'] === 'string' ? ra['group'] : '',
      resource: str(ra['resource']) ?? '',
      namespace,
      name,
      subresource,
    };
  }
  const nra = spec['nonResourceAttributes'];
  if (isRecord(nra)) return { ...who, verb: str(nra['verb']) ?? '', path: str(nra['path']) ?? '' };
  return undefined;
}

export function answerReview(st: ServerState, rt: ResourceType, namespace: string | undefined, body: unknown, requester: UserInfo): Answer {
  if (!isRecord(body)) return badRequest(`the request body must be a ${rt.kind}`);
  const spec = isRecord(body['spec']) ? body['spec'] : {};
  let status: Record<string, unknown>;
  if (rt.kind === 'TokenReview') {
    const user = st.tokens?.get(typeof spec['token'] === 'string' ? spec['token'] : '');
    status = user
      ? { authenticated: true, user: { username: user.user, groups: [...new Set([...user.groups, AUTHENTICATED_GROUP])] } }
      : { authenticated: false, error: 'the token authenticates nobody' };
  } else if (rt.kind === 'SelfSubjectRulesReview') {
    // An open server (no token table) lets everyone do anything; one that authorizes does not list rules.
    status =
      st.tokens === undefined
        ? {
            resourceRules: [{ verbs: ['*'], apiGroups: ['*'], resources: ['*'] }],
            nonResourceRules: [{ verbs: ['*'], nonResourceURLs: ['*'] }],
            incomplete: false,
          }
        : { resourceRules: [], nonResourceRules: [], incomplete: true, evaluationError: 'the reference server does not list rules' };
  } else {
    const who: UserInfo =
      rt.kind === 'SubjectAccessReview' || rt.kind === 'LocalSubjectAccessReview'
        ? {
            user: typeof spec['user'] === 'string' ? spec['user'] : '',
            groups: Array.isArray(spec['groups']) ? spec['groups'].filter((g): g is string => typeof g === 'string') : [],
          }
        : requester;
    const asked = askedOf(spec, who);
    if (asked === undefined)
      return {
        status: 422,
        body: {
          kind: 'Status',
          apiVersion: 'v1',
          metadata: {},
          status: 'Failure',
          reason: 'Invalid',
          code: 422,
          message: 'spec: Invalid value: exactly one of nonResourceAttributes or resourceAttributes must be specified',
        },
      };
    if (rt.kind === 'LocalSubjectAccessReview' && 'resource' in asked && asked.namespace !== namespace) {
      return {
        status: 422,
        body: {
          kind: 'Status',
          apiVersion: 'v1',
          metadata: {},
          status: 'Failure',
          reason: 'Invalid',
          code: 422,
          message: 'spec.resourceAttributes.namespace: must match metadata.namespace',
        },
      };
    }
    const allowed = decide(st, asked, true);
    status = allowed ? { allowed: true, reason: "allowed by the reference server's role-based authorizer" } : { allowed: false };
  }
  const md = isRecord(body['metadata']) ? body['metadata'] : {};
  return {
    status: 201,
    body: { ...body, apiVersion: apiVersionOf(rt), kind: rt.kind, metadata: { ...md, creationTimestamp: null }, status },
  };
}
