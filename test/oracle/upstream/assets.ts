/**
 * Where the upstream-binary tests find the binaries: KUBEBUILDER_ASSETS, else ../shared/envtest-assets
 * beside the repository (as CI lays it out); undefined with the reason when neither has them.
 */
import { existsSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { AssetsError, resolveAssets, type Assets, type BinaryName } from '../../../harness/envtest/index.ts';

const repoRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../..');
export const sharedAssets = path.resolve(repoRoot, '../shared/envtest-assets');

export function upstreamAssets(required: readonly BinaryName[]): { assets?: Assets; skipReason: string } {
  const dir = process.env.KUBEBUILDER_ASSETS || (existsSync(sharedAssets) ? sharedAssets : undefined);
  if (dir === undefined)
    return { skipReason: ' [skipped: no upstream binaries: set KUBEBUILDER_ASSETS or put them in ../shared/envtest-assets]' };
  try {
    return { assets: resolveAssets({ dir, required }), skipReason: '' };
  } catch (e) {
    if (e instanceof AssetsError) return { skipReason: ` [skipped: ${e.message}]` };
    throw e;
  }
}
