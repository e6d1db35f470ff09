/**
 * The reference loader as a loader target, run in-process (no subprocess per case). The harness
 * receives it by injection (`provideEmbeddedLoader`), never by import.
 */
import type { Profile } from '../../reference/profile.ts';
import type { NodeagentLoaderTarget } from '../../harness/processes/index.ts';
import { runReferenceLoader } from './loader.ts';
import type { NodeagentFaultName } from './faults.ts';
import type { NodeagentVariationName } from './variations.ts';

export const EMBEDDED_LOADER = 'embedded reference loader';

/** How the reports name the embedded loader with these faults and variations (a run names it before it makes one). */
export function embeddedLoaderDescription(faults: readonly string[] = [], variations: readonly string[] = []): string {
  return [
    EMBEDDED_LOADER,
    ...(faults.length > 0 ? [`with faults ${faults.join(', ')}`] : []),
    ...(variations.length > 0 ? [`with variations ${variations.join(', ')}`] : []),
  ].join(' ');
}

export function embeddedLoader(
  profile: Profile,
  faults: readonly NodeagentFaultName[] = [],
  variations: readonly NodeagentVariationName[] = [],
): NodeagentLoaderTarget {
  const flags = [`--profile ${profile.name}`, ...faults.map((f) => `--fault ${f}`)].join(' ');
  return {
    description: embeddedLoaderDescription(faults, variations),
    run: async (fileName, text) => runReferenceLoader(text, { profile, fileName, output: 'json', effective: true, faults, variations }),
    replay: (file) => `npx svc-conformance nodeagent validate --output json --effective ${flags} ${file}`,
    command: `npx svc-conformance nodeagent validate --output json --effective ${flags}`,
    close: () => undefined,
  };
}
