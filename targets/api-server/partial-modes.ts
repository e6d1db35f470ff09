/**
 * Partial modes (`--without FEATURE`): the embedded server leaves a whole feature out, as a server
 * still being built does. Neither a fault (nothing served is served wrongly) nor a legal variation (the
 * spec requires most of these): what the run must do is name the feature "not served" once and judge
 * the rest as on the full server. Each mode answers the way a partial server typically does; a mode
 * that would store what it should not (a dry-run carried out) is a fault, never a mode.
 * The feature each removes is the capability map's (reference/features.ts).
 */
import type { FeatureId } from '../../reference/features.ts';

export interface PartialMode {
  readonly name: string;
  /** The feature of the capability map this mode removes. */
  readonly feature: FeatureId;
  readonly description: string;
}

export const partialModes = [
  { name: 'put', feature: 'put', description: 'PUT of an object answers 405 MethodNotAllowed (create, read, patch, delete still served)' },
  {
    name: 'generate-name',
    feature: 'generate-name',
    description: 'metadata.generateName is ignored: a create without a name answers 422 (name required)',
  },
  {
    name: 'apply',
    feature: 'apply',
    description: 'server-side apply is absent: PATCH with application/apply-patch+yaml answers 415 (merge and JSON patch still served)',
  },
  {
    name: 'watch-delivery',
    feature: 'watch-delivery',
    description: 'a watch opens (200) and sends the current state when asked for it, but never an event of a later change',
  },
  {
    name: 'dry-run',
    feature: 'dry-run',
    description:
      'dryRun is refused: every write that carries it answers 400 BadRequest, as upstream did with its DryRun gate off (nothing stored)',
  },
  {
    name: 'crd-serving',
    feature: 'crd-serving',
    description:
      'CustomResourceDefinitions are stored, but the types they define are never served (404), as a server without the apiextensions controller',
  },
  {
    name: 'paging',
    feature: 'paging',
    description: 'limit and continue are ignored: every list is whole, without a continue token (chunking off, rest:4.4.5)',
  },
] as const satisfies readonly PartialMode[];

export type PartialModeName = (typeof partialModes)[number]['name'];

/** Whether the server leaves `mode` out. */
export const lacks = (st: { readonly without?: ReadonlySet<PartialModeName> }, mode: PartialModeName): boolean =>
  st.without?.has(mode) === true;

/** A list query without the paging parameters (the `paging` mode reads none of them). */
export function withoutPaging<T extends readonly [string, string | null]>(pairs: readonly T[]): T[] {
  return pairs.filter(([k]) => k !== 'limit' && k !== 'continue');
}
