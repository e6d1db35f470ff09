// The judges of dry-run-admission (rest:4.6.2, rest:4.6.3, rest:7.3): each must accept a right
// observation and reject its near miss, and a verdict the suite cannot reach is inconclusive, never a pass.
import { describe, expect, it } from 'vitest';
import {
  judgeMutatingWebhook,
  judgeNoneWebhook,
  judgeSideEffectingWebhook,
  MUTATION_LABEL,
  webhookConfiguration,
  webhookOutOfReach,
  type MutatingWebhookObservation,
  type NoneWebhookObservation,
  type SideEffectObservation,
} from '../../../reference/dry-run-admission.ts';
import { selectorFromObject, matchesLabels } from '../../../reference/label-selector.ts';
import { profiles } from '../../../reference/profile.ts';

const verdicts = (js: readonly { clause: string; verdict: string }[]) => js.map((j) => `${j.clause} ${j.verdict}`);

describe('judgeNoneWebhook (case A: sideEffects None)', () => {
  const right: NoneWebhookObservation = {
    premise: { shown: true, observed: 'refused with 403' },
    realDenied: 403,
    allowed: { status: 201, seen: [true], persisted: false },
    denied: { status: 403, seen: [true], persisted: false },
  };
  it('passes a dry-run the webhook reviewed with dryRun true and served, and a denied one refused', () => {
    expect(verdicts(judgeNoneWebhook(right))).toEqual(['rest:4.6.2 pass', 'rest:4.6.2 pass', 'rest:4.6.3 pass']);
  });
  it('fails a denied object served under dry-run (admission skipped)', () => {
    expect(verdicts(judgeNoneWebhook({ ...right, denied: { status: 201, seen: [], persisted: false } }))).toContain('rest:4.6.2 fail');
  });
  it('a denied object served past the webhook timeout shows nothing (failurePolicy Ignore); served sooner it fails', () => {
    const late = verdicts(judgeNoneWebhook({ ...right, denied: { status: 201, seen: [true], persisted: false, tookMs: 5_400 } }));
    expect(late).toEqual(['rest:4.6.2 pass', 'rest:4.6.2 inconclusive', 'rest:4.6.3 pass']);
    expect(verdicts(judgeNoneWebhook({ ...right, denied: { status: 201, seen: [true], persisted: false, tookMs: 4_900 } }))).toContain(
      'rest:4.6.2 fail',
    );
    // Stored is wrong however late: a dry-run never stores.
    expect(verdicts(judgeNoneWebhook({ ...right, denied: { status: 201, seen: [true], persisted: true, tookMs: 9_000 } }))).toContain(
      'rest:4.6.2 fail',
    );
  });
  it('fails an allowed dry-run the webhook never saw, or saw as a real request', () => {
    expect(verdicts(judgeNoneWebhook({ ...right, allowed: { status: 201, seen: [], persisted: false } }))[0]).toBe('rest:4.6.2 fail');
    expect(verdicts(judgeNoneWebhook({ ...right, allowed: { status: 201, seen: [false], persisted: false } }))[0]).toBe('rest:4.6.2 fail');
  });
  it('fails a dry-run that was stored, and a None webhook that makes a dry-run fail', () => {
    expect(verdicts(judgeNoneWebhook({ ...right, allowed: { status: 201, seen: [true], persisted: true } }))[0]).toBe('rest:4.6.2 fail');
    expect(verdicts(judgeNoneWebhook({ ...right, allowed: { status: 400, seen: [], persisted: false } }))).toContain('rest:4.6.3 fail');
  });
  it('is inconclusive when the webhook was never seen in force', () => {
    expect(verdicts(judgeNoneWebhook({ premise: { shown: false, observed: 'no review within 600 ms' } }))).toEqual([
      'rest:4.6.2 inconclusive',
      'rest:4.6.3 inconclusive',
    ]);
  });
});

describe('judgeMutatingWebhook (case M: a mutating webhook, sideEffects None)', () => {
  const base = { 'svc-conformance/webhook': 'm' };
  const right: MutatingWebhookObservation = {
    premise: { shown: true, observed: 'a real create reached it' },
    mark: [MUTATION_LABEL, 'm1x'],
    realLabels: { ...base, [MUTATION_LABEL]: 'm1x' },
    dry: { status: 201, seen: [true], persisted: false, labels: { ...base, [MUTATION_LABEL]: 'm1x' } },
  };
  it('passes a dry-run answered with the mutation, reviewed with dryRun true, not stored', () => {
    expect(verdicts(judgeMutatingWebhook(right))).toEqual(['rest:4.6.2 pass', 'rest:4.6.3 pass']);
  });
  it('fails a dry-run answer without the mutation the real create stored (near miss: everything else right)', () => {
    expect(verdicts(judgeMutatingWebhook({ ...right, dry: { ...right.dry!, labels: base } }))).toEqual([
      'rest:4.6.2 fail',
      'rest:4.6.3 pass',
    ]);
    expect(verdicts(judgeMutatingWebhook({ ...right, dry: { ...right.dry!, seen: [], labels: base } }))[0]).toBe('rest:4.6.2 fail');
  });
  it('a dry-run answer without the mutation, served past the webhook timeout, shows nothing; served sooner it fails', () => {
    expect(verdicts(judgeMutatingWebhook({ ...right, dry: { ...right.dry!, labels: base, tookMs: 6_000 } }))).toEqual([
      'rest:4.6.2 inconclusive',
      'rest:4.6.3 pass',
    ]);
    expect(verdicts(judgeMutatingWebhook({ ...right, dry: { ...right.dry!, labels: base, tookMs: 200 } }))).toEqual([
      'rest:4.6.2 fail',
      'rest:4.6.3 pass',
    ]);
    // A right answer is a pass however late it came.
    expect(verdicts(judgeMutatingWebhook({ ...right, dry: { ...right.dry!, tookMs: 6_000 } }))).toEqual([
      'rest:4.6.2 pass',
      'rest:4.6.3 pass',
    ]);
  });
  it('fails a dry-run the webhook saw as a real request, or that was stored; a None webhook failing it fails 4.6.3', () => {
    expect(verdicts(judgeMutatingWebhook({ ...right, dry: { ...right.dry!, seen: [false] } }))[0]).toBe('rest:4.6.2 fail');
    expect(verdicts(judgeMutatingWebhook({ ...right, dry: { ...right.dry!, persisted: true } }))[0]).toBe('rest:4.6.2 fail');
    expect(verdicts(judgeMutatingWebhook({ ...right, dry: { status: 400, seen: [], persisted: false, labels: undefined } }))).toEqual([
      'rest:4.6.2 fail',
      'rest:4.6.3 fail',
    ]);
  });
  it("accepts another value of the mutated label (rest:2.8: a dry-run's values from a mutating step may differ)", () => {
    expect(verdicts(judgeMutatingWebhook({ ...right, dry: { ...right.dry!, labels: { ...base, [MUTATION_LABEL]: 'other' } } }))[0]).toBe(
      'rest:4.6.2 pass',
    );
  });
  it('is inconclusive, never failed, when the webhook was unreachable or the real object lacks the mutation', () => {
    const unreached = { premise: { shown: false, observed: 'no real create reached it' }, mark: right.mark } as const;
    expect(verdicts(judgeMutatingWebhook(unreached))).toEqual(['rest:4.6.2 inconclusive', 'rest:4.6.3 inconclusive']);
    for (const realLabels of [base, undefined, { ...base, [MUTATION_LABEL]: 'else' }]) {
      expect(verdicts(judgeMutatingWebhook({ ...right, realLabels, dry: { ...right.dry!, labels: base } }))).toEqual([
        'rest:4.6.2 inconclusive',
        'rest:4.6.3 inconclusive',
      ]);
    }
  });
  it('builds a MutatingWebhookConfiguration when asked', () => {
    const c = webhookConfiguration(profiles.k8s, 'v1', {
      name: 'x',
      labels: {},
      url: 'https://127.0.0.1:1/hook/m',
      caBundle: '',
      sideEffects: 'None',
      namespaceLabels: {},
      objectLabels: {},
      resource: 'configmaps',
      kind: 'Mutating',
    });
    expect(c).toMatchObject({ apiVersion: 'admissionregistration.k8s.io/v1', kind: 'MutatingWebhookConfiguration' });
  });
});

describe('judgeSideEffectingWebhook (case B)', () => {
  const v1Refused = [
    { version: 'v1', sideEffects: 'Unknown' as const, status: 422 },
    { version: 'v1', sideEffects: 'Some' as const, status: 422 },
  ];
  const accepted = { version: 'v1beta1', sideEffects: 'Unknown' as const, status: 201 };
  const right: SideEffectObservation = {
    attempts: [...v1Refused, accepted],
    tested: {
      attempt: accepted,
      premise: { shown: true, observed: 'a real create reached it' },
      dry: { status: 400, seen: [], persisted: false },
    },
  };
  it('is inconclusive for rest:7.3 when no served version accepts a side-effecting webhook (1.22+), and passes the v1 row', () => {
    const js = judgeSideEffectingWebhook({ attempts: v1Refused });
    expect(verdicts(js)).toEqual([
      'rest:9.4/admissionregistration-v1beta1-validatingwebhookconfiguration pass',
      'rest:9.4/admissionregistration-v1beta1-validatingwebhookconfiguration pass',
      'rest:7.3 inconclusive',
      'rest:4.6.3 inconclusive',
    ]);
    expect(js[2]!.observed).toContain('only None and NoneOnDryRun');
  });
  it('fails the v1 row when v1 accepts sideEffects Unknown', () => {
    expect(verdicts(judgeSideEffectingWebhook({ attempts: [{ version: 'v1', sideEffects: 'Unknown', status: 201 }] }))[0]).toBe(
      'rest:9.4/admissionregistration-v1beta1-validatingwebhookconfiguration fail',
    );
  });
  it('passes a dry-run that failed without reaching the webhook', () => {
    expect(verdicts(judgeSideEffectingWebhook(right)).slice(2)).toEqual(['rest:7.3 pass', 'rest:4.6.3 pass']);
  });
  it('fails a dry-run that was served, or that failed but still called the webhook', () => {
    expect(
      verdicts(
        judgeSideEffectingWebhook({ ...right, tested: { ...right.tested!, dry: { status: 201, seen: [true], persisted: false } } }),
      ).slice(2),
    ).toEqual(['rest:7.3 fail', 'rest:4.6.3 fail']);
    expect(
      verdicts(
        judgeSideEffectingWebhook({ ...right, tested: { ...right.tested!, dry: { status: 400, seen: [true], persisted: false } } }),
      ).slice(2),
    ).toEqual(['rest:7.3 fail', 'rest:4.6.3 fail']);
  });
  it('is inconclusive, never failed, when no real request reached the webhook', () => {
    expect(
      verdicts(
        judgeSideEffectingWebhook({ ...right, tested: { attempt: accepted, premise: { shown: false, observed: 'never called' } } }),
      ).slice(2),
    ).toEqual(['rest:7.3 inconclusive', 'rest:4.6.3 inconclusive']);
  });
});

describe('scope of the registered configurations', () => {
  it('a target off loopback records every clause inconclusive with the reason', () => {
    expect(webhookOutOfReach('remote').map((j) => `${j.clause} ${j.verdict} ${j.observed}`)).toEqual([
      'rest:4.6.2 inconclusive remote',
      'rest:4.6.3 inconclusive remote',
      'rest:7.3 inconclusive remote',
    ]);
  });
  it('a configuration matches only objects with both the namespace labels and the object labels, and fails open', () => {
    const c = webhookConfiguration(profiles.k8s, 'v1', {
      name: 'n',
      labels: { r: '1' },
      url: 'https://127.0.0.1:1/hook/a',
      caBundle: 'Q0E=',
      sideEffects: 'None',
      namespaceLabels: { run: 'x' },
      objectLabels: { run: 'x', case: 'y' },
      resource: 'configmaps',
    });
    expect(c['apiVersion']).toBe('admissionregistration.k8s.io/v1');
    const w = (c['webhooks'] as Record<string, unknown>[])[0]!;
    expect(w['failurePolicy']).toBe('Ignore');
    const objSel = selectorFromObject(w['objectSelector']);
    expect(typeof objSel).not.toBe('string');
    expect(matchesLabels(objSel as never, { run: 'x', case: 'y', other: 'z' })).toBe(true);
    expect(matchesLabels(objSel as never, { run: 'x' })).toBe(false);
  });
});

describe('selectorFromObject', () => {
  it('turns matchLabels and matchExpressions into requirements', () => {
    expect(
      selectorFromObject({
        matchLabels: { a: 'b' },
        matchExpressions: [
          { key: 'c', operator: 'In', values: ['d'] },
          { key: 'e', operator: 'DoesNotExist' },
        ],
      }),
    ).toEqual([
      { key: 'a', op: 'eq', value: 'b' },
      { key: 'c', op: 'in', values: ['d'] },
      { key: 'e', op: 'notexists' },
    ]);
    expect(selectorFromObject({})).toEqual([]);
  });
  it('refuses an unknown operator and In without values', () => {
    expect(typeof selectorFromObject({ matchExpressions: [{ key: 'c', operator: 'Near' }] })).toBe('string');
    expect(typeof selectorFromObject({ matchExpressions: [{ key: 'c', operator: 'In', values: [] }] })).toBe('string');
  });
});
