/**
 * undici, loaded when the first request is made rather than when a module that may send one is
 * imported: about 1 MB of JavaScript, the largest part of the CLI's start-up, and the
 * commands that send nothing (`--version`, `nodeagent validate`, `controller-daemon lint`) import the
 * harness all the same. A plain `require` is synchronous, so callers stay as they were.
 */
import { createRequire } from 'node:module';
import type * as Undici from 'undici';

let loaded: typeof Undici | undefined;

export function undici(): typeof Undici {
  loaded ??= createRequire(import.meta.url)('undici') as typeof Undici;
  return loaded;
}
