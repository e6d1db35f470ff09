// Why: editors validate node-agent files against a JSON Schema; the schema must never
// refuse what the model accepts, and must refuse what no Go decoder would read (a value of the wrong
// JSON type). The schema files under docs/schemas/ are the generated ones.
import { describe, expect, it } from 'vitest';
import { readFileSync } from 'node:fs';
import fc from 'fast-check';
import { Ajv } from 'ajv';
import { profiles } from '../../../../reference/profile.ts';
import { configFields, nameIn } from '../../../../reference/nodeagent/config-fields.ts';
import { validateNodeagentConfig } from '../../../../reference/nodeagent/config.ts';
import { credentialProviderConfigSchema, GO_DURATION_PATTERN, nodeagentConfigSchema } from '../../../../reference/nodeagent/json-schema.ts';
import { validateCredentialProviderConfig } from '../../../../reference/nodeagent/credential-provider.ts';
import { credentialConfigArb } from '../../../../generators/nodeagent-credentials.ts';
import { validConfigArb } from '../../../../generators/nodeagent.ts';
import { parseGoDuration } from '../../../../reference/nodeagent/duration.ts';
import { schemaFiles } from '../../../../scripts/dev/nodeagent-schemas.ts';

/** A value of another JSON type than the field's: a bool for a string, a string for anything else. */
function wrongTyped(v: unknown): unknown {
  return typeof v === 'string' ? true : 'text';
}

for (const p of [profiles.svc, profiles.k8s]) {
  describe(`node-agent configuration schema (${p.name})`, () => {
    const validate = new Ajv({ strict: true, allowUnionTypes: true, allErrors: true }).compile(nodeagentConfigSchema(p));

    it('accepts every configuration the model accepts', () => {
      fc.assert(
        fc.property(validConfigArb(p), ({ doc }) => {
          expect(validateNodeagentConfig(doc, p).errors).toEqual([]);
          expect(validate(doc), JSON.stringify(validate.errors)).toBe(true);
        }),
        { numRuns: 200, seed: 7 },
      );
    });

    it('refuses, as the model does, a field of the wrong JSON type or a wrong kind', () => {
      const base = fc.sample(validConfigArb(p), { numRuns: 1, seed: 3 })[0]!.doc;
      let checked = 0;
      for (const f of configFields) {
        const sample = f.samples(p).find((s) => s !== null && s !== undefined);
        if (sample === undefined || f.type.kind === 'opaque') continue;
        const doc = { ...base, [nameIn(f, p)]: wrongTyped(sample) };
        expect(validateNodeagentConfig(doc, p).errors.length, `model on ${f.name}`).toBeGreaterThan(0);
        expect(validate(doc), `schema on ${f.name}`).toBe(false);
        checked++;
      }
      expect(checked).toBeGreaterThan(50);
      expect(validate({ ...base, kind: 'Pod' })).toBe(false);
      expect(validate({ ...base, maxPods: 2 ** 31 })).toBe(false);
    });

    it('reads Go durations as the model does', () => {
      const re = new RegExp(GO_DURATION_PATTERN, 'u');
      for (const s of ['0', '1h30m', '300ms', '1.5h', '-2s', '.5s', '1\u00b5s', '2us'])
        expect([s, re.test(s)]).toEqual([s, parseGoDuration(s).ok]);
      for (const s of ['1d', '1', '', 'h', '1 h', '1.h5']) expect([s, re.test(s)]).toEqual([s, false]);
    });
  });
}

describe('docs/schemas', () => {
  it('are the generated schemas (npm run docs:schemas)', () => {
    for (const f of schemaFiles()) expect(readFileSync(f.path, 'utf8'), f.path).toBe(f.content);
  });
});

describe('an unknown field names the one meant', () => {
  it('by case or one edit; nothing for a name far from every field', async () => {
    const { didYouMean } = await import('../../../../reference/nodeagent/config.ts');
    const names = configFields.map((f) => f.name);
    expect(didYouMean('maxpods', names)).toBe(' (did you mean maxPods?)');
    expect(didYouMean('maxPod', names)).toBe(' (did you mean maxPods?)');
    expect(didYouMean('amxPods', names)).toBe(' (did you mean maxPods?)');
    expect(didYouMean('flavour', names)).toBe('');
    const v = validateNodeagentConfig(
      { apiVersion: 'nodeagent.config.svc.io/v1beta1', kind: 'NodeagentConfiguration', maxpods: 3 },
      profiles.svc,
    );
    expect(v.unspecified.map((u) => u.message).join('\n')).toContain('maxpods (did you mean maxPods?)');
  });
});

for (const p of [profiles.svc, profiles.k8s]) {
  describe(`credential provider configuration schema (${p.name})`, () => {
    const validate = new Ajv({ strict: true, allowUnionTypes: true, allErrors: true }).compile(credentialProviderConfigSchema(p));

    it('accepts every file the model accepts', () => {
      let accepted = 0;
      fc.assert(
        fc.property(credentialConfigArb(p), ({ doc }) => {
          if (validateCredentialProviderConfig(doc, p).errors.length > 0) return;
          accepted++;
          expect(validate(doc), JSON.stringify(validate.errors)).toBe(true);
        }),
        { numRuns: 200, seed: 7 },
      );
      expect(accepted).toBeGreaterThan(100);
    });

    it('refuses, as the model does, a missing required field or a value of the wrong JSON type', () => {
      const base = fc
        .sample(credentialConfigArb(p), { numRuns: 20, seed: 3 })
        .map((c) => c.doc)
        .find((d) => validateCredentialProviderConfig(d, p).errors.length === 0)!;
      const provider = (base.providers as Record<string, unknown>[])[0]!;
      const withProvider = (change: Record<string, unknown>, drop?: string) => {
        const next: Record<string, unknown> = { ...provider, ...change };
        if (drop) delete next[drop];
        return { ...base, providers: [next, ...(base.providers as unknown[]).slice(1)] };
      };
      const broken: [string, unknown][] = [
        ['no providers', { ...base, providers: undefined }],
        ['providers a map', { ...base, providers: { a: 1 } }],
        ['kind', { ...base, kind: 'KubeletConfiguration' }],
        ...(['name', 'matchImages', 'defaultCacheDuration', 'apiVersion'] as const).map((k): [string, unknown] => [
          `no ${k}`,
          withProvider({}, k),
        ]),
        ['name a bool', withProvider({ name: true })],
        ['empty name', withProvider({ name: '' })],
        ['matchImages a string', withProvider({ matchImages: 'registry.io' })],
        ['empty matchImages', withProvider({ matchImages: [] })],
        ['duration a number', withProvider({ defaultCacheDuration: 5 })],
        ['duration in days', withProvider({ defaultCacheDuration: '1d' })],
        ['args a string', withProvider({ args: '--flag' })],
        ['env without value', withProvider({ env: [{ name: 'A' }] })],
      ];
      for (const [what, doc] of broken) {
        const clean = JSON.parse(JSON.stringify(doc)) as unknown;
        expect(validateCredentialProviderConfig(clean, p).errors.length, `model on ${what}`).toBeGreaterThan(0);
        expect(validate(clean), `schema on ${what}`).toBe(false);
      }
    });
  });
}
