/**
 * Planted faults generated one per row of a spec table (oracle strength: every row a default run
 * passes has a fault that fails it). Their names carry the row (`removed-version-served/<row>`), so
 * they are apart from the `as const` table of faults.ts, whose names are a closed type; `--fault`,
 * `list-faults`, the self-tests and `npm run mutation` take both.
 *
 * `removed-version-served/<row>`: the group version of one rest:9.4 row is still served once removed.
 * A row not yet removed at the default release (1.24) passes served or not there, so its fault runs
 * the server at the row's removal release (Fault.target), where the row has something to break.
 */
import { removals } from '../../reference/versioning/removals.ts';
import { compareReleases, REFERENCE_RELEASE } from '../../reference/versioning/release.ts';
import type { Fault } from './faults.ts';

export type FamilyFaultName = `removed-version-served/${string}`;

const rowOf = (clause: string) => clause.replace(/^rest:9\.4\//, '');

export const familyFaults: readonly (Fault & { readonly name: FamilyFaultName })[] = removals
  // coordination v1beta1 leases have a fault of their own (faults.ts removed-version-served).
  .filter((r) => r.clause !== 'rest:9.4/coordination-v1beta1-lease')
  .map((r) => ({
    name: `removed-version-served/${rowOf(r.clause)}` as const,
    clause: r.clause,
    description: `${r.group.stem}/${r.version} ${r.resource} (removed in v${r.removedIn.major}.${r.removedIn.minor}) is still served after its removal`,
    checks: ['deprecated-versions'],
    alsoReportedAs: [],
    ...(compareReleases(r.removedIn, REFERENCE_RELEASE) > 0 ? { target: { release: `${r.removedIn.major}.${r.removedIn.minor}` } } : {}),
  }));

/** The row a removed-version-served fault keeps serving, by its clause; undefined for any other name. */
export function keptRow(name: string): string | undefined {
  return name.startsWith('removed-version-served/') ? `rest:9.4/${name.slice('removed-version-served/'.length)}` : undefined;
}
