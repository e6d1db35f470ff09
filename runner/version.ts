import { readFileSync } from 'node:fs';

let cachedVersion: string | undefined;
/** The package's version, as the run's first line and the reports name it. */
export function version(): string {
  cachedVersion ??= (JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8')) as { version: string }).version;
  return cachedVersion;
}
