/**
 * Webhook configurations (Validating and Mutating, every served admissionregistration version, one
 * storage) validated and defaulted per the version they are written through (admission.ts calls them).
 */
import { namedGroup } from '../../reference/profile.ts';
import { isRecord } from '../../reference/objects.ts';
import { selectorFromObject } from '../../reference/label-selector.ts';
import type { ResourceType } from '../../reference/resources.ts';
import type { ServerState } from './state.ts';
import { invalid, type Answer } from './status.ts';

const CONFIG_PLURALS = new Set(['validatingwebhookconfigurations', 'mutatingwebhookconfigurations']);
export const V1_SIDE_EFFECTS = ['None', 'NoneOnDryRun'];
const V1BETA1_SIDE_EFFECTS = ['None', 'NoneOnDryRun', 'Some', 'Unknown'];
const REVIEW_VERSIONS = ['v1', 'v1beta1'];

export function isWebhookConfigType(st: ServerState, rt: ResourceType): boolean {
  return rt.group === namedGroup(st.profile, 'admissionregistration') && CONFIG_PLURALS.has(rt.plural);
}

export const strings = (v: unknown): string[] | undefined => (Array.isArray(v) && v.every((x) => typeof x === 'string') ? v : undefined);

/**
 * A webhook configuration as written through `rt`'s version: defaulted, or 422 with every error.
 *   v1, webhooks[0].sideEffects 'Unknown' -> 422 "webhooks[0].sideEffects: Unsupported value: "Unknown""
 */
export function admitConfiguration(st: ServerState, rt: ResourceType, body: unknown): { body: unknown } | Answer {
  if (!isWebhookConfigType(st, rt) || !isRecord(body)) return { body };
  const v1 = rt.version === 'v1';
  const raw = body['webhooks'] ?? [];
  if (!Array.isArray(raw)) return invalid('webhooks: Invalid value: must be a list');
  const errors: string[] = [];
  const names = new Set<string>();
  const webhooks = raw.map((w: unknown, i) => {
    const at = `webhooks[${i}]`;
    if (!isRecord(w)) {
      errors.push(`${at}: Invalid value: must be an object`);
      return w;
    }
    const out: Record<string, unknown> = { ...w };
    const name = w['name'];
    if (typeof name !== 'string' || name === '') errors.push(`${at}.name: Required value`);
    else if (name.split('.').length < 3)
      errors.push(`${at}.name: Invalid value: ${JSON.stringify(name)}: should be a domain with at least three segments separated by dots`);
    else if (v1 && names.has(name)) errors.push(`${at}.name: Duplicate value: ${JSON.stringify(name)}`);
    if (typeof name === 'string') names.add(name);
    if (w['sideEffects'] === undefined && !v1) out['sideEffects'] = 'Unknown';
    const se = out['sideEffects'];
    if (se === undefined) errors.push(`${at}.sideEffects: Required value: must specify one of None, NoneOnDryRun`);
    else if (!(v1 ? V1_SIDE_EFFECTS : V1BETA1_SIDE_EFFECTS).includes(String(se)))
      errors.push(
        `${at}.sideEffects: Unsupported value: ${JSON.stringify(se)}: supported values: ${(v1 ? V1_SIDE_EFFECTS : V1BETA1_SIDE_EFFECTS).map((x) => `"${x}"`).join(', ')}`,
      );
    if (w['admissionReviewVersions'] === undefined && !v1) out['admissionReviewVersions'] = ['v1beta1'];
    const arv = strings(out['admissionReviewVersions']);
    if (arv === undefined || arv.length === 0)
      errors.push(`${at}.admissionReviewVersions: Required value: must specify one of v1, v1beta1`);
    else if (!arv.some((x) => REVIEW_VERSIONS.includes(x)))
      errors.push(`${at}.admissionReviewVersions: Invalid value: must include at least one of v1, v1beta1`);
    out['failurePolicy'] ??= v1 ? 'Fail' : 'Ignore';
    if (!['Fail', 'Ignore'].includes(String(out['failurePolicy'])))
      errors.push(`${at}.failurePolicy: Unsupported value: ${JSON.stringify(out['failurePolicy'])}: supported values: "Fail", "Ignore"`);
    out['matchPolicy'] ??= v1 ? 'Equivalent' : 'Exact';
    out['timeoutSeconds'] ??= v1 ? 10 : 30;
    const t = out['timeoutSeconds'];
    if (typeof t !== 'number' || !Number.isInteger(t) || t < 1 || t > 30)
      errors.push(`${at}.timeoutSeconds: Invalid value: ${JSON.stringify(t)}: the timeout value must be between 1 and 30 seconds`);
    out['namespaceSelector'] ??= {};
    out['objectSelector'] ??= {};
    for (const sel of ['namespaceSelector', 'objectSelector'] as const) {
      const s = selectorFromObject(out[sel]);
      if (typeof s === 'string') errors.push(`${at}.${sel}: Invalid value: ${s}`);
    }
    clientConfigErrors(w['clientConfig'], at, errors);
    const rules = w['rules'] ?? [];
    if (!Array.isArray(rules)) errors.push(`${at}.rules: Invalid value: must be a list`);
    else out['rules'] = defaultedRules(rules, at, errors);
    return out;
  });
  if (errors.length > 0)
    return invalid(
      `${rt.kind}.${rt.group} ${JSON.stringify(isRecord(body['metadata']) ? body['metadata']['name'] : '')} is invalid: ${errors.join('; ')}`,
    );
  return { body: { ...body, webhooks } };
}

/** The errors of a webhook's clientConfig: exactly one of an https `url` or a `service`. */
function clientConfigErrors(cc: unknown, at: string, errors: string[]): void {
  if (!isRecord(cc)) errors.push(`${at}.clientConfig: Required value`);
  else {
    const hasUrl = cc['url'] !== undefined;
    const hasService = cc['service'] !== undefined;
    if (hasUrl === hasService) errors.push(`${at}.clientConfig: Required value: exactly one of url or service is required`);
    if (hasUrl) {
      let u: URL | undefined;
      try {
        u = new URL(String(cc['url']));
      } catch {
        errors.push(`${at}.clientConfig.url: Invalid value: ${JSON.stringify(cc['url'])}: not a URL`);
      }
      if (u !== undefined && u.protocol !== 'https:')
        errors.push(`${at}.clientConfig.url: Invalid value: ${JSON.stringify(cc['url'])}: 'https' is the only allowed URL scheme`);
    }
  }
}

/** A webhook's rules with `scope` defaulted to `*`; the errors of each rule pushed to `errors`. */
function defaultedRules(rules: unknown[], at: string, errors: string[]): unknown[] {
  return rules.map((r: unknown, j) => {
    if (!isRecord(r)) {
      errors.push(`${at}.rules[${j}]: Invalid value: must be an object`);
      return r;
    }
    for (const f of ['operations', 'apiGroups', 'apiVersions', 'resources'])
      if (strings(r[f]) === undefined || strings(r[f])!.length === 0) errors.push(`${at}.rules[${j}].${f}: Required value`);
    const scope = r['scope'] ?? '*';
    if (!['*', 'Cluster', 'Namespaced'].includes(String(scope)))
      errors.push(`${at}.rules[${j}].scope: Unsupported value: ${JSON.stringify(scope)}`);
    return { ...r, scope };
  });
}
