/**
 * OpenAPI documents generated from what the server serves right now (built-in, extra and
 * run-installed custom types), so real clients work without `--validate=false`:
 *
 * - `/openapi/v3` lists one document per group version (`paths[gv].serverRelativeURL`);
 *   `/openapi/v3/api/v1`, `/openapi/v3/apis/{group}/{version}` are those documents. kubectl 1.27+ reads
 *   them for `explain` and to learn that PATCH and POST take `fieldValidation` (then the server
 *   validates and kubectl does no client-side validation).
 * - `/openapi/v2`: the same schemas as one Swagger 2.0 document, in JSON only. kubectl asks for it in
 *   protobuf first: a protobuf-only Accept gets 406 (as for any type this server cannot produce,
 *   rest:4.8), and kubectl then does without it.
 *
 * Schemas state the fields the server gives meaning to; every other type (and every unknown field)
 * is open (`x-kubernetes-preserve-unknown-fields`). The spec does not show resource schemas (rest:4.1).
 */
import { createHash } from 'node:crypto';
import { apiVersionOf, resourceTypes, type ResourceType } from '../../reference/resources.ts';
import { isRecord } from '../../reference/objects.ts';
import { parseAccept } from '../../reference/media-types.ts';
import type { Profile } from '../../reference/profile.ts';
import { customOpenApiSchema, servedExtraTypes } from './crds.ts';
import { hostedCoreTypes } from './hosted-types.ts';
import { servedExtras } from './served-versions.ts';
import type { ServerState } from './state.ts';
import { statusAnswer, type Answer } from './status.ts';

type Schema = Record<string, unknown>;

const str = (description: string): Schema => ({ type: 'string', description });
const int = (description: string): Schema => ({ type: 'integer', format: 'int32', description });
const strings = (description: string): Schema => ({ type: 'array', items: { type: 'string' }, description });
const stringMap = (description: string): Schema => ({ type: 'object', additionalProperties: { type: 'string' }, description });
const obj = (description: string, properties: Record<string, Schema>): Schema => ({ type: 'object', description, properties });
const open = (description: string): Schema => ({ type: 'object', description, 'x-kubernetes-preserve-unknown-fields': true });

const objectMeta = (profile: Profile): Schema =>
  obj('Standard object metadata (rest:2.3).', {
    name: str('Name, unique within its namespace (rest:2.2).'),
    generateName: str('Prefix the server completes into a unique name.'),
    namespace: str('Namespace of a namespaced object.'),
    uid: str('Generated identity of the object.'),
    resourceVersion: str('Opaque version of the object (rest:4.5).'),
    generation: { type: 'integer', format: 'int64', description: 'Generation of the desired state.' },
    creationTimestamp: { type: 'string', format: 'date-time', description: 'Set by the server at creation.' },
    deletionTimestamp: { type: 'string', format: 'date-time', description: 'Set by the first delete request (rest:3.1).' },
    labels: stringMap('Labels.'),
    annotations: stringMap('Annotations.'),
    finalizers: strings('Finalizers (rest:3.1).'),
    managedFields: { type: 'array', items: open('A managed-fields entry (rest:2.6).'), description: 'Field ownership (rest:2.6).' },
    // The markers upstream's ObjectMeta carries, and no list type: read as a list map keyed by uid (rest:4.7.8).
    ownerReferences: {
      type: 'array',
      items: open('An owner reference.'),
      description: 'Owners of this object.',
      [profile.patchStrategyExtension]: 'merge',
      [profile.patchMergeKeyExtension]: 'uid',
    },
  });

/** Fields of the kinds this server gives meaning to; anything else is an open object. */
function bodyOf(profile: Profile, rt: ResourceType): Record<string, Schema> | undefined {
  const core = rt.group === '';
  if (core && rt.kind === 'ConfigMap')
    return {
      data: stringMap('Configuration data.'),
      binaryData: { type: 'object', additionalProperties: { type: 'string', format: 'byte' }, description: 'Binary configuration data.' },
      immutable: { type: 'boolean', description: 'Data cannot be changed once set.' },
    };
  if (core && rt.kind === 'Namespace')
    return {
      spec: obj('Namespace spec.', { finalizers: strings(`Finalizers run before the namespace is removed (\`${profile.clusterName}\`).`) }),
      status: open('Namespace status (phase Active or Terminating).'),
    };
  if (rt.kind === 'Lease' && rt.group === resourceTypes(profile).leases.group && rt.version === 'v1') {
    return {
      spec: obj('Lease spec.', {
        holderIdentity: str('Current holder.'),
        leaseDurationSeconds: int('Duration candidates wait before taking it.'),
        acquireTime: str('When acquired.'),
        renewTime: str('When last renewed.'),
        leaseTransitions: int('Number of holder changes.'),
      }),
    };
  }
  return undefined;
}

interface Served {
  readonly rt: ResourceType;
  readonly name: string;
  readonly schema: Schema;
}

function schemaName(rt: ResourceType): string {
  return `${rt.group === '' ? 'core' : rt.group}.${rt.version}.${rt.kind}`;
}

/** Every type served now, with its schema (custom types: their CRD's openAPIV3Schema). */
function servedTypes(st: ServerState): Served[] {
  const all = [
    ...(Object.values(resourceTypes(st.profile)) as ResourceType[]),
    ...hostedCoreTypes(st.profile),
    ...servedExtras(st),
    ...servedExtraTypes(st),
  ];
  const seen = new Set<string>();
  const out: Served[] = [];
  for (const rt of all) {
    const id = `${rt.group}/${rt.version}/${rt.plural}`;
    if (seen.has(id)) continue;
    seen.add(id);
    const custom = customOpenApiSchema(st, rt);
    const base = custom ?? {
      type: 'object',
      description: `${rt.kind} (${apiVersionOf(rt)}).`,
      ...(bodyOf(st.profile, rt) ? { properties: bodyOf(st.profile, rt) } : { 'x-kubernetes-preserve-unknown-fields': true }),
    };
    const props = isRecord(base['properties']) ? base['properties'] : {};
    const schema: Schema = {
      ...base,
      properties: {
        ...props,
        apiVersion: str(`APIVersion: ${apiVersionOf(rt)}.`),
        kind: str(`Kind: ${rt.kind}.`),
        metadata: { $ref: '#/components/schemas/meta.v1.ObjectMeta' },
      },
      'x-kubernetes-group-version-kind': [{ group: rt.group, version: rt.version, kind: rt.kind }],
    };
    out.push({ rt, name: schemaName(rt), schema });
  }
  return out;
}

const gvPath = (rt: ResourceType) => (rt.group === '' ? `api/${rt.version}` : `apis/${rt.group}/${rt.version}`);

/** Query parameters of writes: kubectl looks for fieldValidation on PATCH to let the server validate. */
const writeParams = ['fieldValidation', 'fieldManager', 'dryRun'].map((name) => ({
  name,
  in: 'query',
  schema: { type: 'string', uniqueItems: true },
  description: `${name} (rest:4.3)`,
}));

function pathsOf(s: Served): Record<string, unknown> {
  const gvk = { group: s.rt.group, version: s.rt.version, kind: s.rt.kind };
  const ref = { $ref: `#/components/schemas/${s.name}` };
  const json = { content: { 'application/json': { schema: ref } } };
  const op = (action: string, extra: Record<string, unknown> = {}) => ({
    'x-kubernetes-action': action,
    'x-kubernetes-group-version-kind': gvk,
    responses: { '200': { description: 'OK', ...json } },
    ...extra,
  });
  const patchTypes = ['application/apply-patch+yaml', 'application/json-patch+json', 'application/merge-patch+json'];
  const base = `/${gvPath(s.rt)}${s.rt.namespaced ? '/namespaces/{namespace}' : ''}/${s.rt.plural}`;
  const nsParam = s.rt.namespaced ? [{ name: 'namespace', in: 'path', required: true, schema: { type: 'string' } }] : [];
  return {
    [base]: { parameters: nsParam, get: op('list'), post: op('post', { parameters: writeParams, requestBody: json }) },
    [`${base}/{name}`]: {
      parameters: [...nsParam, { name: 'name', in: 'path', required: true, schema: { type: 'string' } }],
      get: op('get'),
      put: op('put', { parameters: writeParams, requestBody: json }),
      patch: op('patch', {
        parameters: writeParams,
        requestBody: { content: Object.fromEntries(patchTypes.map((t) => [t, { schema: { type: 'object' } }])) },
      }),
      delete: op('delete'),
    },
  };
}

function v3Document(st: ServerState, gv: string, types: readonly Served[]): Record<string, unknown> {
  const here = types.filter((s) => gvPath(s.rt) === gv);
  return {
    openapi: '3.0.0',
    info: { title: 'svc-conformance reference server', version: 'v1.24.0' },
    paths: Object.assign({}, ...here.map(pathsOf)),
    components: { schemas: { 'meta.v1.ObjectMeta': objectMeta(st.profile), ...Object.fromEntries(here.map((s) => [s.name, s.schema])) } },
  };
}

const hashOf = (doc: unknown) => createHash('sha256').update(JSON.stringify(doc)).digest('hex').slice(0, 32).toUpperCase();

/** Swagger 2.0 wants `#/definitions/...` references. */
const toV2Refs = (v: unknown): unknown => JSON.parse(JSON.stringify(v).replaceAll('#/components/schemas/', '#/definitions/'));

/** JSON is what this server writes; an Accept that rules it out gets 406. */
function acceptsJson(accept: string | undefined): boolean {
  if (accept === undefined || accept.trim() === '') return true;
  return parseAccept(accept).some((r) => r.q > 0 && (r.type === 'application/json' || r.type === '*/*' || r.type === 'application/*'));
}

/** The OpenAPI endpoints; undefined for every other path. */
export function serveOpenApi(st: ServerState, method: string | undefined, path: string, accept: string | undefined): Answer | undefined {
  if (path !== '/openapi/v2' && path !== '/openapi/v3' && !path.startsWith('/openapi/v3/')) return undefined;
  if (method !== 'GET') return statusAnswer(405, 'MethodNotAllowed', `${method ?? ''} is not supported on ${path}`);
  if (!acceptsJson(accept))
    return statusAnswer(406, 'NotAcceptable', `the OpenAPI documents are served as application/json only, not ${accept ?? ''}`);
  const types = servedTypes(st);
  if (path === '/openapi/v2') {
    const paths = Object.assign({}, ...types.map(pathsOf));
    return {
      status: 200,
      body: toV2Refs({
        swagger: '2.0',
        info: { title: 'svc-conformance reference server', version: 'v1.24.0' },
        paths,
        definitions: { 'meta.v1.ObjectMeta': objectMeta(st.profile), ...Object.fromEntries(types.map((s) => [s.name, s.schema])) },
      }),
    };
  }
  const gvs = [...new Set(types.map((s) => gvPath(s.rt)))];
  if (path === '/openapi/v3') {
    return {
      status: 200,
      body: {
        paths: Object.fromEntries(
          gvs.map((gv) => [gv, { serverRelativeURL: `/openapi/v3/${gv}?hash=${hashOf(v3Document(st, gv, types))}` }]),
        ),
      },
    };
  }
  const gv = path.slice('/openapi/v3/'.length);
  if (!gvs.includes(gv)) return statusAnswer(404, 'NotFound', `no OpenAPI document for ${gv}`);
  return { status: 200, body: v3Document(st, gv, types) };
}
