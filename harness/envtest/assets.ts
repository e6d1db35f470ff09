/**
 * Where the upstream binaries are: an explicit folder, else `KUBEBUILDER_ASSETS` (the variable
 * controller-runtime's envtest and `setup-envtest` use). A missing folder or binary is one line naming
 * what is missing and where it was looked for, so a user knows at once what to install.
 *
 *   resolveAssets({ dir: '/opt/k8s' })  -> { dir, binaries: { etcd: '/opt/k8s/etcd', ... } }
 *   resolveAssets({})                   -> AssetsError: no assets folder: set KUBEBUILDER_ASSETS or ...
 */
import { accessSync, constants, statSync } from 'node:fs';
import path from 'node:path';

/** The binaries the launcher and `test:upstream` know, as envtest lays them out (one flat folder). */
export const binaryNames = ['etcd', 'kube-apiserver', 'kube-controller-manager', 'kubelet-config-loader'] as const;
export type BinaryName = (typeof binaryNames)[number];

/** etcd and kube-apiserver are the control plane; setup-envtest installs no controller manager. */
export const controlPlaneBinaries: readonly BinaryName[] = ['etcd', 'kube-apiserver'];

export interface Assets {
  readonly dir: string;
  /** Absolute paths of the executables present in `dir`. */
  readonly binaries: Readonly<Partial<Record<BinaryName, string>>>;
}

/** Bad or missing assets: `message` is one line. */
export class AssetsError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'AssetsError';
  }
}

export const ASSETS_VARIABLE = 'KUBEBUILDER_ASSETS';

/**
 * The folder (`dir`, else the variable in `env`) and the executables found in it. Throws AssetsError
 * when no folder is named, it is not a folder, or one of `required` is absent or not executable.
 */
export function resolveAssets(o: { dir?: string; env?: NodeJS.ProcessEnv; required?: readonly BinaryName[] }): Assets {
  const env = o.env ?? process.env;
  const named = o.dir ?? env[ASSETS_VARIABLE];
  const source = o.dir !== undefined ? 'the assets folder' : ASSETS_VARIABLE;
  const required = o.required ?? controlPlaneBinaries;
  if (named === undefined || named.trim() === '') {
    throw new AssetsError(
      `no upstream binaries: set ${ASSETS_VARIABLE} to a folder with ${required.join(', ')} (e.g. from setup-envtest) or name one with --assets`,
    );
  }
  const dir = path.resolve(named);
  let isDir = false;
  try {
    isDir = statSync(dir).isDirectory();
  } catch {
    throw new AssetsError(`no upstream binaries: ${source} ${dir} does not exist`);
  }
  if (!isDir) throw new AssetsError(`no upstream binaries: ${source} ${dir} is not a folder`);
  const binaries: Partial<Record<BinaryName, string>> = {};
  for (const name of binaryNames) {
    const file = path.join(dir, name);
    if (isExecutableFile(file)) binaries[name] = file;
  }
  const missing = required.filter((n) => binaries[n] === undefined);
  if (missing.length > 0)
    throw new AssetsError(
      `no upstream binaries: ${missing.join(', ')} ${missing.length === 1 ? 'is' : 'are'} missing or not executable in ${dir} (${source})`,
    );
  return { dir, binaries };
}

function isExecutableFile(file: string): boolean {
  try {
    if (!statSync(file).isFile()) return false;
    accessSync(file, constants.X_OK);
    return true;
  } catch {
    return false;
  }
}
