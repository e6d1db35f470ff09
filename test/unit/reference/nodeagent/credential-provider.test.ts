// spec 2.1 CredentialProviderConfig: required fields, matchImages syntax (globs only in the domain),
// provider order and overlapping auth keys (the earlier provider wins), 2.5 gaps left open.
import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { profiles } from '../../../../reference/profile.ts';
import { mergeProviderAuth, providersFor, validateCredentialProviderConfig } from '../../../../reference/nodeagent/credential-provider.ts';
import { matchImage } from '../../../../reference/nodeagent/match-images.ts';
import { matchPairArb } from '../../../../generators/nodeagent-credentials.ts';

const svc = profiles.svc;
const provider = {
  name: 'ecr',
  matchImages: ['*.registry.io'],
  defaultCacheDuration: '12h',
  apiVersion: 'credentialprovider.svc.io/v1beta1',
};
const doc = (providers: unknown, extra: Record<string, unknown> = {}) => ({
  apiVersion: 'nodeagent.config.svc.io/v1beta1',
  kind: 'CredentialProviderConfig',
  providers,
  ...extra,
});
const errs = (d: unknown) => validateCredentialProviderConfig(d, svc).errors.map((e) => [e.field, e.clause]);

describe('CredentialProviderConfig validation', () => {
  it('accepts a complete provider; its exec apiVersion stays open (2.5)', () => {
    const r = validateCredentialProviderConfig(doc([{ ...provider, args: ['get'], env: [{ name: 'A', value: 'b' }] }]), svc);
    expect(r.errors).toEqual([]);
    expect(r.unspecified.map((u) => u.clause)).toEqual(['node:2.5/provider-apiVersion']);
  });

  it.each(['name', 'matchImages', 'defaultCacheDuration', 'apiVersion'])('requires %s', (field) => {
    const p = Object.fromEntries(Object.entries(provider).filter(([k]) => k !== field));
    expect(errs(doc([provider, p]))).toEqual([[`providers[1].${field}`, `node:2.1/${field}`]]);
  });

  it('requires providers, a non-empty matchImages, and name and value of each env entry', () => {
    expect(errs(doc(undefined))).toEqual([['providers', 'node:2.1/providers']]);
    expect(errs(doc([{ ...provider, matchImages: [] }]))).toEqual([['providers[0].matchImages', 'node:2.1/matchImages']]);
    expect(errs(doc([{ ...provider, env: [{ name: 'A' }] }]))).toEqual([['providers[0].env[0].value', 'node:2.1/env']]);
    expect(errs(doc([{ ...provider, defaultCacheDuration: '1d' }]))).toEqual([
      ['providers[0].defaultCacheDuration', 'node:2.1/defaultCacheDuration'],
    ]);
  });

  it('refuses globs in the port or path, accepts them in the domain', () => {
    expect(errs(doc([{ ...provider, matchImages: ['registry.io:*'] }]))).toEqual([['providers[0].matchImages[0]', 'node:2.1/matchImages']]);
    expect(errs(doc([{ ...provider, matchImages: ['r.io/team/*'] }]))).toEqual([['providers[0].matchImages[0]', 'node:2.1/matchImages']]);
    expect(errs(doc([{ ...provider, matchImages: ['*.*.io:5000/team', 'registry.*'] }]))).toEqual([]);
  });

  it('names a wrong kind', () => {
    expect(validateCredentialProviderConfig(doc([provider], { kind: 'CredentialProviders' }), svc).errors[0]!.message).toContain(
      '"CredentialProviders"',
    );
  });
});

describe('provider selection and combination', () => {
  it('selects the providers whose patterns match, in list order', () => {
    const sel = providersFor(
      [
        { name: 'a', matchImages: ['*.registry.io'] },
        { name: 'b', matchImages: ['other.io'] },
        { name: 'c', matchImages: ['eu.registry.io'] },
      ],
      'eu.registry.io/app:1',
    );
    expect(sel.map((s) => [s.provider, s.decision.matches])).toEqual([
      ['a', true],
      ['b', false],
      ['c', true],
    ]);
  });

  it('on overlapping auth keys the earlier provider wins; other keys are combined', () => {
    const merged = mergeProviderAuth([
      { provider: 'a', auth: { 'r.io': 'A' } },
      { provider: 'b', auth: { 'r.io': 'B', 'x.io': 'C', __proto__: 'D' } as Record<string, string> },
    ]);
    expect(merged['r.io']).toEqual({ from: 'a', credential: 'A' });
    expect(merged['x.io']).toEqual({ from: 'b', credential: 'C' });
  });

  it('a glob never spans two segments or none, and ports must agree (generated pairs)', () => {
    fc.assert(
      fc.property(matchPairArb, ({ pattern, image }) => {
        const d = matchImage(pattern, image);
        const globs = pattern.split('/')[0]!.split(':')[0]!.split('.').length;
        const segs = image.split('/')[0]!.split(':')[0]!.split('.').length;
        const pPort = /:(\d+)/.exec(pattern.split('/')[0]!)?.[1] ?? '';
        const iPort = /:(\d+)/.exec(image.split('/')[0]!)?.[1] ?? '';
        if (globs !== segs || pPort !== iPort) expect(d.matches, `${pattern} ${image}`).toBe(false);
      }),
      { numRuns: 300, seed: 5 },
    );
  });
});
