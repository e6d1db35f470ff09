/**
 * `CredentialProviderConfig` (spec 2.1, 1.2, 5.4): validation of the file, which providers an image
 * selects (in list order, through matchImages), and how their answers combine: "results are combined;
 * on overlapping auth keys the provider earlier in the list wins".
 *
 *   mergeProviderAuth([{provider: 'a', auth: {'r.io': A}}, {provider: 'b', auth: {'r.io': B, 'x.io': C}}])
 *     -> {'r.io': {from: 'a', credential: A}, 'x.io': {from: 'b', credential: C}}
 */
import type { Profile } from '../profile.ts';
import { DURATIONS_ROW, isRecord, scalarTypeError } from './config-types.ts';
import { parseGoDuration } from './duration.ts';
import { matchesAny, globOnlyInPath, validatePattern, type MatchDecision } from './match-images.ts';
import { checkTypeMeta, type FieldError, type ValidationResult } from './config.ts';
import type { ClauseId } from '../catalog/clause-ids.ts';

export const CREDENTIAL_PROVIDER_KIND = 'CredentialProviderConfig';

/** `skip`: rule ids left out by the reference loader's planted faults only (`cp:patterns`, `cp:path-globs`, `cp:name`, `cp:cache-duration`). */
export function validateCredentialProviderConfig(
  doc: unknown,
  profile: Profile,
  opts: { skip?: ReadonlySet<string> } = {},
): ValidationResult {
  const skip = opts.skip ?? new Set<string>();
  const errors: FieldError[] = [];
  const unspecified: FieldError[] = [];
  if (!isRecord(doc))
    return { errors: [{ field: '', clause: 'node:2.1/kind', message: 'the document is not a map of fields' }], unspecified };
  errors.push(...checkTypeMeta(doc, profile, CREDENTIAL_PROVIDER_KIND, 'node:2.1/kind'));
  for (const k of Object.keys(doc)) {
    if (!['apiVersion', 'kind', 'providers'].includes(k))
      unspecified.push({
        field: k,
        clause: 'node:2.1/kind',
        message: `unknown field ${k}: the spec does not say whether unknown fields are refused`,
      });
  }
  const providers = doc.providers;
  if (providers === undefined || providers === null) {
    errors.push({ field: 'providers', clause: 'node:2.1/providers', message: 'providers is required' });
    return { errors, unspecified };
  }
  if (!Array.isArray(providers)) {
    errors.push({ field: 'providers', clause: 'node:2.1/providers', message: 'expected a list of CredentialProvider' });
    return { errors, unspecified };
  }
  if (providers.length === 0)
    unspecified.push({
      field: 'providers',
      clause: 'node:2.1/providers',
      message: 'an empty list: required, but the spec does not say whether empty counts as given',
    });
  const found: ProviderFindings = { skip, errors, unspecified, names: new Set<string>() };
  providers.forEach((p, i) => {
    const at = `providers[${i}]`;
    if (!isRecord(p)) errors.push({ field: at, clause: 'node:2.1/providers', message: 'expected a CredentialProvider map' });
    else checkProvider(p, at, found);
  });
  return { errors, unspecified };
}

/** Where each provider's findings go, and the names the providers before it took. */
interface ProviderFindings {
  readonly skip: ReadonlySet<string>;
  readonly errors: FieldError[];
  readonly unspecified: FieldError[];
  readonly names: Set<string>;
}

/** One CredentialProvider of the list, at `at` (`providers[2]`), its fields in the order the spec lists them. */
function checkProvider(p: Record<string, unknown>, at: string, found: ProviderFindings): void {
  const { skip, errors, unspecified, names } = found;
  const need = (key: string, clause: ClauseId): unknown => {
    const v = p[key];
    if (v === undefined || v === null) errors.push({ field: `${at}.${key}`, clause, message: `${key} is required` });
    return v;
  };
  const str = (key: string, clause: ClauseId) => {
    const v = need(key, clause);
    if (v === undefined || v === null) return undefined;
    const e = scalarTypeError('string', v);
    if (e) errors.push({ field: `${at}.${key}`, clause, message: e });
    else if (v === '') errors.push({ field: `${at}.${key}`, clause, message: `${key} is required and empty` });
    return e ? undefined : (v as string);
  };
  const name = skip.has('cp:name') ? (typeof p.name === 'string' ? p.name : undefined) : str('name', 'node:2.1/name');
  if (name !== undefined) {
    if (name.includes('/'))
      unspecified.push({
        field: `${at}.name`,
        clause: 'node:2.1/name',
        message:
          'a name with a path separator cannot equal an executable name in the bin directory; the spec does not say the file is refused',
      });
    if (names.has(name))
      unspecified.push({ field: `${at}.name`, clause: 'node:2.1/name', message: `duplicate provider name ${name}: not ruled on` });
    names.add(name);
  }
  const api = str('apiVersion', 'node:2.1/apiVersion');
  if (api)
    unspecified.push({
      field: `${at}.apiVersion`,
      clause: 'node:2.5/provider-apiVersion',
      message: `supported exec apiVersions are not shown (${api})`,
    });
  checkMatchImages(need('matchImages', 'node:2.1/matchImages'), at, found);
  const dcd = skip.has('cp:cache-duration') ? p.defaultCacheDuration : need('defaultCacheDuration', 'node:2.1/defaultCacheDuration');
  if (dcd !== undefined && dcd !== null) {
    const e = scalarTypeError('duration', dcd);
    // A number or a bool breaks section 2's row (durations are written as strings); a string that is no duration, the field's own.
    if (e)
      errors.push({
        field: `${at}.defaultCacheDuration`,
        clause: typeof dcd === 'string' ? 'node:2.1/defaultCacheDuration' : DURATIONS_ROW,
        message: e,
      });
    else if ((parseGoDuration(dcd as string) as { nanos: bigint }).nanos < 0n)
      unspecified.push({
        field: `${at}.defaultCacheDuration`,
        clause: 'node:2.1/defaultCacheDuration',
        message: 'a negative cache duration is not ruled on',
      });
  }
  checkExecArgs(p.args, at, errors);
  checkExecEnv(p.env, at, errors);
  for (const k of Object.keys(p)) {
    if (!['name', 'matchImages', 'defaultCacheDuration', 'apiVersion', 'args', 'env'].includes(k))
      unspecified.push({ field: `${at}.${k}`, clause: 'node:2.1/providers', message: `unknown field ${k}` });
  }
}

/** `matchImages`: a non-empty list of image patterns (a loader under test may be excused the pattern rules, `skip`). */
function checkMatchImages(mi: unknown, at: string, { skip, errors }: ProviderFindings): void {
  if (mi === undefined || mi === null) return;
  if (!Array.isArray(mi)) {
    errors.push({ field: `${at}.matchImages`, clause: 'node:2.1/matchImages', message: 'expected a list of string' });
    return;
  }
  if (mi.length === 0)
    errors.push({ field: `${at}.matchImages`, clause: 'node:2.1/matchImages', message: 'matchImages is required and empty' });
  mi.forEach((pat, j) => {
    const e =
      scalarTypeError('string', pat) ??
      (skip.has('cp:patterns') || (skip.has('cp:path-globs') && globOnlyInPath(pat as string))
        ? undefined
        : validatePattern(pat as string));
    if (e) errors.push({ field: `${at}.matchImages[${j}]`, clause: 'node:2.1/matchImages', message: e });
  });
}

/** `args`: optional, a list of strings. */
function checkExecArgs(args: unknown, at: string, errors: FieldError[]): void {
  if (args === undefined || args === null) return;
  if (!Array.isArray(args)) {
    errors.push({ field: `${at}.args`, clause: 'node:2.1/args', message: 'expected a list of string' });
    return;
  }
  args.forEach((a, j) => {
    const e = scalarTypeError('string', a);
    if (e) errors.push({ field: `${at}.args[${j}]`, clause: 'node:2.1/args', message: e });
  });
}

/** `env`: optional, a list of ExecEnvVar, each with a string name and value. */
function checkExecEnv(env: unknown, at: string, errors: FieldError[]): void {
  if (env === undefined || env === null) return;
  if (!Array.isArray(env)) {
    errors.push({ field: `${at}.env`, clause: 'node:2.1/env', message: 'expected a list of ExecEnvVar' });
    return;
  }
  env.forEach((ev, j) => {
    const ep = `${at}.env[${j}]`;
    if (!isRecord(ev)) {
      errors.push({ field: ep, clause: 'node:2.1/env', message: 'expected an ExecEnvVar map' });
      return;
    }
    for (const k of ['name', 'value'] as const) {
      const v = ev[k];
      if (v === undefined || v === null) errors.push({ field: `${ep}.${k}`, clause: 'node:2.1/env', message: `${k} is required` });
      else {
        const e = scalarTypeError('string', v);
        if (e) errors.push({ field: `${ep}.${k}`, clause: 'node:2.1/env', message: e });
      }
    }
  });
}

export interface ProviderSelection {
  readonly provider: string;
  readonly decision: MatchDecision & { pattern?: string };
}

/** Providers the image selects, in list order (1.2: invoked only when matchImages matches). */
export function providersFor(providers: readonly { name: string; matchImages: readonly string[] }[], image: string): ProviderSelection[] {
  return providers.map((p) => ({ provider: p.name, decision: matchesAny(p.matchImages, image) }));
}

export interface ProviderAuth<C> {
  readonly provider: string;
  readonly auth: Readonly<Record<string, C>>;
}

/** Combine answers in provider-list order: an auth key already given by an earlier provider is kept. */
export function mergeProviderAuth<C>(answers: readonly ProviderAuth<C>[]): Record<string, { from: string; credential: C }> {
  const out: Record<string, { from: string; credential: C }> = Object.create(null) as Record<string, { from: string; credential: C }>;
  for (const a of answers) {
    for (const [key, credential] of Object.entries(a.auth)) {
      if (!Object.prototype.hasOwnProperty.call(out, key)) out[key] = { from: a.provider, credential };
    }
  }
  return out;
}
