/**
 * What the target answered, as data: every request of a counterexample with its
 * status and the parts a failure turns on: an object's name and resourceVersion; a list's version,
 * continue token, remainingItemCount and every item (name, resourceVersion) of every page; a watch's
 * events. Items the suite did not create (no run label of this run: a controller's, another
 * client's) are named as such, so a count that looks right or wrong can be read against them.
 */
import { queryToString, type Exchange } from '../transport/index.ts';
import { JsonDocumentStream } from '../transport/index.ts';
import { redactText } from '../transport/index.ts';
import type { AnswerData } from '../../reference/answer-checks.ts';

export interface ObservedItem {
  readonly namespace?: string;
  readonly name: string;
  readonly resourceVersion?: string;
  /** Present: the item carries no run label of this run (the suite did not create it). */
  readonly notCreatedBySuite?: true;
}

export interface ObservedEvent {
  readonly type: string;
  readonly name?: string;
  readonly resourceVersion?: string;
  readonly notCreatedBySuite?: true;
}

export interface ObservedAnswer {
  /** Index of the request in the counterexample (and in its reproducer). */
  readonly request: number;
  /** `GET /api/v1/namespaces/x/configmaps?limit=1` */
  readonly call: string;
  /** Absent: no answer (a transport error, or a setup step this case did not send itself). */
  readonly status?: number;
  readonly setup?: true;
  readonly kind?: string;
  readonly name?: string;
  readonly resourceVersion?: string;
  readonly continue?: string;
  readonly remainingItemCount?: number;
  readonly items?: readonly ObservedItem[];
  /** Items beyond the first MAX_ITEMS, left out of `items`. */
  readonly itemsLeftOut?: number;
  readonly events?: readonly ObservedEvent[];
}

const MAX_ITEMS = 500;

type Meta = {
  name?: unknown;
  namespace?: unknown;
  resourceVersion?: unknown;
  labels?: Record<string, unknown>;
  continue?: unknown;
  remainingItemCount?: unknown;
};
const metaOf = (v: unknown): Meta => (typeof v === 'object' && v !== null ? (((v as { metadata?: unknown }).metadata ?? {}) as Meta) : {});
const str = (v: unknown): string | undefined => (typeof v === 'string' ? v : undefined);

/** The documents of a streamed body (a watch), in order. */
export function documentsOf(text: string): unknown[] {
  return new JsonDocumentStream().push(text);
}

const isWatch = (e: Exchange): boolean => (e.request.query ?? []).some(([k, v]) => k === 'watch' && (v === '1' || v === 'true'));

/** An answer in the evaluator's terms (reference/answer-checks.ts). */
export function answerData(e: Exchange): AnswerData | undefined {
  if (!e.response) return undefined;
  const r = e.response;
  return { status: r.status, headers: r.headers, body: r.json ?? r.bodyText, events: isWatch(e) ? documentsOf(r.bodyText) : undefined };
}

/** `ours`: whether an object's labels mark it as this run's (the run label with the run id). */
export function observedAnswers(
  exchanges: readonly Exchange[],
  ours: (labels: Record<string, unknown> | undefined) => boolean,
): ObservedAnswer[] {
  return exchanges.map((e, request): ObservedAnswer => {
    const call = redactText(`${e.request.method} ${e.request.path}${queryToString(e.request.query)}`);
    if (!e.response) return { request, call, setup: e.seq === 0 ? true : undefined };
    const r = e.response;
    const item = (o: unknown): ObservedItem => {
      const m = metaOf(o);
      return {
        namespace: str(m.namespace),
        name: str(m.name) ?? '',
        resourceVersion: str(m.resourceVersion),
        notCreatedBySuite: ours(m.labels) ? undefined : true,
      };
    };
    if (isWatch(e)) {
      const events = documentsOf(r.bodyText).map((d): ObservedEvent => {
        const type = str((d as { type?: unknown }).type) ?? '?';
        const o = (d as { object?: unknown }).object;
        const m = metaOf(o);
        return {
          type,
          name: str(m.name),
          resourceVersion: str(m.resourceVersion),
          notCreatedBySuite: type !== 'BOOKMARK' && !ours(m.labels) ? true : undefined,
        };
      });
      return { request, call, status: r.status, events };
    }
    const j = r.json as { kind?: unknown; items?: unknown } | undefined;
    if (typeof j !== 'object' || j === null) return { request, call, status: r.status };
    const m = metaOf(j);
    const base = {
      request,
      call,
      status: r.status,
      kind: str(j.kind),
      resourceVersion: str(m.resourceVersion),
    };
    if (Array.isArray(j.items)) {
      const items = j.items.slice(0, MAX_ITEMS).map(item);
      return {
        ...base,
        // An empty continue token is the last page's: shown as none.
        continue: str(m.continue) || undefined,
        remainingItemCount: typeof m.remainingItemCount === 'number' ? m.remainingItemCount : undefined,
        items,
        itemsLeftOut: j.items.length > MAX_ITEMS ? j.items.length - MAX_ITEMS : undefined,
      };
    }
    return { ...base, name: str(m.name) };
  });
}
