/**
 * The review APIs real clients post at start-up (rest:2.1 "virtual resource type", rest:4.1 POST
 * `.../subjectaccessreviews`): `kubectl auth can-i` posts a SelfSubjectAccessReview, and components
 * check their permissions the same way. They are questions, never stored. The reference server
 * authorizes every request, so every review is allowed (until it has an authorization layer of its own).
 */
import { isRecord } from '../../reference/objects.ts';
import { apiVersionOf, type ResourceType } from '../../reference/resources.ts';
import { badRequest, type Answer } from './status.ts';

const REVIEW_KINDS = new Set(['SelfSubjectAccessReview', 'SubjectAccessReview', 'LocalSubjectAccessReview', 'SelfSubjectRulesReview', 'TokenReview']);

export const isReview = (rt: ResourceType): boolean => REVIEW_KINDS.has(rt.kind);

/** Verbs a discovery document lists for a review type: create only, as upstream. */
export const REVIEW_VERBS = ['create'];

export function answerReview(rt: ResourceType, body: unknown): Answer {
  if (!isRecord(body)) return badRequest(`the request body must be a ${rt.kind}`);
  const status = rt.kind === 'TokenReview'
    ? { authenticated: false, error: 'the reference server does not authenticate tokens' }
    : rt.kind === 'SelfSubjectRulesReview'
      ? { resourceRules: [{ verbs: ['*'], apiGroups: ['*'], resources: ['*'] }], nonResourceRules: [{ verbs: ['*'], nonResourceURLs: ['*'] }], incomplete: false }
      : { allowed: true, reason: 'the reference server authorizes every request' };
  const md = isRecord(body['metadata']) ? body['metadata'] : {};
  return { status: 201, body: { ...body, apiVersion: apiVersionOf(rt), kind: rt.kind, metadata: { ...md, creationTimestamp: null }, status } };
}
