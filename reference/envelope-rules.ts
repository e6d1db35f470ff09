/**
 * rest:2.3 and rest:2.4 as judges over single objects and collections, and the rules that relate a
 * write's answer to what the model already knows (uid stability, new resourceVersions).
 */
import { apiVersionOf, listKindOf, type ResourceType } from './resources.ts';
import { contentMismatch, type Content, type ObjectVersion, type ObservedObject } from './objects.ts';
import { pass, rule, type ClauseId, type Judgement } from './judgement.ts';
import type { AnswerNeed } from './answer-checks.ts';

const isNonEmptyString = (v: unknown): v is string => typeof v === 'string' && v.length > 0;
const show = (v: unknown): string => (v === undefined ? 'absent' : JSON.stringify(v));

/**
 * How a judge treats server-generated metadata (uid, creationTimestamp, resourceVersion) it finds
 * absent: `judge` fails it; `elsewhere` leaves it to the one check that judges generated metadata
 * (generated-metadata), so a target that generates none fails those clauses once and every other
 * check goes on to judge what it is about.
 */
export type AbsentGenerated = 'judge' | 'elsewhere';

/** rest:2.3 and rest:2.8: uid, creationTimestamp and resourceVersion are set by the server on every stored object. */
export function judgeGeneratedPresent(o: ObservedObject, absent: AbsentGenerated = 'judge'): Judgement[] {
  const rules: [ClauseId, unknown, string, string][] = [
    ['rest:2.3/metadata.uid', o.uid, 'a non-empty metadata.uid', 'metadata.uid'],
    ['rest:2.3/metadata.creationTimestamp', o.creationTimestamp, 'metadata.creationTimestamp set by the server', 'creationTimestamp'],
    ['rest:2.3/metadata.resourceVersion', o.rv, 'a non-empty metadata.resourceVersion', 'resourceVersion'],
  ];
  return rules
    .filter(([, v]) => absent === 'judge' || isNonEmptyString(v))
    .map(([clause, v, expected, field]) =>
      rule(clause, isNonEmptyString(v), expected, `${field} ${show(v)}`, {
        needs: [needPresent(`the answer carries ${expected}`, ['metadata', PATH_OF[field]!])],
      }),
    );
}

const PATH_OF: Record<string, string> = {
  'metadata.uid': 'uid',
  creationTimestamp: 'creationTimestamp',
  resourceVersion: 'resourceVersion',
};
const needPresent = (says: string, path: readonly string[]): AnswerNeed => ({
  says,
  test: { kind: 'value', at: 'judged', path, present: true },
});

/**
 * rest:2.8: a persisted object has the values the server generates at persist time: uid,
 * creationTimestamp, resourceVersion, and, for a create with generateName, a name extending the prefix.
 *   judgeGeneratedAtPersist({ uid: undefined, ... }) -> fail: "generated: none of uid, creationTimestamp"
 */
export function judgeGeneratedAtPersist(o: ObservedObject, generateName?: string): Judgement {
  const fields: [string, unknown][] = [
    ['uid', o.uid],
    ['creationTimestamp', o.creationTimestamp],
    ['resourceVersion', o.rv],
  ];
  const missing = fields.filter(([, v]) => !isNonEmptyString(v)).map(([f]) => f);
  const nameOk =
    generateName === undefined || (isNonEmptyString(o.name) && o.name.startsWith(generateName) && o.name.length > generateName.length);
  if (!nameOk) missing.push(`name from generateName ${JSON.stringify(generateName)} (got ${show(o.name)})`);
  const needs: AnswerNeed[] = [
    ...fields.map(([f]) => needPresent(`the created object carries a generated ${f}`, ['metadata', f])),
    ...(generateName === undefined
      ? []
      : [needPresent(`the created object carries the name generated from ${JSON.stringify(generateName)}`, ['metadata', 'name'])]),
  ];
  return rule(
    'rest:2.8',
    missing.length === 0,
    `the created object carries what the server generates at persist time: uid, creationTimestamp, resourceVersion${generateName === undefined ? '' : ', a name from generateName'}`,
    `missing: ${missing.join(', ')}`,
    { needs },
  );
}

/** A single object returned by get, create or update. */
export function judgeObjectEnvelope(
  rt: ResourceType,
  o: ObservedObject,
  want: { name: string; namespace: string | undefined },
  absent: AbsentGenerated = 'judge',
): Judgement[] {
  return [
    rule('rest:2.3/kind', o.kind === rt.kind, `kind ${rt.kind}`, `kind ${show(o.kind)}`),
    rule('rest:2.3/apiVersion', o.apiVersion === apiVersionOf(rt), `apiVersion ${apiVersionOf(rt)}`, `apiVersion ${show(o.apiVersion)}`),
    ...(rt.group === ''
      ? [rule('rest:9.1.1', o.apiVersion === 'v1', 'a core-group object says apiVersion v1', `apiVersion ${show(o.apiVersion)}`)]
      : []),
    rule('rest:2.3/metadata.name', o.name === want.name, `metadata.name ${JSON.stringify(want.name)}`, `metadata.name ${show(o.name)}`),
    rule(
      'rest:2.3/metadata.namespace',
      o.namespace === want.namespace,
      want.namespace === undefined
        ? 'no metadata.namespace on a cluster-scoped object'
        : `metadata.namespace ${JSON.stringify(want.namespace)}`,
      `metadata.namespace ${show(o.namespace)}`,
    ),
    ...judgeGeneratedPresent(o, absent),
  ];
}

export interface ObservedCollection {
  readonly kind?: unknown;
  readonly apiVersion?: unknown;
  readonly metadata?: unknown;
  readonly items?: unknown;
}

/**
 * rest:2.4.1 and rest:2.4.2: kind `<Kind>List`, the envelope fields, items of the one kind; rest:2.4.3:
 * never the bare `List`, which is a client's merge of several answers, not an API response.
 *   judgeCollectionEnvelope(configmaps, { kind: 'List', ... }) -> 2.4.1 fail, 2.4.3 fail
 */
export function judgeCollectionEnvelope(rt: ResourceType, c: ObservedCollection, absent: AbsentGenerated = 'judge'): Judgement[] {
  const md = typeof c.metadata === 'object' && c.metadata !== null ? (c.metadata as Record<string, unknown>) : undefined;
  const items = Array.isArray(c.items) ? (c.items as unknown[]) : undefined;
  // Upstream omits kind/apiVersion on items of built-in lists; when present they must be the one kind.
  const foreignItem = items?.find((it) => {
    const r = (typeof it === 'object' && it !== null ? it : {}) as Record<string, unknown>;
    return (r['kind'] !== undefined && r['kind'] !== rt.kind) || (r['apiVersion'] !== undefined && r['apiVersion'] !== apiVersionOf(rt));
  });
  return [
    // Judged on the answer just received (the list or page): its kind is the whole rule.
    rule('rest:2.4.1', c.kind === listKindOf(rt), `kind ${listKindOf(rt)}`, `kind ${show(c.kind)}`, {
      needs: [
        { says: `the list's kind is ${listKindOf(rt)}`, test: { kind: 'value', at: 'judged', path: ['kind'], equals: listKindOf(rt) } },
      ],
    }),
    rule('rest:2.4.3', c.kind !== 'List', 'a list response, so not the client-side kind List', `kind ${show(c.kind)}`),
    rule(
      'rest:2.4.2',
      c.apiVersion === apiVersionOf(rt) && md !== undefined && items !== undefined && foreignItem === undefined,
      `apiVersion ${apiVersionOf(rt)}, a metadata object, items: an array of ${rt.kind} only`,
      `apiVersion ${show(c.apiVersion)}, metadata ${md ? 'object' : show(c.metadata)}, items ${items ? `array of ${items.length}` : show(c.items)}${foreignItem ? `, an item of kind ${show((foreignItem as Record<string, unknown>)['kind'])}` : ''}`,
    ),
    ...(absent === 'judge' || isNonEmptyString(md?.['resourceVersion'])
      ? [
          rule(
            'rest:2.3/metadata.resourceVersion',
            isNonEmptyString(md?.['resourceVersion']),
            'collection metadata.resourceVersion set',
            `collection resourceVersion ${show(md?.['resourceVersion'])}`,
          ),
        ]
      : []),
  ];
}

/** What the model knows of generated values so far, to check that new ones are new and old ones stay. */
export interface LearnedValues {
  /** Every uid the suite has seen, with the key it belonged to. */
  readonly uids: ReadonlyMap<string, string>;
  /** Every resourceVersion returned for one of the suite's writes. */
  readonly writeRvs: ReadonlySet<string>;
}

/** rest:2.3 labels and annotations: string maps, stored as sent (keys the server adds are ignored). */
function labelsRule(o: ObservedObject, sent: Content, knownKeys: ReadonlySet<string>): Judgement {
  const m = contentMismatch(sent, { labels: o.labels, annotations: o.annotations, body: sent.body }, knownKeys);
  return rule('rest:2.3/metadata.labels', m === undefined, 'labels and annotations as sent', m ?? '');
}

/** A successful create: the object as sent, with a fresh uid and a resourceVersion no write had before. */
export function judgeCreated(o: ObservedObject, sent: Content, learned: LearnedValues, knownKeys: ReadonlySet<string>): Judgement[] {
  const owner = typeof o.uid === 'string' ? learned.uids.get(o.uid) : undefined;
  const mismatch = contentMismatch(sent, o, knownKeys);
  // An absent uid or resourceVersion is not fresh nor stale: its absence is judgeGeneratedPresent's.
  return [
    labelsRule(o, sent, knownKeys),
    rule('rest:4.1/post', mismatch === undefined, 'the created object carries the content sent', mismatch ?? ''),
    ...(isNonEmptyString(o.uid)
      ? [
          rule(
            'rest:2.3/metadata.uid',
            owner === undefined,
            'a uid never seen before (uids identify objects)',
            `uid ${show(o.uid)} already belonged to ${owner}`,
          ),
        ]
      : []),
    ...(isNonEmptyString(o.rv)
      ? [
          rule(
            'rest:2.3/metadata.resourceVersion',
            !learned.writeRvs.has(o.rv),
            'a resourceVersion no earlier write returned',
            `resourceVersion ${show(o.rv)} was returned by an earlier write`,
          ),
        ]
      : []),
  ];
}

/** A successful update: same identity, content as sent, a new resourceVersion when content changed. */
export function judgeUpdated(
  o: ObservedObject,
  before: ObjectVersion,
  sent: Content,
  learned: LearnedValues,
  knownKeys: ReadonlySet<string>,
): Judgement[] {
  const changed =
    contentMismatch(before.content, { labels: sent.labels, annotations: sent.annotations, body: sent.body }, knownKeys) !== undefined;
  const mismatch = contentMismatch(sent, o, knownKeys);
  // Stability of a value the target never generated is no observation (its absence is judgeGeneratedPresent's).
  const known = (v: unknown) => isNonEmptyString(v) && v !== 'undefined';
  const js: Judgement[] = [
    labelsRule(o, sent, knownKeys),
    rule('rest:4.1/put', mismatch === undefined, 'the stored object carries the content sent', mismatch ?? ''),
  ];
  if (known(before.uid) || known(o.uid))
    js.push(
      // The uid is the one an earlier answer carried: a reproducer compares with the one its own answers carried.
      rule(
        'rest:2.3/metadata.uid',
        o.uid === before.uid,
        `uid unchanged by an update (${before.uid})`,
        `uid ${show(o.uid)}`,
        before.uid === undefined
          ? undefined
          : {
              needs: [
                {
                  says: "the update keeps the object's uid",
                  test: { kind: 'value', at: 'judged', path: ['metadata', 'uid'], equals: before.uid },
                },
              ],
            },
      ),
    );
  if (known(before.creationTimestamp) || known(o.creationTimestamp))
    js.push(
      rule(
        'rest:2.3/metadata.creationTimestamp',
        o.creationTimestamp === before.creationTimestamp,
        `creationTimestamp unchanged by an update (${show(before.creationTimestamp)})`,
        `creationTimestamp ${show(o.creationTimestamp)}`,
      ),
    );
  if (!known(before.rv) && !known(o.rv)) return js;
  if (changed) {
    const fresh = typeof o.rv === 'string' && !learned.writeRvs.has(o.rv);
    js.push(
      rule(
        'rest:2.3/metadata.resourceVersion',
        fresh,
        'a modification yields a resourceVersion no earlier write returned',
        `resourceVersion ${show(o.rv)} (before: ${before.rv})`,
      ),
    );
  } else {
    // A write that changes nothing may keep the version (upstream does) or make a new one.
    js.push(pass('rest:2.3/metadata.resourceVersion', 'unchanged content: old or new resourceVersion'));
  }
  return js;
}
