/**
 * `--runtime-config` (rest:9.1.3): a comma-separated list of `<key>[=<value>]`; a missing value means
 * `true`. Keys take three forms: `<group>/<version>=false`, `<group>/<version>`,
 * `<group>/<version>/<resource>`. The core group is written `api/v1` (its path prefix), as upstream does.
 *
 *   parseRuntimeConfig('batch/v1beta1=false,policy/v1beta1/poddisruptionbudgets')
 *     -> entries [{ group: 'batch', version: 'v1beta1', enabled: false },
 *                 { group: 'policy', version: 'v1beta1', resource: 'poddisruptionbudgets', enabled: true }]
 */
export interface RuntimeConfigEntry {
  readonly group: string;
  readonly version: string;
  readonly resource?: string;
  readonly enabled: boolean;
}

export type RuntimeConfigResult =
  | { readonly ok: true; readonly entries: readonly RuntimeConfigEntry[] }
  | { readonly ok: false; readonly errors: readonly string[] };

const SEGMENT = /^[a-z0-9]([-a-z0-9.]*[a-z0-9])?$/;

export function parseRuntimeConfig(text: string): RuntimeConfigResult {
  const entries: RuntimeConfigEntry[] = [];
  const errors: string[] = [];
  if (text.trim() === '') return { ok: true, entries };
  text.split(',').forEach((item, i) => {
    const at = `item ${i + 1} (${JSON.stringify(item)})`;
    const eq = item.indexOf('=');
    const key = (eq < 0 ? item : item.slice(0, eq)).trim();
    const value = eq < 0 ? 'true' : item.slice(eq + 1).trim();
    if (value !== 'true' && value !== 'false') {
      errors.push(`${at}: value must be true or false`);
      return;
    }
    const segs = key.split('/');
    if (segs.length < 2 || segs.length > 3) {
      errors.push(`${at}: key must be <group>/<version> or <group>/<version>/<resource>`);
      return;
    }
    const bad = segs.find((s) => !SEGMENT.test(s));
    if (bad !== undefined) {
      errors.push(`${at}: ${JSON.stringify(bad)} is not a valid group, version or resource name`);
      return;
    }
    const group = segs[0] === 'api' ? '' : segs[0]!;
    entries.push({ group, version: segs[1]!, resource: segs[2], enabled: value === 'true' });
  });
  return errors.length > 0 ? { ok: false, errors } : { ok: true, entries };
}

/**
 * Is `group/version` `resource` enabled, given what is served by default? The last entry naming the
 * resource itself wins over entries naming only its group version, and among equals the later wins.
 */
export function runtimeConfigDecision(
  entries: readonly RuntimeConfigEntry[],
  group: string,
  version: string,
  resource: string,
  byDefault: boolean,
): boolean {
  let decision = byDefault;
  for (const e of entries) if (e.group === group && e.version === version && e.resource === undefined) decision = e.enabled;
  for (const e of entries) if (e.group === group && e.version === version && e.resource === resource) decision = e.enabled;
  return decision;
}

/** Is any resource of the group version enabled? (for discovery of the group version itself) */
export function groupVersionEnabled(
  entries: readonly RuntimeConfigEntry[],
  group: string,
  version: string,
  resources: readonly string[],
  byDefault: boolean,
): boolean {
  return resources.some((r) => runtimeConfigDecision(entries, group, version, r, byDefault));
}
