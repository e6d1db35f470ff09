/**
 * Strategic merge patch (`application/strategic-merge-patch+json`), which kubectl sends for built-in
 * kinds (`kubectl patch` by default, client-side `kubectl apply`). The spec leaves it open
 * (rest:4.1/strategic-merge-not-shown). A patch without lists and without `$` directives means the
 * same as a JSON merge patch, so that subset is served on built-in kinds; the rest needs per-field
 * merge keys the server does not have, and is refused as unsupported rather than guessed. Custom
 * resources refuse it as upstream does (they have no strategy).
 */
import { isRecord } from '../../reference/objects.ts';
import type { ResourceType } from '../../reference/resources.ts';
import { customSchema } from './crds.ts';
import type { ServerState } from './state.ts';
import { statusAnswer, type Answer } from './status.ts';

export const STRATEGIC_MERGE = 'application/strategic-merge-patch+json';

/** True when the patch is an object with no lists and no `$` directives anywhere. */
export function isPlainStrategicPatch(doc: unknown): boolean {
  const plain = (v: unknown): boolean => {
    if (Array.isArray(v)) return false;
    if (!isRecord(v)) return true;
    return Object.entries(v).every(([k, x]) => !k.startsWith('$') && plain(x));
  };
  return isRecord(doc) && plain(doc);
}

/** The 415 for a strategic merge patch this server cannot apply as a merge patch; undefined if it can. */
export function strategicRefusal(st: ServerState, rt: ResourceType, doc: unknown): Answer | undefined {
  if (customSchema(st, rt) !== undefined)
    return statusAnswer(
      415,
      'UnsupportedMediaType',
      `the body of the request was in an unknown format - accepted media types include: application/json-patch+json, application/merge-patch+json, application/apply-patch+yaml`,
    );
  if (!isPlainStrategicPatch(doc))
    return statusAnswer(
      415,
      'UnsupportedMediaType',
      'strategic merge patches with lists or $ directives are not supported here; use a merge or JSON patch',
    );
  return undefined;
}
