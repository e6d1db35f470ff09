/**
 * Partial modes that break the run's own setup (`--fault NAME`): what a server under construction
 * lacks in the first requests a run sends. A mock server that stores objects "as is" never generates
 * uid, creationTimestamp or resourceVersion; a cluster may refuse the run's identity the creation of
 * namespaces. The run must judge everything else on such a target (docs/partial-targets.md): the
 * metadata is failed once, by the check of its own, and namespaces the user names (`--namespace`)
 * replace the run's own.
 */
import type { ClauseId } from '../../reference/catalog/clause-ids.ts';
import { isRecord } from '../../reference/objects.ts';
import { statusAnswer, type Answer } from './status.ts';

export interface SetupPartialMode {
  readonly name: string;
  /** The clause the missing feature breaks first, shown by `list-faults` ('-' when none: a refusal is legal). */
  readonly clause: ClauseId | '-';
  readonly description: string;
}

export const setupPartialModes = [
  {
    name: 'no-generated-metadata',
    clause: 'rest:2.8',
    description:
      'answers carry no metadata.uid, creationTimestamp or resourceVersion (objects, list items, watch events, collections): a mock server storing objects as sent',
  },
  {
    name: 'namespaces-not-creatable',
    clause: '-',
    description:
      'POST of a namespace answers 403 Forbidden, as to an identity refused namespace creation (the run then needs --namespace); namespaces named by --namespace exist from the start',
  },
] as const satisfies readonly SetupPartialMode[];

export type SetupPartialModeName = (typeof setupPartialModes)[number]['name'];

const GENERATED = ['uid', 'creationTimestamp', 'resourceVersion'] as const;

/** A body with every `metadata` object stripped of the server-generated fields (a Status is left alone). */
export function withoutGeneratedMetadata(body: unknown, depth = 0): unknown {
  if (depth > 16 || typeof body !== 'object' || body === null) return body;
  if (Array.isArray(body)) return body.map((x) => withoutGeneratedMetadata(x, depth + 1));
  if (body['kind' as keyof typeof body] === 'Status') return body;
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(body)) {
    if (k === 'metadata' && isRecord(v)) {
      const md: Record<string, unknown> = { ...v };
      for (const g of GENERATED) delete md[g];
      out[k] = md;
    } else out[k] = withoutGeneratedMetadata(v, depth + 1);
  }
  return out;
}

/** The answer as the mode shows it: 2xx bodies without generated metadata. */
export function stripGeneratedMetadata(answer: Answer): Answer {
  if (answer.status < 200 || answer.status > 299) return answer;
  return { ...answer, body: withoutGeneratedMetadata(answer.body) };
}

/** The refusal of a namespace create, worded as upstream's authorizer words it. */
export function namespaceCreateRefused(): Answer {
  return statusAnswer(
    403,
    'Forbidden',
    'namespaces is forbidden: the identity cannot create resource "namespaces" at the cluster scope (partial mode)',
  );
}
