/**
 * JSON Schema (draft-07) of the node-agent configuration, generated from the model's field table, for
 * editors (yaml-language-server: `# yaml-language-server: $schema=...`) and other tools. It states
 * what a schema can: types, integer widths, Go duration syntax, defaults, descriptions, the type meta.
 * It over-approximates the model on purpose: value rules (ranges, cross-field rules, feature gates)
 * stay in the model, and unknown fields stay allowed because the spec does not say they are refused
 * (config.ts records them as unspecified). The self-test holds it to that: every configuration the
 * model accepts, the schema accepts; a value of the wrong JSON type, both refuse.
 *
 *   nodeagentConfigSchema(profiles.svc).properties.maxPods
 *     -> { type: ['integer', 'null'], minimum: -2147483648, maximum: 2147483647, default: 110, description: ... }
 */
import type { Profile } from '../profile.ts';
import { configFields, defaultOf, nameIn, type FieldSpec } from './config-fields.ts';
import type { Scalar, TypeSpec } from './config-types.ts';
import { configApiVersion, configKind } from './config.ts';
import { CREDENTIAL_PROVIDER_KIND } from './credential-provider.ts';

export type JsonSchema = { readonly [k: string]: unknown };

/** Go's time.ParseDuration syntax: "0", or signed segments of a decimal number and a unit. */
export const GO_DURATION_PATTERN = '^[-+]?(0|((\\d+(\\.\\d*)?|\\.\\d+)(ns|us|\u00b5s|\u03bcs|ms|s|m|h))+)$';

const INT: Record<'int32' | 'int64' | 'uint32' | 'nanos', [number, number]> = {
  int32: [-(2 ** 31), 2 ** 31 - 1],
  int64: [Number.MIN_SAFE_INTEGER, Number.MAX_SAFE_INTEGER],
  nanos: [Number.MIN_SAFE_INTEGER, Number.MAX_SAFE_INTEGER],
  uint32: [0, 2 ** 32 - 1],
};

function scalarSchema(s: Scalar): Record<string, unknown> {
  switch (s) {
    case 'bool':
      return { type: 'boolean' };
    case 'string':
      return { type: 'string' };
    case 'float64':
      return { type: 'number' };
    case 'duration':
      return { type: 'string', pattern: GO_DURATION_PATTERN };
    // A quantity may be written as a bare number in YAML ("memory.available: 100").
    case 'quantity':
      return { type: ['string', 'number'] };
    case 'int32':
    case 'int64':
    case 'uint32':
    case 'nanos':
      return { type: 'integer', minimum: INT[s][0], maximum: INT[s][1] };
  }
}

function typeSchema(t: TypeSpec, p: Profile): Record<string, unknown> {
  switch (t.kind) {
    case 'scalar':
      return scalarSchema(t.scalar);
    case 'list':
      return { type: 'array', items: nullable(typeSchema(t.of, p)) };
    case 'map':
      return { type: 'object', additionalProperties: nullable(typeSchema(t.of, p)) };
    case 'object':
      return { type: 'object', properties: Object.fromEntries(t.fields.map((f) => [nameIn(f, p), fieldSchema(f, p)])) };
    // 2.5: shape not shown (a taint, a vmodule item): any map.
    case 'opaque':
      return { type: 'object', description: `${t.typeName}: shape not shown by the spec` };
  }
}

/** A Go decoder reads null as "absent" for every field: null is always allowed. */
function nullable(s: Record<string, unknown>): Record<string, unknown> {
  const type = s['type'];
  if (type === undefined) return s;
  return { ...s, type: [...(Array.isArray(type) ? type : [type]), 'null'] };
}

function fieldSchema(f: FieldSpec, p: Profile): Record<string, unknown> {
  const d = f.def.kind === 'value' ? defaultOf(f, p) : undefined;
  return {
    ...nullable(typeSchema(f.type, p)),
    description: `${f.rule} (${f.clause})`,
    ...(d !== undefined ? { default: d } : {}),
  };
}

export function nodeagentConfigSchema(p: Profile): JsonSchema {
  return {
    $schema: 'http://json-schema.org/draft-07/schema#',
    $id: `https://svc-conformance.test/schemas/${p.name}/${configKind(p)}.schema.json`,
    title: `${configKind(p)} (${configApiVersion(p)})`,
    description:
      'Generated from the svc-conformance model of the node-agent configuration (spec 2.2-2.5). Value rules beyond types are checked by `svc-conformance nodeagent validate`.',
    type: 'object',
    required: ['apiVersion', 'kind'],
    properties: {
      apiVersion: { const: configApiVersion(p) },
      kind: { const: configKind(p) },
      ...Object.fromEntries(configFields.map((f) => [nameIn(f, p), fieldSchema(f, p)])),
    },
  };
}

const str = (description: string) => ({ type: 'string', minLength: 1, description });

/**
 * The CredentialProviderConfig file (2.1): what a schema can state of it. Pattern syntax of
 * matchImages, duplicate names and the exec apiVersions stay in the model (credential-provider.ts);
 * an empty providers list is allowed because the spec does not say whether it counts as given.
 */
export function credentialProviderConfigSchema(p: Profile): JsonSchema {
  return {
    $schema: 'http://json-schema.org/draft-07/schema#',
    $id: `https://svc-conformance.test/schemas/${p.name}/${CREDENTIAL_PROVIDER_KIND}.schema.json`,
    title: `${CREDENTIAL_PROVIDER_KIND} (${configApiVersion(p)})`,
    description:
      'Generated from the svc-conformance model of the credential provider configuration (spec 2.1). Pattern syntax of matchImages is checked by `svc-conformance nodeagent validate`.',
    type: 'object',
    required: ['apiVersion', 'kind', 'providers'],
    properties: {
      apiVersion: { const: configApiVersion(p) },
      kind: { const: CREDENTIAL_PROVIDER_KIND },
      providers: {
        type: 'array',
        description: 'the exec plugins, in order: on overlapping auth keys the earlier one wins (node:2.1/providers)',
        items: {
          type: 'object',
          required: ['name', 'matchImages', 'defaultCacheDuration', 'apiVersion'],
          properties: {
            name: str('name of the plugin executable in the bin directory (node:2.1/name)'),
            matchImages: {
              type: 'array',
              minItems: 1,
              items: { type: 'string' },
              description: 'image patterns that select this provider (node:2.1/matchImages)',
            },
            defaultCacheDuration: {
              type: 'string',
              pattern: GO_DURATION_PATTERN,
              description: 'how long credentials are cached when the plugin names no duration (node:2.1/defaultCacheDuration)',
            },
            apiVersion: str(
              'exec request and response version; the supported ones are not shown (node:2.1/apiVersion, node:2.5/provider-apiVersion)',
            ),
            args: { type: ['array', 'null'], items: { type: 'string' }, description: 'arguments to the plugin (node:2.1/args)' },
            env: {
              type: ['array', 'null'],
              description: 'environment of the plugin (node:2.1/env)',
              items: { type: 'object', required: ['name', 'value'], properties: { name: { type: 'string' }, value: { type: 'string' } } },
            },
          },
        },
      },
    },
  };
}
