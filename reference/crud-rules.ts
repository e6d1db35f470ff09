/**
 * The verdicts of the CRUD and read interpreter (harness/interpreters/rest-interpreter.ts) and of the rest-crud
 * checks, as judges of plain observations: statuses, keys, ages. The harness sends, reads and learns;
 * every pass, fail, unspecified or inconclusive below is the model's.
 *
 *   judgeCreate({ key: 'ns/a', reused: false, status: 201, body: '' }) -> [pass rest:4.1/post]
 *   judgeContinueGone(1200, 1500) -> [fail rest:4.4.4: a token 1200 ms old is still valid]
 */
import { fail, inconclusive, pass, rule, unspecified, type Judgement } from './judgement.ts';
import { mayHaveBeenCompacted, type History } from './history.ts';
import { judgeRemaining, type ObservedPage } from './read-oracle.ts';
import { statusAccepted, type Decision } from './rv-semantics.ts';
import type { ClauseId } from './catalog/clause-ids.ts';
import { needStatus, needStatusClass } from './answer-checks.ts';

const is2xx = (s: number) => s >= 200 && s < 300;
const is4xx = (s: number) => s >= 400 && s < 500;

/** A namespace the case creates for itself (rest:4.1/post). */
export function judgeNamespaceCreated(status: number): Judgement[] {
  return [
    rule('rest:4.1/post', is2xx(status), 'a new namespace is created (2xx)', `status ${status}`, {
      needs: [needStatusClass('the namespace create succeeds (2xx)', 2)],
    }),
  ];
}

/** Whether a name is free again while its object may still be terminating is not shown (rest:3.1). */
export function judgeCreateOfTerminatingName(status: number): Judgement[] {
  return [unspecified('rest:2.2.2', 'reuse of a name whose object may still be terminating: not shown', `status ${status}`)];
}

/** One name, one object: repeating a create must not make a second one or replace the first (rest:2.2.1-2). */
export function judgeDuplicateCreate(key: string, status: number): Judgement[] {
  const refused = is4xx(status);
  return [
    rule('rest:2.2.2', refused, `create of an existing name ${key} refused (4xx)`, `status ${status}`, {
      needs: [needStatusClass(`the create of the existing name ${key} is refused (4xx)`, 4)],
    }),
    rule('rest:2.2.1', refused, `a repeated create of ${key} is refused (names make creation idempotent)`, `status ${status}`, {
      needs: [needStatusClass(`the repeated create of ${key} is refused (4xx)`, 4)],
    }),
  ];
}

/** A create of a free name (or one freed by deletion, rest:2.2.2) succeeds. */
export function judgeCreate(o: { key: string; reused: boolean; status: number; body: string }): Judgement[] {
  const clause = o.reused ? 'rest:2.2.2' : 'rest:4.1/post';
  const expected = o.reused ? `create succeeds: the name ${o.key} was freed by deletion` : `create of ${o.key} succeeds (2xx)`;
  return [rule(clause, is2xx(o.status), expected, `status ${o.status} ${o.body.slice(0, 160)}`, { needs: [needStatusClass(expected, 2)] })];
}

/** An update at the object's current resourceVersion succeeds (rest:4.1/put). */
export function judgeUpdate(o: { key: string; status: number; body: string }): Judgement[] {
  const expected = `update of ${o.key} at its current resourceVersion succeeds (2xx)`;
  return [
    rule('rest:4.1/put', is2xx(o.status), expected, `status ${o.status} ${o.body.slice(0, 160)}`, {
      needs: [needStatusClass(expected, 2)],
    }),
  ];
}

/** A delete of a live object is accepted (rest:4.1/delete). */
export function judgeDeleteAccepted(key: string, status: number): Judgement[] {
  return [
    rule('rest:4.1/delete', is2xx(status), `delete of ${key} accepted (2xx)`, `status ${status}`, {
      needs: [needStatusClass(`the delete of ${key} is accepted (2xx)`, 2)],
    }),
  ];
}

/**
 * A read right after an accepted delete of an object without finalizers: removed at once or left
 * Terminating are both allowed (rest:3.1: "not shown"), and the model learns which.
 */
export function judgeAfterDelete(
  key: string,
  probe: { status: number; deletionTimestamp: unknown },
): { judgements: Judgement[]; removed: boolean } {
  if (is4xx(probe.status))
    return {
      removed: true,
      judgements: [unspecified('rest:3.1/no-finalizers-not-shown', 'deletion without finalizers: not shown', 'removed at once')],
    };
  return {
    removed: false,
    judgements: [
      rule(
        'rest:3.1/live-to-terminating',
        is2xx(probe.status) && typeof probe.deletionTimestamp === 'string',
        `after an accepted delete ${key} is removed or Terminating (deletionTimestamp set)`,
        `status ${probe.status}, deletionTimestamp ${JSON.stringify(probe.deletionTimestamp)}`,
      ),
      unspecified('rest:3.1/no-finalizers-not-shown', 'deletion without finalizers: not shown', 'left Terminating'),
    ],
  };
}

/**
 * 410 Gone on an Exact read is acceptable only if the version may have left the target's history
 * (older than the window it is configured with); younger versions must be served (rest:6.1.4).
 */
export function judgeGoneForExact(h: History, index: number | undefined, clause: ClauseId, nowMs: number, windowMs: number): Judgement[] {
  const at = index === undefined ? undefined : h.snapshots[index]?.atMs;
  const age = at === undefined ? Infinity : nowMs - at;
  const mayBeGone = index === undefined || mayHaveBeenCompacted(h, index, nowMs, windowMs);
  return mayBeGone
    ? [
        pass('rest:7/410', '410 Gone for a version older than the retained history'),
        pass(clause, 'Exact: the snapshot or 410 Gone once it may have been dropped'),
      ]
    : [
        fail('rest:6.1.4', `a version ${Math.round(age)} ms old is still retained (history window ${windowMs} ms)`, '410 Gone'),
        fail(clause, 'the exact snapshot', '410 Gone for a version the target must still retain'),
      ];
}

/** rest:4.1 path shapes (and the core group's) exercised by a read the model accepted. */
export function pathClauses(coreGroup: boolean, shape: 'object' | 'collection' | 'all'): Judgement[] {
  const clause =
    shape === 'object'
      ? 'rest:4.1/get-namespaced-object'
      : shape === 'collection'
        ? 'rest:4.1/get-namespaced-collection'
        : 'rest:4.1/get-collection';
  const js = [pass(clause, 'the path shape of rest:4.1 answers as the model predicts')];
  if (coreGroup) js.push(pass('rest:4.1/get-core', 'the core group serves the same shapes under /api/v1'));
  return js;
}

/** rest:4.3 rows of the parameters a read used, once the model accepted the answer. */
export function queryClauses(used: ReadonlySet<string>, pages: number): Judgement[] {
  const js: Judgement[] = [];
  for (const [k, clause] of [
    ['resourceVersion', 'rest:4.3/resourceVersion'],
    ['resourceVersionMatch', 'rest:4.3/resourceVersionMatch'],
    ['limit', 'rest:4.3/limit'],
  ] as const) {
    if (used.has(k)) js.push(pass(clause, `${k} honoured as rest:4.4/4.5 say`));
  }
  if (pages > 1)
    js.push(pass('rest:4.3/continue', 'continue tokens lead through the snapshot'), pass('rest:4.4.5', 'chunking is available'));
  return js;
}

/**
 * A list (or continuation) whose rest:4.5 decision is not to serve it: the cell's refusal, or the
 * model's "unspecified". `undefined` when the decision is to serve: the caller judges the answer.
 * `continuation`: a continue request, whose 400 cell is also rest:7/400.
 */
export function judgeListDecision(d: Decision, status: number): Judgement[] | undefined {
  if (d.outcome === 'serve') return undefined;
  if (d.outcome === 'unspecified') return [unspecified(d.clause, d.why, `status ${status}`)];
  const ok = statusAccepted(d.statuses, status);
  const expected = d.statuses === '4xx' ? 'refused as invalid (any 4xx)' : `status ${d.statuses.join(' or ')}`;
  const needs = {
    needs: [
      d.statuses === '4xx'
        ? needStatusClass(`the list is ${expected}`, 4)
        : needStatus(`the list is answered with ${expected}`, d.statuses),
    ],
  };
  return [
    rule(d.clause, ok, expected, `status ${status}`, needs),
    rule(d.statuses === '4xx' ? 'rest:4.3/resourceVersionMatch' : 'rest:7/400', ok, expected, `status ${status}`, needs),
  ];
}

/**
 * A served list or page answered with a status that is no list (the model already ruled out 410 and 504
 * where allowed). The failure is the status: a list served instead is gone from it, and its items are
 * judged as any list's, so the need is the 2xx alone.
 */
export function judgeListNotServed(clause: ClauseId, expected: string, status: number, body: string): Judgement[] {
  return [fail(clause, expected, `status ${status} ${body.slice(0, 160)}`, { needs: [needStatusClass('the list is served (2xx)', 2)] })];
}

/** A continuation the model expected to serve was: the cell holds for this page. */
export function judgeContinuationServed(clause: ClauseId): Judgement[] {
  return [pass(clause, 'continuation served from the token')];
}

/** rest:4.4.2: continue becomes empty once the snapshot is exhausted (after `pages` pages it never did). */
export function judgeEndlessPaging(pages: number): Judgement[] {
  return [fail('rest:4.4.2', 'continue becomes empty once the snapshot is exhausted', `still non-empty after ${pages} pages`)];
}

/**
 * rest:4.4.4: a 410 for a continue token is right once the token has outlived its lifetime. Before
 * that, a list served at Any (rv="0") may have come from any past state, one already leaving the
 * history, which rest:7 answers with 410 too ("older than retained"): the suite cannot tell, so it is
 * inconclusive, never a pass.
 *   judgeContinueGone(200, 1500, 'Any') -> [inconclusive rest:4.4.4]
 */
export function judgeContinueGone(ageMs: number, ttlMs: number, semantic?: string): Judgement[] {
  if (ageMs < ttlMs && semantic === 'Any')
    return [
      inconclusive(
        'rest:4.4.4',
        `a continue token ${Math.round(ageMs)} ms old is still valid (lifetime ${ttlMs} ms), unless the first page came from a past state already compacted away (Any)`,
        '410 Gone',
      ),
    ];
  return [
    rule('rest:4.4.4', ageMs >= ttlMs, `a continue token ${Math.round(ageMs)} ms old is still valid (lifetime ${ttlMs} ms)`, '410 Gone'),
  ];
}

/** An unpaged list is complete: no remainingItemCount (rest:4.4.6) and an empty continue (rest:2.3). */
export function judgeCompleteList(page: Pick<ObservedPage, 'remainingItemCount' | 'continueToken'>, selector: boolean): Judgement[] {
  return [
    ...judgeRemaining(page, { later: 0, last: true, selector, paged: false, page: 1 }),
    rule(
      'rest:2.3/metadata.continue',
      page.continueToken === undefined || page.continueToken === '',
      'empty continue on an unpaged list',
      `continue ${JSON.stringify(page.continueToken)}`,
    ),
  ];
}

// ---- rest-crud scenarios (suites/checks/crud.ts) ----

/** rest:2.2.2: the same name is free in another namespace. */
export function judgeNameFreeElsewhere(createdInOther: boolean): Judgement[] {
  return [rule('rest:2.2.2', createdInOther, 'the same name is free in another namespace', 'refused')];
}

/** rest:4.1/get-collection: the all-namespaces collection holds both objects. */
export function judgeAllNamespaces(status: number, keys: ReadonlySet<string>, want: readonly string[]): Judgement[] {
  return [
    rule(
      'rest:4.1/get-collection',
      status === 200 && want.every((k) => keys.has(k)),
      `the all-namespaces collection holds ${want.join(' and ')}`,
      `status ${status}, items ${[...keys].join(', ')}`,
    ),
  ];
}

/** rest:2.2.3: a second namespace of the same name is refused. */
export function judgeDuplicateNamespace(name: string, status: number): Judgement[] {
  return [rule('rest:2.2.3', is4xx(status), `a second namespace named ${name} is refused (4xx)`, `status ${status}`)];
}

/** rest:2.2.5 and rest:4.1/get-namespace: a namespace read at its cluster-scoped path. */
export function judgeNamespaceRead(name: string, r: { status: number; kind: unknown; name: unknown; namespace: unknown }): Judgement[] {
  return [
    rule(
      'rest:2.2.5',
      r.status === 200 && r.namespace === undefined,
      'a namespace is read at a cluster-scoped path and has no namespace',
      `status ${r.status}, metadata.namespace ${JSON.stringify(r.namespace)}`,
    ),
    rule(
      'rest:4.1/get-namespace',
      r.status === 200 && r.kind === 'Namespace' && r.name === name,
      `GET /api/v1/namespaces/${name} returns that Namespace`,
      `status ${r.status}, kind ${JSON.stringify(r.kind)}, name ${JSON.stringify(r.name)}`,
    ),
  ];
}

/**
 * rest:4.1/get-object: `GET /apis/{group}/{version}/{resourcetype}/{name}` of a cluster-scoped type
 * returns that one object (not a list, not another object's name) and, being cluster-scoped, no
 * namespace (rest:2.2.5).
 */
export function judgeClusterObjectRead(
  path: string,
  want: { kind: string; name: string },
  r: { status: number; kind: unknown; name: unknown; namespace: unknown },
): Judgement[] {
  // A run's identity that may create the definition but not read it back decides nothing about paths.
  if (r.status === 401 || r.status === 403)
    return [inconclusive('rest:4.1/get-object', `GET ${path} returns that ${want.kind}`, `status ${r.status}: the run may not read it`)];
  return [
    rule(
      'rest:4.1/get-object',
      r.status === 200 && r.kind === want.kind && r.name === want.name && r.namespace === undefined,
      `GET ${path} returns that ${want.kind} (no namespace)`,
      `status ${r.status}, kind ${JSON.stringify(r.kind)}, name ${JSON.stringify(r.name)}, metadata.namespace ${JSON.stringify(r.namespace)}`,
    ),
  ];
}

/** rest:4.1/get-namespaces: the namespace collection is a NamespaceList holding the case's namespaces. */
export function judgeNamespaceList(r: { status: number; kind: unknown; names: readonly unknown[] }, want: readonly string[]): Judgement[] {
  return [
    rule(
      'rest:4.1/get-namespaces',
      r.status === 200 && r.kind === 'NamespaceList' && want.every((n) => r.names.includes(n)),
      `GET /api/v1/namespaces is a NamespaceList holding ${want.join(' and ')}`,
      `status ${r.status}, kind ${JSON.stringify(r.kind)}, names ${r.names.join(', ')}`,
    ),
  ];
}

/** rest:4.1/delete of a namespace. */
export function judgeNamespaceDeleteAccepted(name: string, status: number): Judgement[] {
  return [rule('rest:4.1/delete', is2xx(status), `delete of namespace ${name} accepted`, `status ${status}`)];
}

/**
 * rest:2.2.4: an object is deleted with its namespace. The spec bounds this in no time (upstream's
 * namespace controller deletes contents asynchronously, then removes the namespace), so an object
 * still readable at the end of the run's window is inconclusive while its namespace still exists; once
 * the namespace itself is gone (4xx) and the object is still there, its namespace was deleted without
 * it: a failure. The window is named so a user can widen it.
 */
export function judgeDeletedWithNamespace(
  key: string,
  r: { objectStatus: number; namespaceStatus: number },
  windowMs: number,
): Judgement[] {
  const expected = `${key} is deleted with its namespace (eventually; watched for ${windowMs} ms, --eventual-window)`;
  if (is4xx(r.objectStatus)) return [pass('rest:2.2.4', expected, `status ${r.objectStatus}`)];
  if (is4xx(r.namespaceStatus))
    return [
      fail(
        'rest:2.2.4',
        expected,
        `the namespace is gone (status ${r.namespaceStatus}) but ${key} is still readable (status ${r.objectStatus})`,
      ),
    ];
  return [inconclusive('rest:2.2.4', expected, `still readable after ${windowMs} ms, namespace still present (status ${r.objectStatus})`)];
}

/** rest:2.2.4: an object in another namespace survives. */
export function judgeSurvivesOtherNamespace(key: string, status: number): Judgement[] {
  return [rule('rest:2.2.4', status === 200, `${key} in another namespace survives`, `status ${status}`)];
}

/**
 * rest:2.3/metadata.name with generateName: the server makes a unique name. The spec declares no
 * syntax for names or prefixes, so a refusal (4xx) of a prefix on its first use is the target's own
 * validation and is recorded as unspecified. Once the prefix was accepted (`earlier` names made from
 * it), a refusal means the server did not make a unique name: a failure. A success must extend the
 * prefix and be new.
 */
export function judgeGeneratedCreate(prefix: string, r: { status: number; name: unknown }, earlier: readonly string[]): Judgement[] {
  if (is4xx(r.status) && earlier.length === 0)
    return [
      unspecified(
        'rest:2.3/metadata.name',
        `a name generated from ${JSON.stringify(prefix)}, or a refusal of a prefix the spec does not call valid`,
        `status ${r.status}`,
      ),
    ];
  const name = r.name;
  return [
    rule(
      'rest:2.3/metadata.name',
      is2xx(r.status) && typeof name === 'string' && name.startsWith(prefix) && name.length > prefix.length,
      `a created object whose name extends ${JSON.stringify(prefix)}`,
      `status ${r.status}, name ${JSON.stringify(name)}`,
    ),
    rule(
      'rest:2.3/metadata.name',
      typeof name === 'string' && !earlier.includes(name),
      'a generated name not given before',
      `${String(name)} generated twice`,
    ),
  ];
}

/** rest:2.3/metadata.name: a generated name reads back as that object. */
export function judgeGeneratedReadBack(name: string, r: { status: number; name: unknown }): Judgement[] {
  return [rule('rest:2.3/metadata.name', r.status === 200 && r.name === name, `${name} reads back`, `status ${r.status}`)];
}
