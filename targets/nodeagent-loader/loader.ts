/**
 * The reference node-agent config loader: reads a NodeagentConfiguration or CredentialProviderConfig
 * file (YAML 1.1, as the agent's Go YAML reader does; JSON is YAML), validates it with the model,
 * and answers in the loader protocol (docs/architecture.md "Targets and protocols"): exit 0 accepted (stdout: the effective
 * configuration as JSON when asked), 1 rejected, 2 unreadable; with `output: 'json'` a rejection
 * prints `{"errors":[{"field","message","clause","line","column"}]}`. Where the spec leaves the outcome
 * open it accepts (as upstream does) and says so on stderr. Pure: the caller reads the file and writes
 * the streams, so self-tests run it in-process.
 */
import { LineCounter, parseDocument, isNode, type Document, type YAMLError } from 'yaml';
import type { Profile } from '../../reference/profile.ts';
import {
  configKind,
  effective,
  validateNodeagentConfig,
  withZerosUnset,
  type FieldError,
  type MinorVersion,
  type ValidationResult,
} from '../../reference/nodeagent/config.ts';
import { CREDENTIAL_PROVIDER_KIND, validateCredentialProviderConfig } from '../../reference/nodeagent/credential-provider.ts';
import { isRecord } from '../../reference/nodeagent/config-types.ts';
import { configFields, nameIn, type FieldSpec } from '../../reference/nodeagent/config-fields.ts';
import { parseGoDuration } from '../../reference/nodeagent/duration.ts';
import { pathSegments } from '../../reference/nodeagent/field-path.ts';
import { nodeagentFault, type NodeagentFaultName } from './faults.ts';
import type { NodeagentVariationName } from './variations.ts';
import { stringify } from 'yaml';
import { tableClauseId } from '../../reference/catalog/clause-id.ts';

export interface LoaderOptions {
  readonly profile: Profile;
  readonly fileName: string;
  readonly output?: 'text' | 'json';
  /** Print the effective configuration on acceptance. */
  readonly effective?: boolean;
  readonly faults?: readonly NodeagentFaultName[];
  readonly variations?: readonly NodeagentVariationName[];
  readonly version?: MinorVersion;
  /**
   * Refuse unknown fields (the `nodeagent validate` command's default, a validator's job: a typo is
   * never silently ignored). The spec leaves them open, so the loader of a conformance run keeps them
   * notes, and `--lenient` does too.
   */
  readonly refuseUnknownFields?: boolean;
}

export interface LoaderResult {
  readonly exitCode: 0 | 1 | 2;
  readonly stdout: string;
  readonly stderr: string;
}

export interface Located extends FieldError {
  readonly line?: number;
  readonly column?: number;
}

/** Line and column of the deepest node of the path that exists in the document. */
function locate(doc: Document, lc: LineCounter, path: string): { line: number; column: number } | undefined {
  const segs = pathSegments(path);
  for (let n = segs.length; n >= 0; n--) {
    const node = n === 0 ? doc.contents : doc.getIn(segs.slice(0, n), true);
    if (isNode(node) && node.range) {
      const pos = lc.linePos(node.range[0]);
      return { line: pos.line, column: pos.col };
    }
  }
  return undefined;
}

function applyOutputFaults(faults: ReadonlySet<string>, doc: Record<string, unknown>, eff: Record<string, unknown>): void {
  for (const name of faults) {
    const change = nodeagentFault(name)?.defaultChange;
    if (change !== undefined) changeDefault(change.path, change.value, doc, eff);
  }
  if (faults.has('report-frequency-ignores-update') && doc.nodeStatusReportFrequency === undefined) eff.nodeStatusReportFrequency = '5m0s';
  if (faults.has('max-pods-default-100') && doc.maxPods === undefined) eff.maxPods = 100;
  if (faults.has('token-cache-default-5m')) {
    const auth = eff.authentication as { webhook?: Record<string, unknown> } | undefined;
    const given = (doc.authentication as { webhook?: { cacheTTL?: unknown } } | undefined)?.webhook?.cacheTTL;
    if (auth?.webhook && given === undefined) auth.webhook.cacheTTL = '5m0s';
  }
}

/** Faults `default-changed/<path>`: the field at `path` (svc spellings) printed as `value` when the file leaves it out. */
function changeDefault(path: readonly string[], value: unknown, doc: Record<string, unknown>, eff: Record<string, unknown>): void {
  let given: unknown = doc;
  let printed: unknown = eff;
  for (const key of path.slice(0, -1)) {
    given = isRecord(given) ? given[key] : undefined;
    printed = isRecord(printed) ? printed[key] : undefined;
  }
  const last = path[path.length - 1]!;
  if (isRecord(printed) && !(isRecord(given) && given[last] !== undefined)) printed[last] = value;
}

function extraFaultErrors(faults: ReadonlySet<string>, doc: Record<string, unknown>): FieldError[] {
  const out: FieldError[] = [];
  if (faults.has('burst-needs-qps') && doc.registryPullQPS === 0 && typeof doc.registryBurst === 'number' && doc.registryBurst > 0) {
    out.push({ field: 'registryBurst', clause: 'node:2.2/registryBurst', message: 'registryBurst needs registryPullQPS > 0' });
  }
  if (faults.has('sub-second-shutdown-refused') && typeof doc.shutdownGracePeriod === 'string') {
    const d = parseGoDuration(doc.shutdownGracePeriod);
    if (d.ok && d.nanos > 0n && d.nanos < 1_000_000_000n)
      out.push({
        field: 'shutdownGracePeriod',
        clause: 'node:2.2/shutdownGracePeriod',
        message: 'shutdownGracePeriod must be either zero or otherwise >= 1 sec',
      });
  }
  if (faults.has('gate-default-off')) {
    for (const f of ['qosReserved', 'memoryThrottlingFactor', 'cpuManagerPolicyOptions']) {
      if (doc[f] !== undefined && !(isRecord(doc[f]) && Object.keys(doc[f]).length === 0))
        out.push({ field: f, clause: tableClauseId(`node:2.2/${f}`), message: `${f} needs a feature gate` });
    }
  }
  return out;
}

/** The same values written the way upstream's structs print them (the `upstream-spellings` variation). */
function upstreamSpellings(eff: Record<string, unknown>, p: Profile): Record<string, unknown> {
  const seconds = (v: unknown): unknown => {
    const d = typeof v === 'string' ? parseGoDuration(v) : undefined;
    return d?.ok && d.nanos % 1_000_000_000n === 0n ? `${d.nanos / 1_000_000_000n}s` : v;
  };
  const walk = (fields: readonly FieldSpec[], v: Record<string, unknown>, top: boolean): Record<string, unknown> => {
    const out: Record<string, unknown> = { ...v };
    for (const f of fields) {
      const k = top ? nameIn(f, p) : f.name;
      if (out[k] === undefined) continue;
      if (f.type.kind === 'scalar' && f.type.scalar === 'duration') out[k] = seconds(out[k]);
      else if (f.type.kind === 'object' && isRecord(out[k])) out[k] = walk(f.type.fields, out[k] as Record<string, unknown>, false);
    }
    return out;
  };
  const out = walk(configFields, eff, true);
  if (out.containerLogMaxSize === '10Mi') out.containerLogMaxSize = '10485760';
  if (out.cpuManagerPolicy === 'None') out.cpuManagerPolicy = 'none';
  if (out.memoryManagerPolicy === 'none') out.memoryManagerPolicy = 'None';
  return out;
}

/** Go's omitempty: false, 0, "" and empty lists or maps left out, recursively. */
function omitZero(v: unknown): unknown {
  if (Array.isArray(v)) return v.map(omitZero);
  if (!isRecord(v)) return v;
  const out: Record<string, unknown> = {};
  for (const [k, x] of Object.entries(v)) {
    const y = omitZero(x);
    if (y === false || y === 0 || y === '' || y === null || (Array.isArray(y) && y.length === 0)) continue;
    out[k] = y;
  }
  return out;
}

/** Planted fault int32-wraps: top-level int32 fields are cut to 32 bits, two's complement. */
function wrapInt32(doc: Record<string, unknown>, p: Profile): Record<string, unknown> {
  const out = { ...doc };
  for (const f of configFields) {
    const k = nameIn(f, p);
    const v = out[k];
    if (f.type.kind !== 'scalar' || f.type.scalar !== 'int32' || typeof v !== 'number' || !Number.isInteger(v)) continue;
    out[k] = Number(BigInt.asIntN(32, BigInt(v)));
  }
  return out;
}

/** A file that is no YAML: exit 2, the parser's first error at its line and column. */
function malformedYaml(first: YAMLError, o: LoaderOptions): LoaderResult {
  const pos = first.linePos?.[0];
  const where = pos ? `${o.fileName}:${pos.line}:${pos.col}` : o.fileName;
  const message = first.message.split('\n')[0]!.replace(/ at line \d+, column \d+:?$/, '');
  return {
    exitCode: 2,
    stdout:
      o.output === 'json'
        ? JSON.stringify({
            errors: [{ field: '', message: `malformed YAML: ${message}`, ...(pos ? { line: pos.line, column: pos.col } : {}) }],
          }) + '\n'
        : '',
    stderr: `${where}: malformed YAML: ${message}\n`,
  };
}

/** `refuseUnknownFields` (`nodeagent validate`'s default): an unknown field, which the spec leaves open, becomes an error. */
function refusingUnknownFields(result: ValidationResult): ValidationResult {
  const unknown = (u: FieldError) => /^unknown field /.test(u.message);
  return {
    errors: [
      ...result.errors,
      ...result.unspecified.filter(unknown).map((u) => ({
        ...u,
        message: `${u.message.replace(/: the spec does not say whether unknown fields are refused$/, '')} (refused; --lenient accepts unknown fields, which the spec leaves open)`,
      })),
    ],
    unspecified: result.unspecified.filter((u) => !unknown(u)),
  };
}

export function runReferenceLoader(text: string, o: LoaderOptions): LoaderResult {
  const lc = new LineCounter();
  const doc = parseDocument(text, { lineCounter: lc, version: '1.1', uniqueKeys: true });
  const first = doc.errors[0];
  if (first) return malformedYaml(first, o);
  let value: unknown;
  try {
    value = doc.toJS({ maxAliasCount: 100 });
  } catch (e) {
    return { exitCode: 2, stdout: '', stderr: `${o.fileName}: unreadable: ${(e as Error).message}\n` };
  }
  const faults = new Set<string>(o.faults ?? []);
  const skip = new Set<string>();
  for (const name of faults) for (const s of nodeagentFault(name)?.skip ?? []) skip.add(s);

  const vary = new Set<string>(o.variations ?? []);
  // Go's defaulting cannot tell an explicit zero from an absent field: read such zeros as unset.
  if (vary.has('zero-as-unset') && isRecord(value) && value.kind === configKind(o.profile))
    value = withZerosUnset(value, o.profile) ?? value;
  if (faults.has('int32-wraps') && isRecord(value) && value.kind === configKind(o.profile)) value = wrapInt32(value, o.profile);
  const judged = validateByKind(value, o, faults, skip);
  let result = judged.result;
  const isConfig = judged.isConfig;

  if (o.refuseUnknownFields === true) result = refusingUnknownFields(result);
  if (vary.has('strict-open') && result.errors.length === 0 && result.unspecified.length > 0)
    result = { errors: result.unspecified, unspecified: [] };
  if (vary.has('all-paths'))
    result = {
      errors: result.errors.flatMap((e) => [...(e.related ?? []).map((field) => ({ ...e, field })), e]),
      unspecified: result.unspecified,
    };

  const located = (e: FieldError): Located => {
    const field = faults.has('nested-paths-top-level')
      ? (pathSegments(e.field)[0]?.toString() ?? '')
      : vary.has('list-paths')
        ? e.field.replace(/\[\d+\]$/, '')
        : e.field;
    return { ...e, field, ...locate(doc, lc, e.field) };
  };
  const line = (e: Located, note: string) =>
    `${o.fileName}${e.line !== undefined ? `:${e.line}:${e.column}` : ''}: ${note}${e.field === '' ? '' : `${e.field}: `}${e.message} (${e.clause})\n`;
  const notes = result.unspecified.map((u) => line(located(u), 'note (spec leaves this open, accepted): ')).join('');

  if (result.errors.length > 0) {
    const errs = result.errors.map(located);
    const stdout =
      o.output === 'json' && !vary.has('no-output')
        ? `${JSON.stringify({ errors: errs.map((e) => ({ field: e.field, message: e.message, clause: e.clause, ...(e.line !== undefined ? { line: e.line, column: e.column } : {}) })) })}\n`
        : '';
    return { exitCode: 1, stdout, stderr: errs.map((e) => line(e, '')).join('') + notes };
  }
  let stdout = '';
  if (o.effective && isRecord(value) && !vary.has('no-output')) {
    let eff = isConfig ? effective(value, o.profile) : value;
    if (isConfig) applyOutputFaults(faults, value, eff);
    if (vary.has('omit-zero')) eff = omitZero(eff) as Record<string, unknown>;
    if (vary.has('upstream-spellings') && isConfig) eff = upstreamSpellings(eff, o.profile);
    stdout = vary.has('yaml-output')
      ? stringify(eff, { version: '1.1' })
      : `${JSON.stringify(eff, null, o.output === 'json' ? undefined : 2)}\n`;
  }
  return { exitCode: 0, stdout, stderr: notes };
}

/** The file's rules by its kind: a credential provider config, a node-agent config, or a kind of neither. */
function validateByKind(
  value: unknown,
  o: LoaderOptions,
  faults: ReadonlySet<string>,
  skip: Set<string>,
): { result: ValidationResult; isConfig: boolean } {
  const kind = isRecord(value) ? value.kind : undefined;
  let result: ValidationResult;
  let isConfig = true;
  if (kind === CREDENTIAL_PROVIDER_KIND) {
    isConfig = false;
    result = validateCredentialProviderConfig(value, o.profile, { skip });
    // Faults credential-rule-skipped/<field>: that field's errors dropped, the others kept.
    result = { ...result, errors: result.errors.filter((e) => !skip.has(`clause:${e.clause}`)) };
  } else if (isRecord(value) && kind !== configKind(o.profile) && !skip.has('kind')) {
    const named = kind === undefined ? 'no kind' : `kind ${JSON.stringify(kind)}`;
    result = {
      errors: [
        { field: 'kind', clause: 'node:2.2/kind', message: `${named}: expected ${configKind(o.profile)} or ${CREDENTIAL_PROVIDER_KIND}` },
      ],
      unspecified: [],
    };
  } else {
    result = validateNodeagentConfig(value, o.profile, { skip, version: o.version });
    if (isRecord(value)) result = { errors: [...result.errors, ...extraFaultErrors(faults, value)], unspecified: result.unspecified };
  }
  return { result, isConfig };
}
