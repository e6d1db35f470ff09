/**
 * CredentialProviderConfig files (spec 2.1) and image names around the matchImages glob rules, as
 * fast-check arbitraries: valid files, files with exactly one violation (a required field left out or
 * empty, a glob in a port or path, a malformed duration, a wrong kind), and pattern/image pairs that
 * sit on either side of each rule (one glob one segment, ports compared, path prefix).
 */
import fc from 'fast-check';
import type { Profile } from '../reference/profile.ts';
import { NODEAGENT_VERSION } from '../reference/nodeagent/config.ts';
import { CREDENTIAL_PROVIDER_KIND, validateCredentialProviderConfig } from '../reference/nodeagent/credential-provider.ts';
import type { Doc, NodeagentCase } from './nodeagent.ts';
import type { ClauseId } from '../reference/catalog/clause-ids.ts';

export const PATTERNS = [
  '*.registry.io',
  'registry.io',
  'registry.io:5000',
  '*.*.registry.io',
  'registry.*',
  '*.registry.io/team',
  'localhost:5000/app',
  '*.dkr.ecr.*.amazonaws.com',
];

/** The exec request version a provider names: the profile's credential provider group (2.5: supported versions not shown; v1beta1 is served by upstream 1.24). */
const execApiVersion = (p: Profile) => `${p.credentialProviderGroup}/v1beta1`;

const providerArb = (p: Profile) =>
  fc.record(
    {
      name: fc.constantFrom('ecr-credential-provider', 'acr-credential-provider', 'vendor-provider'),
      matchImages: fc.subarray(PATTERNS, { minLength: 1, maxLength: 3 }),
      defaultCacheDuration: fc.constantFrom('12h', '1m', '0s', '1h30m'),
      apiVersion: fc.constant(execApiVersion(p)),
      args: fc.array(fc.constantFrom('--v=2', 'get-credentials'), { maxLength: 2 }),
      env: fc.array(fc.record({ name: fc.constantFrom('AWS_PROFILE', 'HOME'), value: fc.constantFrom('default', '/root') }), {
        maxLength: 2,
      }),
    },
    { requiredKeys: ['name', 'matchImages', 'defaultCacheDuration', 'apiVersion'] },
  );

const headerOf = (p: Profile): Doc => ({ apiVersion: `${p.nodeagentGroup}/${NODEAGENT_VERSION}`, kind: CREDENTIAL_PROVIDER_KIND });

export function credentialConfigArb(p: Profile): fc.Arbitrary<NodeagentCase> {
  return fc.array(providerArb(p), { minLength: 1, maxLength: 3 }).map((providers) => ({ doc: { ...headerOf(p), providers } }));
}

type Breaker = { what: string; apply: (provider: Record<string, unknown>) => Record<string, unknown> | undefined; doc?: (d: Doc) => Doc };
const without = (k: string) => (x: Record<string, unknown>) => Object.fromEntries(Object.entries(x).filter(([key]) => key !== k));
const BREAKERS: Breaker[] = [
  { what: 'provider without name', apply: without('name') },
  { what: 'provider with empty name', apply: (x) => ({ ...x, name: '' }) },
  { what: 'provider without matchImages', apply: without('matchImages') },
  { what: 'empty matchImages', apply: (x) => ({ ...x, matchImages: [] }) },
  { what: 'glob in the port', apply: (x) => ({ ...x, matchImages: ['registry.io:*'] }) },
  { what: 'glob in the path', apply: (x) => ({ ...x, matchImages: ['registry.io/team/*'] }) },
  { what: 'glob in a path segment', apply: (x) => ({ ...x, matchImages: ['*.registry.io/app*'] }) },
  { what: 'provider without defaultCacheDuration', apply: without('defaultCacheDuration') },
  { what: 'defaultCacheDuration in days', apply: (x) => ({ ...x, defaultCacheDuration: '1d' }) },
  { what: 'provider without apiVersion', apply: without('apiVersion') },
  { what: 'env entry without value', apply: (x) => ({ ...x, env: [{ name: 'HOME' }] }) },
  { what: 'args not a list', apply: (x) => ({ ...x, args: '--v=2' }) },
  { what: 'no providers', apply: () => undefined, doc: (d) => ({ apiVersion: d.apiVersion, kind: d.kind }) },
  { what: 'wrong version', apply: () => undefined, doc: (d) => ({ ...d, apiVersion: String(d.apiVersion).replace(/\/.*$/, '/v1') }) },
];

/** One violation in one provider (or in the document), the rest valid. */
export function invalidCredentialConfigArb(p: Profile): fc.Arbitrary<NodeagentCase> {
  return fc.record({ valid: credentialConfigArb(p), b: fc.constantFrom(...BREAKERS), at: fc.nat() }).map(({ valid, b, at }) => {
    const providers = valid.doc.providers as Record<string, unknown>[];
    const i = at % providers.length;
    let doc: Doc;
    if (b.doc) doc = b.doc(valid.doc);
    else doc = { ...valid.doc, providers: providers.map((x, j) => (j === i ? b.apply(x)! : x)) };
    const clause = validateCredentialProviderConfig(doc, p).errors[0]?.clause ?? 'node:2.1/providers';
    return { doc, violation: { what: b.what, clause } };
  });
}

/** The clause a breaker's violation falls under, judged on one plain provider. */
function breakerClause(b: Breaker, p: Profile): ClauseId {
  const plain = {
    name: 'ecr-credential-provider',
    matchImages: ['*.registry.io'],
    defaultCacheDuration: '12h',
    apiVersion: execApiVersion(p),
  };
  const valid = { ...headerOf(p), providers: [plain] };
  const doc = b.doc ? b.doc(valid) : { ...valid, providers: [b.apply(plain)!] };
  return validateCredentialProviderConfig(doc, p).errors[0]?.clause ?? 'node:2.1/providers';
}

/** A file of one plain provider (valid: its exec apiVersion is one the spec leaves open, 2.5). */
export function plainCredentialDoc(p: Profile, provider: Record<string, unknown> = {}): Doc {
  return {
    ...headerOf(p),
    providers: [
      {
        name: 'ecr-credential-provider',
        matchImages: ['*.registry.io'],
        defaultCacheDuration: '12h',
        apiVersion: execApiVersion(p),
        ...provider,
      },
    ],
  };
}

/** Every breaker on one plain provider: no draw, the files the edge checks hold (generators/nodeagent-edges.ts). */
export function breakerDocs(p: Profile): { what: string; doc: Doc }[] {
  return BREAKERS.map((b) => {
    const plain = plainCredentialDoc(p);
    return {
      what: b.what,
      doc: b.doc ? b.doc(plain) : { ...plain, providers: [b.apply((plain.providers as Record<string, unknown>[])[0]!)!] },
    };
  });
}

/** The clauses the one-violation credential files break: one small property each covers every breaker within the default budget. */
export function credentialViolationClauses(p: Profile): ClauseId[] {
  return [...new Set(BREAKERS.map((b) => breakerClause(b, p)))];
}

/** Pattern and image pairs on both sides of each matchImages rule. */
export const matchPairArb: fc.Arbitrary<{ pattern: string; image: string }> = fc
  .record({
    sub: fc.constantFrom('a', 'eu', 'x1'),
    depth: fc.integer({ min: 0, max: 2 }),
    globs: fc.integer({ min: 1, max: 2 }),
    port: fc.constantFrom('', ':5000', ':443'),
    imagePort: fc.constantFrom('', ':5000', ':443'),
    patternPath: fc.constantFrom('', '/team', '/team/app'),
    imagePath: fc.constantFrom('/app', '/team/app', '/team/app/x', '/other'),
    tag: fc.constantFrom('', ':1.0', '@sha256:abc'),
  })
  .map(({ sub, depth, globs, port, imagePort, patternPath, imagePath, tag }) => ({
    pattern: `${Array(globs).fill('*').join('.')}.registry.io${port}${patternPath}`,
    image: `${Array(depth + 1)
      .fill(sub)
      .join('.')}.registry.io${imagePort}${imagePath}${tag}`,
  }));
