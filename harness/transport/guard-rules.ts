/**
 * What the guard (guard.ts) reads of a request before it lets a write through: the run's identity,
 * the path parsed into group, namespace, resource and name, and whether a body or a selector carries
 * the run's label.
 */
import type { TargetRequest } from './exchange.ts';

export interface RunIdentity {
  readonly runId: string;
  /** profile.runLabel */
  readonly labelKey: string;
  /** `svc-conformance-<runId>` */
  readonly namespacePrefix: string;
  /**
   * Namespaces the user named (`--namespace`): the run writes in them, but only objects that carry
   * its label, and never changes or deletes the namespace itself (docs/partial-targets.md).
   */
  readonly givenNamespaces?: readonly string[];
}

export function runIdentity(runId: string, labelKey: string, givenNamespaces?: readonly string[]): RunIdentity {
  return {
    runId,
    labelKey,
    namespacePrefix: `svc-conformance-${runId}`,
    givenNamespaces: givenNamespaces?.length ? givenNamespaces : undefined,
  };
}

/** Resources whose POST evaluates a question and stores nothing. */
export const REVIEW_RESOURCES = new Set([
  'tokenreviews',
  'subjectaccessreviews',
  'selfsubjectaccessreviews',
  'selfsubjectrulesreviews',
  'selfsubjectreviews',
  'localsubjectaccessreviews',
]);

export interface ParsedPath {
  /** `/api/v1` or `/apis/g/v` */
  readonly prefix: string;
  /** API group ('' for core): creations are remembered per group, whatever the version. */
  readonly group: string;
  readonly namespace?: string;
  readonly resource: string;
  readonly name?: string;
  readonly subresource: readonly string[];
}

export function parsePath(path: string): ParsedPath | string {
  if (!path.startsWith('/')) return 'path does not start with /';
  const raw = path.slice(1).split('/');
  const seg: string[] = [];
  for (const s of raw) {
    let d: string;
    try {
      d = decodeURIComponent(s);
    } catch {
      return `malformed percent-encoding in ${JSON.stringify(s)}`;
    }
    // Anything a server or proxy might normalise could escape the namespace the guard checked.
    if (d === '' || d === '.' || d === '..' || d.includes('/')) return 'path has empty, dot or encoded-slash segments';
    seg.push(d);
  }
  let prefix: string;
  let group: string;
  let rest: string[];
  if (seg[0] === 'api' && seg.length >= 3) {
    prefix = `/api/${seg[1]}`;
    group = '';
    rest = seg.slice(2);
  } else if (seg[0] === 'apis' && seg.length >= 4) {
    prefix = `/apis/${seg[1]}/${seg[2]}`;
    group = seg[1] ?? '';
    rest = seg.slice(3);
  } else {
    return 'not a resource path';
  }
  const [first, second, third, fourth, ...more] = rest;
  if (first === undefined) return 'not a resource path';
  if (first === 'namespaces' && second !== undefined && third !== undefined) {
    return { prefix, group, namespace: second, resource: third, name: fourth, subresource: more };
  }
  return { prefix, group, resource: first, name: second, subresource: rest.slice(2) };
}

export function bodyObject(body: unknown): Record<string, unknown> | undefined {
  let b = body;
  if (typeof b === 'string') {
    try {
      b = JSON.parse(b) as unknown;
    } catch {
      return undefined;
    }
  }
  return b !== null && typeof b === 'object' && !Array.isArray(b) ? (b as Record<string, unknown>) : undefined;
}

export function metadataOf(body: unknown): Record<string, unknown> | undefined {
  const m = bodyObject(body)?.metadata;
  return m !== null && typeof m === 'object' && !Array.isArray(m) ? (m as Record<string, unknown>) : undefined;
}

export function carriesRunLabel(body: unknown, run: RunIdentity): boolean {
  const labels = metadataOf(body)?.labels;
  if (labels === null || typeof labels !== 'object') return false;
  return Object.hasOwn(labels, run.labelKey) && (labels as Record<string, unknown>)[run.labelKey] === run.runId;
}

export function stringField(o: Record<string, unknown> | undefined, k: string): string | undefined {
  const v = o?.[k];
  return typeof v === 'string' && v !== '' ? v : undefined;
}

/** A collection request whose label selector requires the run's label (it can select only the run's objects). */
export function selectsRun(req: TargetRequest, run: RunIdentity): boolean {
  const sel = (req.query ?? []).filter(([k]) => k === 'labelSelector').map(([, v]) => v);
  return sel.length === 1 && sel[0]!.split(',').some((term) => term.trim() === `${run.labelKey}=${run.runId}`);
}

/** `<prefix>` itself or `<prefix>-...`: a bare startsWith would also accept run `abc`'s names for run `ab`. */
export function isRunNamespaceName(name: string, run: RunIdentity): boolean {
  return name === run.namespacePrefix || name.startsWith(`${run.namespacePrefix}-`);
}

export const clusterKey = (group: string, resource: string, name: string): string => `${group}/${resource}/${name}`;
