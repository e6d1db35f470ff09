/**
 * rest:4.6.2, rest:4.6.3, rest:7.3: dry-run meets admission webhooks. The suite hosts a validating
 * webhook on loopback (harness/interpreters/admission-webhook.ts) and registers ValidatingWebhookConfigurations
 * labelled as the run's, each scoped so it can only match this case's objects (namespaceSelector on
 * the run label of the run's namespaces AND objectSelector on the case label and a label of its own),
 * with failurePolicy Ignore. They are deleted when the case ends; the run cleanup deletes them again
 * (the safety guard recorded their creation).
 *
 * - Case A (sideEffects None): in force once a real create of a deny-labelled object is refused by it;
 *   then dry-runs of an allowed and a denied object (reference/dry-run-admission.ts judgeNoneWebhook).
 * - Case M (a MutatingWebhookConfiguration, sideEffects None, scoped the same way): the webhook adds
 *   MUTATION_LABEL with a value picked per case; in force once a real create reaches it, the stored
 *   object read back, then a dry-run create must answer the object with the mutation, reviewed with
 *   dryRun true, stored nowhere (judgeMutatingWebhook).
 * - Case B (sideEffects Unknown, Some): declared through every admissionregistration version the
 *   target's discovery lists; the first accepted is shown reachable by a real create, then a dry-run
 *   it matches must fail without reaching it (judgeSideEffectingWebhook).
 *
 * The webhook listens on 127.0.0.1: only a target on loopback (the embedded server, envtest) can
 * call it; any other target records every clause inconclusive with the reason.
 */
import { judgeMutatingWebhook, judgeNoneWebhook, judgeSideEffectingWebhook, webhookOutOfReach } from '../../harness/case/index.ts';
import fc from 'fast-check';
import type { Check } from '../../harness/case/index.ts';
import { eventualWindowOf } from '../../harness/case/index.ts';
import { CASE_LABEL, type CaseContext } from '../../harness/case/index.ts';
import type { TargetRequest } from '../../harness/transport/index.ts';
import { namespaceOf } from '../../harness/interpreters/index.ts';
import { startAdmissionWebhook, type AdmissionWebhook } from '../../harness/interpreters/index.ts';
import { isLoopbackHost } from '../../reference/authz.ts';
import {
  ADMISSION_CLAUSES,
  admissionGroup,
  DENY_LABEL,
  MUTATION_LABEL,
  servedPastWebhookTimeout,
  WEBHOOK_LABEL,
  webhookConfiguration,
  type DeclarationAttempt,
  type DryRunAttempt,
  type MutatingDryRun,
  type Premise,
  type SideEffectObservation,
} from '../../reference/dry-run-admission.ts';
import { collectionPath, objectPath, resourceTypes } from '../../reference/resources.ts';

const ok = (s: number) => s >= 200 && s < 300;

interface Scope {
  readonly cx: CaseContext;
  readonly hook: AdmissionWebhook;
  readonly ns: string;
  /** Paths of the configurations this case created, deleted when it ends. */
  readonly configs: string[];
}

function configMap(s: Scope, name: string, which: string, deny: boolean): Record<string, unknown> {
  const labels = { ...s.cx.ownLabels, [WEBHOOK_LABEL]: which, ...(deny ? { [DENY_LABEL]: 'yes' } : {}) };
  return { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name, namespace: s.ns, labels }, data: { k: 'v' } };
}

/** Registers one configuration through `version`; its path is kept for deletion when accepted. */
async function register(
  s: Scope,
  version: string,
  which: string,
  sideEffects: 'None' | 'Some' | 'Unknown',
  kind: 'Validating' | 'Mutating' = 'Validating',
): Promise<number> {
  const profile = s.cx.env.profile;
  const name = `svc-conformance-${s.cx.caseId}-${which}`.toLowerCase();
  const body = webhookConfiguration(profile, version, {
    name,
    labels: { [profile.runLabel]: s.cx.env.runId },
    url: s.hook.url(which),
    caBundle: s.hook.caBundle,
    sideEffects,
    namespaceLabels: { [profile.runLabel]: s.cx.env.runId },
    objectLabels: { [profile.runLabel]: s.cx.env.runId, [CASE_LABEL]: s.cx.caseId, [WEBHOOK_LABEL]: which },
    resource: 'configmaps',
    kind,
  });
  const path = `/apis/${admissionGroup(profile)}/${version}/${kind.toLowerCase()}webhookconfigurations`;
  const r = await s.cx.send({ method: 'POST', path, body });
  if (ok(r.status)) s.configs.push(`${path}/${encodeURIComponent(name)}`);
  return r.status;
}

const reviewsOf = (s: Scope, which: string, name: string) => s.hook.reviews().filter((r) => r.hook === which && r.name === name);

/** The labels of an answered object (undefined: the answer holds none). */
function labelsOf(json: unknown): Record<string, string> | undefined {
  const md = (json as { metadata?: { labels?: unknown } } | undefined)?.metadata;
  if (md === undefined || md === null || typeof md !== 'object') return undefined;
  const l = md.labels;
  return l !== null && typeof l === 'object' && !Array.isArray(l) ? (l as Record<string, string>) : {};
}

/** A dry-run create of `name`, then a read: answered (with the answer's labels), reviews seen, stored. */
async function dryCreate(s: Scope, name: string, which: string, deny: boolean): Promise<MutatingDryRun> {
  const cms = resourceTypes(s.cx.env.profile).configmaps;
  const req: TargetRequest = {
    method: 'POST',
    path: collectionPath(cms, s.ns),
    query: [['dryRun', 'All']],
    body: configMap(s, name, which, deny),
  };
  const sent = s.cx.env.now();
  const r = await s.cx.send(req);
  const tookMs = s.cx.env.now() - sent;
  const back = await s.cx.send({ method: 'GET', path: objectPath(cms, name, s.ns) });
  return {
    status: r.status,
    seen: reviewsOf(s, which, name).map((x) => x.dryRun),
    persisted: back.status === 200,
    labels: ok(r.status) ? labelsOf(r.json) : undefined,
    tookMs,
  };
}

/**
 * A dry-run create, again (a new name each time, at most three in all) while it was served so late
 * that the target may have given up on the webhook: on a loaded machine one call can outlast the
 * configuration's timeout, and that attempt shows nothing (servedPastWebhookTimeout).
 */
async function dryCreateInTime(
  s: Scope,
  name: string,
  which: string,
  deny: boolean,
  shown: (d: MutatingDryRun) => boolean = () => false,
): Promise<MutatingDryRun> {
  let d = await dryCreate(s, name, which, deny);
  for (let i = 2; i <= 3 && servedPastWebhookTimeout(d) && !d.persisted && !shown(d); i++)
    d = await dryCreate(s, `${name}-${i}`, which, deny);
  return d;
}

/**
 * Real creates until one shows the webhook in force and reachable (`deny`: refused by it; else:
 * reviewed by it), within the eventual window: a configuration takes effect eventually upstream
 * (its informer). A probe served before that is deleted again.
 */
async function inForce(s: Scope, which: string, deny: boolean): Promise<Premise & { status?: number; name?: string }> {
  const cx = s.cx;
  const cms = resourceTypes(cx.env.profile).configmaps;
  const windowMs = eventualWindowOf(cx.env);
  const deadline = cx.env.now() + windowMs;
  let last = 'nothing sent';
  for (let i = 0, wait = 50; i === 0 || cx.env.now() < deadline; i++, wait = Math.min(wait * 2, 1000)) {
    const name = `probe-${which}-${i}`;
    const r = await cx.send({ method: 'POST', path: collectionPath(cms, s.ns), body: configMap(s, name, which, deny) });
    const seen = reviewsOf(s, which, name);
    if (seen.length > 0 && (!deny || !ok(r.status)))
      return {
        shown: true,
        observed: `a real create ${deny ? 'it denies was refused with' : 'reached it and answered'} ${r.status} after ${i + 1} attempt(s)`,
        status: r.status,
        name,
      };
    last = `the last real create answered ${r.status}; the webhook got ${seen.length} review(s) for it`;
    if (ok(r.status)) await cx.send({ method: 'DELETE', path: objectPath(cms, name, s.ns) });
    await cx.env.sleep(wait);
  }
  const total = s.hook.reviews().length;
  return {
    shown: false,
    observed: `within ${windowMs} ms no real create reached the webhook (${last}; ${total} review(s) received in all): the target cannot reach 127.0.0.1 or never put the configuration in force; nothing is shown either way`,
  };
}

async function caseA(s: Scope, version: string): Promise<void> {
  const status = await register(s, version, 'a', 'None');
  if (!ok(status)) {
    s.cx.judge(
      judgeNoneWebhook({
        premise: { shown: false, observed: `registering a webhook with sideEffects None through ${version} answered ${status}` },
      }),
    );
    return;
  }
  const premise = await inForce(s, 'a', true);
  if (!premise.shown) {
    s.cx.judge(judgeNoneWebhook({ premise }));
    return;
  }
  const allowed = await dryCreate(s, 'dry-allowed', 'a', false);
  const denied = await dryCreateInTime(s, 'dry-denied', 'a', true);
  s.cx.judge(judgeNoneWebhook({ premise, realDenied: premise.status, allowed, denied }), { reviews: s.hook.reviews() });
}

async function caseM(s: Scope, version: string, value: string): Promise<void> {
  const mark = [MUTATION_LABEL, value] as const;
  s.hook.mutate('m', { [MUTATION_LABEL]: value });
  const status = await register(s, version, 'm', 'None', 'Mutating');
  if (!ok(status)) {
    s.cx.judge(
      judgeMutatingWebhook({
        premise: { shown: false, observed: `registering a mutating webhook with sideEffects None through ${version} answered ${status}` },
        mark,
      }),
    );
    return;
  }
  const premise = await inForce(s, 'm', false);
  if (!premise.shown || premise.name === undefined) {
    s.cx.judge(judgeMutatingWebhook({ premise, mark }));
    return;
  }
  // The premise's object: did the real create store the mutation?
  const cms = resourceTypes(s.cx.env.profile).configmaps;
  const real = await s.cx.send({ method: 'GET', path: objectPath(cms, premise.name, s.ns) });
  const realLabels = real.status === 200 ? labelsOf(real.json) : undefined;
  const dry = await dryCreateInTime(s, 'dry-mutated', 'm', false, (d) => d.labels !== undefined && Object.hasOwn(d.labels, MUTATION_LABEL));
  s.cx.judge(judgeMutatingWebhook({ premise, mark, realLabels, dry }), { reviews: s.hook.reviews() });
}

async function caseB(s: Scope, versions: readonly string[]): Promise<void> {
  const attempts: DeclarationAttempt[] = [];
  let tested: SideEffectObservation['tested'];
  for (const version of versions) {
    for (const sideEffects of ['Unknown', 'Some'] as const) {
      const which = `b-${version}-${sideEffects}`.toLowerCase();
      const status = await register(s, version, which, sideEffects);
      const attempt = { version, sideEffects, status };
      attempts.push(attempt);
      if (!ok(status) || tested !== undefined) continue;
      const premise = await inForce(s, which, false);
      tested = { attempt, premise, dry: premise.shown ? await dryCreate(s, `dry-${which}`, which, false) : undefined };
    }
  }
  s.cx.judge(judgeSideEffectingWebhook({ attempts, tested }), { reviews: s.hook.reviews() });
}

export const dryRunAdmission: Check<string> = {
  id: 'dry-run-admission',
  suite: 'rest-dry-run',
  title:
    "dry-runs call admission webhooks without side effects (answering with a mutating one's change) and fail on those with side effects (webhook hosted on loopback)",
  clauses: [...ADMISSION_CLAUSES],
  defaultRuns: 1,
  // The value case M's mutating webhook adds (a label value).
  arbitrary: () => fc.integer({ min: 0, max: 0x7fffffff }).map((n) => `m${n.toString(36)}`),
  describe: (value) => [
    "host an admission webhook on 127.0.0.1 (HTTPS, self-signed) that denies objects labelled svc-conformance/deny (or, on case M's path, adds a label)",
    "A: register it with sideEffects None for this case's configmaps; real creates of a denied configmap until refused (in force)",
    'A: dry-run create of an allowed configmap (served, reviewed with dryRun true, not stored), then of a denied one (refused)',
    `M: register a mutating webhook (sideEffects None) adding ${MUTATION_LABEL}=${value} to this case's configmaps; real creates until one reaches it; read it back`,
    'M: dry-run create of a configmap it matches (served with the label, reviewed with dryRun true, not stored)',
    'B: register it with sideEffects Unknown and Some through every served admissionregistration version',
    'B: for the first accepted, real creates until one reaches it, then a dry-run create it matches (must fail without reaching it)',
  ],
  run: async (value, cx) => {
    const host = new URL(cx.env.target.server).hostname;
    if (!isLoopbackHost(host)) {
      cx.judge(
        webhookOutOfReach(
          `the target (${host}) is not on this machine's loopback, so it cannot call a webhook the suite hosts on 127.0.0.1`,
        ),
      );
      return;
    }
    const group = admissionGroup(cx.env.profile);
    const disc = await cx.send({ method: 'GET', path: `/apis/${group}` });
    const listed = (disc.json as { versions?: { version?: unknown }[] } | undefined)?.versions ?? [];
    const versions = disc.status === 200 ? listed.map((v) => String(v.version)) : [];
    if (versions.length === 0) {
      cx.judge(
        webhookOutOfReach(`the target serves no ${group} (GET /apis/${group} answered ${disc.status}): no webhook can be registered`),
      );
      return;
    }
    const ns = await namespaceOf(cx, 0);
    let hook: AdmissionWebhook;
    try {
      hook = await startAdmissionWebhook(DENY_LABEL);
    } catch (e) {
      cx.judge(webhookOutOfReach((e as Error).message));
      return;
    }
    const s: Scope = { cx, hook, ns, configs: [] };
    try {
      await caseA(s, versions.includes('v1') ? 'v1' : versions[0]!);
      await caseM(s, versions.includes('v1') ? 'v1' : versions[0]!, value);
      await caseB(s, versions);
    } finally {
      for (const path of s.configs) await cx.send({ method: 'DELETE', path }).catch(() => undefined);
      await hook.close();
    }
  },
};
