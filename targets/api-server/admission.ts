/**
 * Mutating and validating admission webhooks (rest:4.6.2 admission runs under dry-run, rest:4.6.3 and rest:7.3 a
 * side-effecting step makes a dry-run fail, the rest:9.4 admissionregistration row).
 *
 * - Configurations (Validating and Mutating, every served admissionregistration version, one storage)
 *   are validated and defaulted (webhook-config.ts) per the version they are written through: v1 requires `sideEffects`
 *   (None or NoneOnDryRun only) and `admissionReviewVersions`, defaults failurePolicy Fail and
 *   timeoutSeconds 10; v1beta1 also allows Some and Unknown, defaults sideEffects Unknown,
 *   failurePolicy Ignore, timeoutSeconds 30 (the 9.4 row's notes). Only POST and PUT are validated.
 * - On a create, update (PUT or PATCH) or delete of an object (not a subresource, not a collection
 *   delete, not a webhook configuration), every validating webhook whose rules, namespaceSelector and
 *   objectSelector match is called over HTTPS (`clientConfig.url`, the CA from `caBundle`) with an
 *   AdmissionReview of the admission group's v1 (v1beta1 when the webhook accepts only that). The
 *   object it sees is the one the write would store: the write is first run on a view of the store
 *   that drops writes (a generated name therefore differs from the stored one).
 * - A dry-run that matches a webhook with sideEffects Some or Unknown fails with 400 and calls
 *   nothing; None and NoneOnDryRun webhooks are called with dryRun true.
 * - Mutating webhooks run first, as upstream's: one after another (configurations by name, webhooks in
 *   their order), each matched and shown the object as the ones before it left it; an allowed answer
 *   may carry `patchType: JSONPatch` and a base64 `patch` (RFC 6902), applied to the object. A patch
 *   that does not decode or apply is a 500 whatever failurePolicy says (upstream: NewInternalError);
 *   another patchType is a failed call (failurePolicy decides). A patch on a DELETE is a 500 (upstream:
 *   "attempted to modify the object, which is not supported for this operation"). The validating
 *   webhooks then see the mutated object, and the write stores it (server.ts). reinvocationPolicy is
 *   stored but ignored: no webhook is called twice.
 * - `clientConfig.service` is stored but cannot be called (no service network): the call fails and
 *   failurePolicy decides.
 */
import { randomUUID } from 'node:crypto';
import { request as httpsRequest } from 'node:https';
import { namedGroup } from '../../reference/profile.ts';
import { isRecord } from '../../reference/objects.ts';
import { matchesLabels, selectorFromObject } from '../../reference/label-selector.ts';
import { resourceTypes, type ResourceType } from '../../reference/resources.ts';
import type { UserInfo } from '../../reference/rbac.ts';
import { has, type ServerState } from './state.ts';
import type { StoredObject, VersionedStore } from './store.ts';
import { badRequest, statusAnswer, type Answer } from './status.ts';
import { keyFor } from './reads.ts';
import { jsonPatch } from '../../reference/apply/json-patch.ts';
import { V1_SIDE_EFFECTS, isWebhookConfigType, strings } from './webhook-config.ts';

export type Operation = 'CREATE' | 'UPDATE' | 'DELETE';

// ---------------------------------------------------------------------------------------------------
// Calling them.

interface Webhook {
  readonly name: string;
  readonly raw: Record<string, unknown>;
}

const labelsOf = (o: unknown): Record<string, string> => {
  const md = isRecord(o) && isRecord(o['metadata']) ? o['metadata'] : {};
  return isRecord(md['labels']) ? (md['labels'] as Record<string, string>) : {};
};

function ruleMatches(rule: unknown, op: Operation, rt: ResourceType): boolean {
  if (!isRecord(rule)) return false;
  const inList = (f: string, v: string) => (strings(rule[f]) ?? []).some((x) => x === '*' || x === v || (f === 'resources' && x === '*/*'));
  const scope = String(rule['scope'] ?? '*');
  return (
    inList('operations', op) &&
    inList('apiGroups', rt.group) &&
    inList('apiVersions', rt.version) &&
    inList('resources', rt.plural) &&
    (scope === '*' || (scope === 'Namespaced') === rt.namespaced)
  );
}

/**
 * The validating (or mutating) webhooks whose rules name this operation on this type (selectors come
 * later), configurations in name order.
 */
export function webhooksFor(st: ServerState, op: Operation, rt: ResourceType, kind: 'validating' | 'mutating' = 'validating'): Webhook[] {
  if (isWebhookConfigType(st, rt)) return [];
  const out: Webhook[] = [];
  for (const { obj } of st.store.list(`${kind}webhookconfigurations/`)) {
    for (const w of Array.isArray(obj['webhooks']) ? obj['webhooks'] : []) {
      if (isRecord(w) && Array.isArray(w['rules']) && w['rules'].some((r) => ruleMatches(r, op, rt)))
        out.push({ name: String(w['name']), raw: w });
    }
  }
  return out;
}

export interface AdmissionAttributes {
  readonly operation: Operation;
  readonly rt: ResourceType;
  readonly namespace: string | undefined;
  readonly name: string;
  readonly object: unknown;
  readonly oldObject: unknown;
  readonly dryRun: boolean;
  readonly user: UserInfo;
}

function selected(st: ServerState, w: Webhook, a: AdmissionAttributes): boolean {
  const objSel = selectorFromObject(w.raw['objectSelector']);
  if (typeof objSel === 'string') return false;
  const objectMatches = [a.object, a.oldObject].some((o) => isRecord(o) && matchesLabels(objSel, labelsOf(o)));
  if (!objectMatches) return false;
  const nsSel = selectorFromObject(w.raw['namespaceSelector']);
  if (typeof nsSel === 'string') return false;
  const namespaces = resourceTypes(st.profile).namespaces;
  // A namespace is matched by its own labels; other cluster-scoped objects by any namespaceSelector.
  if (a.rt.group === '' && a.rt.plural === namespaces.plural) return matchesLabels(nsSel, labelsOf(a.object ?? a.oldObject));
  if (!a.rt.namespaced || a.namespace === undefined) return true;
  return matchesLabels(nsSel, labelsOf(st.store.get(keyFor(namespaces, undefined, a.namespace))));
}

type CallResult =
  | { readonly allowed: true; readonly patch?: unknown; readonly patchError?: string }
  | { readonly allowed: false; readonly code: number; readonly reason: string; readonly message: string }
  | { readonly error: string };

function call(w: Webhook, review: Record<string, unknown>, uid: string): Promise<CallResult> {
  const cc = isRecord(w.raw['clientConfig']) ? w.raw['clientConfig'] : {};
  if (cc['url'] === undefined)
    return Promise.resolve({
      error: 'clientConfig.service is not supported by the reference server (it has no service network): use clientConfig.url',
    });
  const timeoutMs = 1000 * (typeof w.raw['timeoutSeconds'] === 'number' ? w.raw['timeoutSeconds'] : 10);
  const ca =
    typeof cc['caBundle'] === 'string' && cc['caBundle'] !== '' ? Buffer.from(cc['caBundle'], 'base64').toString('utf8') : undefined;
  const payload = Buffer.from(JSON.stringify(review));
  return new Promise<CallResult>((resolve) => {
    const req = httpsRequest(
      String(cc['url']),
      {
        method: 'POST',
        ca,
        timeout: timeoutMs,
        headers: { 'content-type': 'application/json', accept: 'application/json', 'content-length': payload.length },
      },
      (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (c: Buffer) => chunks.push(c));
        res.on('error', (e) => resolve({ error: e.message }));
        res.on('end', () => {
          if ((res.statusCode ?? 0) < 200 || (res.statusCode ?? 0) >= 300)
            return resolve({ error: `the webhook answered HTTP ${res.statusCode}` });
          let parsed: unknown;
          try {
            parsed = JSON.parse(Buffer.concat(chunks).toString('utf8'));
          } catch {
            return resolve({ error: 'the webhook answered no JSON' });
          }
          const response = isRecord(parsed) && isRecord(parsed['response']) ? parsed['response'] : undefined;
          if (response === undefined || typeof response['allowed'] !== 'boolean')
            return resolve({ error: 'the webhook answered no AdmissionReview response with allowed' });
          if (response['uid'] !== uid)
            return resolve({ error: `the webhook answered uid ${JSON.stringify(response['uid'])} for request ${uid}` });
          if (response['allowed']) {
            if (response['patch'] === undefined || response['patch'] === null || response['patch'] === '')
              return resolve({ allowed: true });
            if (response['patchType'] !== 'JSONPatch')
              return resolve({
                error:
                  response['patchType'] === undefined
                    ? 'webhook returned response.patch but not response.patchType'
                    : `unsupported patch type ${JSON.stringify(response['patchType'])}`,
              });
            try {
              return resolve({ allowed: true, patch: JSON.parse(Buffer.from(String(response['patch']), 'base64').toString('utf8')) });
            } catch (e) {
              return resolve({ allowed: true, patchError: `the patch is no JSON: ${(e as Error).message}` });
            }
          }
          const status = isRecord(response['status']) ? response['status'] : {};
          const code = typeof status['code'] === 'number' && status['code'] >= 400 ? status['code'] : 403;
          resolve({
            allowed: false,
            code,
            reason: typeof status['reason'] === 'string' && status['reason'] !== '' ? status['reason'] : 'Forbidden',
            message: typeof status['message'] === 'string' ? status['message'] : '',
          });
        });
      },
    );
    req.on('timeout', () => req.destroy(new Error(`timed out after ${timeoutMs} ms`)));
    req.on('error', (e) => resolve({ error: e.message }));
    req.end(payload);
  });
}

function reviewOf(st: ServerState, w: Webhook, a: AdmissionAttributes, uid: string): Record<string, unknown> {
  const accepted = strings(w.raw['admissionReviewVersions']) ?? ['v1'];
  const version = accepted.includes('v1') ? 'v1' : 'v1beta1';
  const gvk = { group: a.rt.group, version: a.rt.version, kind: a.rt.kind };
  const gvr = { group: a.rt.group, version: a.rt.version, resource: a.rt.plural };
  return {
    apiVersion: `${namedGroup(st.profile, 'admission')}/${version}`,
    kind: 'AdmissionReview',
    request: {
      uid,
      kind: gvk,
      resource: gvr,
      requestKind: gvk,
      requestResource: gvr,
      name: a.name,
      namespace: a.namespace,
      operation: a.operation,
      userInfo: { username: a.user.user, groups: [...a.user.groups] },
      object: a.operation === 'DELETE' ? null : (a.object ?? null),
      oldObject: a.operation === 'CREATE' ? null : (a.oldObject ?? null),
      dryRun: a.dryRun,
      options: null,
    },
  };
}

/**
 * Calls the matching validating webhooks; undefined when every one allowed the request (or failed
 * under failurePolicy Ignore), else the refusal. A dry-run matching a side-effecting webhook is refused
 * with 400 before anything is called.
 */
export async function admit(st: ServerState, hooks: readonly Webhook[], a: AdmissionAttributes): Promise<Answer | undefined> {
  // Planted fault dry-run-skips-admission: the dry-run branch forgot the webhooks.
  if (a.dryRun && has(st, 'dry-run-skips-admission')) return undefined;
  const relevant = hooks.filter((w) => selected(st, w, a));
  if (a.dryRun && !has(st, 'dry-run-calls-side-effecting-webhook')) {
    const unsafe = relevant.find((w) => !V1_SIDE_EFFECTS.includes(String(w.raw['sideEffects'])));
    if (unsafe) return badRequest(`admission webhook "${unsafe.name}" does not support dry run`);
  }
  const results = await Promise.all(
    relevant.map(async (w) => {
      const uid = randomUUID();
      return { w, r: await call(w, reviewOf(st, w, a, uid), uid) };
    }),
  );
  for (const { w, r } of results) {
    if ('error' in r) {
      if (w.raw['failurePolicy'] === 'Ignore') continue;
      return statusAnswer(500, 'InternalError', `Internal error occurred: failed calling webhook "${w.name}": ${r.error}`);
    }
    if (!r.allowed)
      return statusAnswer(r.code, r.reason, `admission webhook "${w.name}" denied the request${r.message ? `: ${r.message}` : ''}`);
  }
  return undefined;
}

/** What the mutating webhooks made of the object: it, and the JSON patches applied to it in order. */
export interface Mutation {
  readonly object: unknown;
  readonly patches: readonly unknown[];
}

/**
 * Calls the matching mutating webhooks one after another, each on the object as the previous left it;
 * the mutated object and its patches, else the refusal or error answer. Dry-run rules as admit's.
 *   a webhook answering allowed, patchType JSONPatch, patch base64([{op:'add',path:'/metadata/labels/m',value:'x'}])
 *     -> { object: <with label m=x>, patches: [[...]] }
 *   ... patch [{op:'remove',path:'/spec/absent'}] -> 500 InternalError (failurePolicy Ignore or not)
 */
export async function mutate(st: ServerState, hooks: readonly Webhook[], a: AdmissionAttributes): Promise<Mutation | Answer> {
  // Planted fault dry-run-skips-mutation: the dry-run branch forgot the mutating webhooks.
  if (a.dryRun && has(st, 'dry-run-skips-mutation')) return { object: a.object, patches: [] };
  let object = a.object;
  const patches: unknown[] = [];
  for (const w of hooks) {
    const now = { ...a, object };
    if (!selected(st, w, now)) continue;
    if (a.dryRun && !has(st, 'dry-run-calls-side-effecting-webhook') && !V1_SIDE_EFFECTS.includes(String(w.raw['sideEffects'])))
      return badRequest(`admission webhook "${w.name}" does not support dry run`);
    const uid = randomUUID();
    const r = await call(w, reviewOf(st, w, now, uid), uid);
    if ('error' in r) {
      if (w.raw['failurePolicy'] === 'Ignore') continue;
      return statusAnswer(500, 'InternalError', `Internal error occurred: failed calling webhook "${w.name}": ${r.error}`);
    }
    if (!r.allowed)
      return statusAnswer(r.code, r.reason, `admission webhook "${w.name}" denied the request${r.message ? `: ${r.message}` : ''}`);
    if (r.patchError !== undefined) return statusAnswer(500, 'InternalError', `Internal error occurred: ${r.patchError}`);
    if (r.patch === undefined) continue;
    if (a.operation === 'DELETE' || object === undefined)
      return statusAnswer(
        500,
        'InternalError',
        `Internal error occurred: admission webhook "${w.name}" attempted to modify the object, which is not supported for this operation`,
      );
    const applied = jsonPatch(object, r.patch);
    if (!applied.ok)
      return statusAnswer(
        500,
        'InternalError',
        `Internal error occurred: admission webhook "${w.name}" answered a patch that does not apply: ${applied.error}`,
      );
    object = applied.value;
    patches.push(r.patch);
  }
  return { object, patches };
}

/**
 * The server state with a store view that applies the mutating webhooks' patches to the object the
 * real write stores (the first object written under the type and namespace): the write's answer is
 * built from that same object, so it carries the mutation too. Applied in place, since the writer
 * presents the object it handed to the store. A patch that applied to the reviewed object but not to
 * the stored one (a `test` on a generated field) throws: a 500.
 */
export function withMutation(st: ServerState, rt: ResourceType, namespace: string | undefined, patches: readonly unknown[]): ServerState {
  if (patches.length === 0) return st;
  const prefix = `${rt.plural}/${namespace ?? ''}/`;
  let done = false;
  const write = (key: string, obj: StoredObject | null, nowMs: number): number => {
    if (!done && obj !== null && key.startsWith(prefix)) {
      done = true;
      let value: unknown = obj;
      for (const p of patches) {
        const r = jsonPatch(value, p);
        if (!r.ok) throw new Error(`Internal error occurred: a mutating webhook's patch does not apply to the stored object: ${r.error}`);
        value = r.value;
      }
      if (!isRecord(value) || !isRecord(value['metadata']))
        throw new Error("Internal error occurred: a mutating webhook's patch removed the object's metadata");
      for (const k of Object.keys(obj)) delete obj[k];
      Object.assign(obj, value);
    }
    return st.store.write(key, obj, nowMs);
  };
  const store: VersionedStore = Object.create(st.store, { write: { value: write } });
  return { ...st, store };
}
