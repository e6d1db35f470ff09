/**
 * The field-local rules of the node agent config table (config-fields.ts), as small rule makers: each
 * returns the issue a value raises, an error where the spec rules on it, unspecified where it does not.
 */
import { isIP } from 'node:net';
import { nanosOf } from './config-types.ts';
import { parseQuantity } from './quantity.ts';
import { insecureCipherSuites, preferredCipherSuites } from '../tls-names.ts';
import type { ClauseId } from '../catalog/clause-ids.ts';
import type { Issue } from './field-spec-types.ts';

export const err = (message: string, clause?: ClauseId): Issue => ({ level: 'error', message, clause });
export const open = (message: string, clause?: ClauseId): Issue => ({ level: 'unspecified', message, clause });

export function range(min: number, max: number, clause?: ClauseId): (v: unknown) => Issue | undefined {
  return (v) => ((v as number) < min || (v as number) > max ? err(`${v} is outside ${min}..${max}`, clause) : undefined);
}
export function atLeast(min: number, what: string, clause?: ClauseId): (v: unknown) => Issue | undefined {
  return (v) => ((v as number) < min ? err(`${v} is ${what}`, clause) : undefined);
}
/** A port: 1..65535, or 0 where 0 disables. */
export function port(zeroDisables: boolean, clause: ClauseId): (v: unknown) => Issue | undefined {
  return (v) =>
    (v === 0 && zeroDisables) || ((v as number) >= 1 && (v as number) <= 65535)
      ? undefined
      : err(`port ${v} is outside 1..65535${zeroDisables ? ' (0 disables)' : ''}`, clause);
}
export function oneOf(values: readonly string[]): (v: unknown) => Issue | undefined {
  return (v) =>
    values.includes(v as string) ? undefined : err(`${JSON.stringify(v)} is not one of ${values.map((x) => JSON.stringify(x)).join(', ')}`);
}
/** Values beyond the listed ones are not ruled on by the spec. */
export function known(values: readonly string[], why: string, clause?: ClauseId): (v: unknown) => Issue | undefined {
  return (v) => (values.includes(v as string) ? undefined : open(`${JSON.stringify(v)}: ${why}`, clause));
}
export const positiveDuration = (v: unknown): Issue | undefined =>
  nanosOf(v) > 0n ? undefined : open(`${v}: the spec does not say whether a zero or negative period is allowed`);
export const nonNegativeDuration = (v: unknown): Issue | undefined =>
  nanosOf(v) >= 0n ? undefined : open(`${v}: the spec does not say whether a negative duration is allowed`);
export const ip =
  (what: string) =>
  (v: unknown): Issue | undefined =>
    v === '' || isIP(v as string) !== 0
      ? undefined
      : open(`${JSON.stringify(v)} is not an IP address; the spec says "${what}" but not what else is refused`);
export const absoluteCgroup = (v: unknown): Issue | undefined =>
  v === '' || (v as string).startsWith('/')
    ? undefined
    : open(`${JSON.stringify(v)} is not absolute; the spec asks for an absolute cgroup name but does not say a relative one is refused`);
export const gap = (clause: ClauseId, what: string) => (): Issue => open(what, clause);
/**
 * Reserved amounts per resource, keys the spec names as supported. The spec types the values as plain
 * strings (2.2 "map string to string") and shows no format for them, unlike `containerLogMaxSize`
 * ("quantity string") or the eviction maps ("signal name to quantity"): a value that is not a quantity
 * is open, not an error (upstream parses them only at start-up, cmd/kubelet/app/server.go).
 */
export function resourceMap(supported: readonly string[]): (v: unknown) => Issue | undefined {
  return (v) => {
    for (const [k, q] of Object.entries(v as Record<string, string>)) {
      const parsed = parseQuantity(q);
      if (!parsed.ok)
        return open(`${k}: ${JSON.stringify(q)} is not a quantity; the spec shows no format for reserved amounts (map string to string)`);
    }
    const other = Object.keys(v as object).filter((k) => !supported.includes(k));
    return other.length > 0 ? open(`resource(s) ${other.join(', ')}: the spec names only ${supported.join(', ')} as supported`) : undefined;
  };
}

export const TLS_SUITES: readonly string[] = [...preferredCipherSuites, ...insecureCipherSuites];
