/**
 * The Event resource of the events group, version v1 (rest:6.2), as a create-time validation: what a
 * server must refuse and what it must accept. Only the rules of the table; everything else about the
 * schema (lengths, `series` internals, `eventTime` being required upstream) is not shown and never
 * judged, so the suite's own events always carry those fields in a form every server accepts.
 *
 *   validateEventV1Create({ type: 'Info', ... }) -> [{ clause: 'rest:6.2/type', field: 'type', ... }]
 */
import type { ClauseId } from './catalog/clause-ids.ts';
import { fail, pass, rule, type Judgement } from './judgement.ts';

export interface EventFieldError {
  readonly clause: ClauseId;
  readonly field: string;
  readonly reason: string;
}

export const EVENT_TYPES = ['Normal', 'Warning'] as const;
export const REQUIRED_ON_CREATE = ['action', 'reason', 'reportingController', 'reportingInstance'] as const;

/** The renamed legacy fields, as paths: not permitted on new events. */
export const DEPRECATED_FIELDS = [
  'deprecatedFirstTimestamp',
  'deprecatedLastTimestamp',
  'deprecatedCount',
  'deprecatedSource.component',
  'deprecatedSource.host',
] as const;

/** Legacy name -> events/v1 name (the "replaces" rows); used by the migration report. */
export const RENAMED_FIELDS: Readonly<Record<string, string>> = {
  involvedObject: 'regarding',
  firstTimestamp: 'eventTime',
  lastTimestamp: 'series.lastObservedTime',
  count: 'series.count',
};

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

function at(o: Record<string, unknown>, path: string): unknown {
  let cur: unknown = o;
  for (const k of path.split('.')) {
    if (!isObject(cur) || !Object.hasOwn(cur, k)) return undefined;
    cur = cur[k];
  }
  return cur;
}

/** Empty (unset) the way a Go server reads JSON: absent, null, '' or 0. */
const isEmpty = (v: unknown) => v === undefined || v === null || v === '' || v === 0;

export function validateEventV1Create(event: unknown): EventFieldError[] {
  if (!isObject(event)) return [{ clause: 'rest:6.2/required', field: '', reason: 'the body is not an object' }];
  const errors: EventFieldError[] = [];
  const type = event['type'];
  // "Limited to Normal and Warning": an unset type is neither (upstream refuses it too).
  if (!(EVENT_TYPES as readonly unknown[]).includes(type))
    errors.push({ clause: 'rest:6.2/type', field: 'type', reason: `must be one of ${EVENT_TYPES.join(', ')}` });
  for (const f of REQUIRED_ON_CREATE)
    if (typeof event[f] !== 'string' || event[f] === '')
      errors.push({ clause: 'rest:6.2/required', field: f, reason: 'required on create' });
  for (const f of DEPRECATED_FIELDS)
    if (!isEmpty(at(event, f))) errors.push({ clause: 'rest:6.2/deprecated-fields', field: f, reason: 'not permitted on new events' });
  return errors;
}

/** A timestamp as an instant: servers may rewrite the format (precision, offset), never the time. */
const sameInstant = (a: unknown, b: unknown) =>
  typeof a === 'string' && typeof b === 'string' && Date.parse(a) === Date.parse(b) && !Number.isNaN(Date.parse(a));

/**
 * rest:6.2 on the answer to a create of `sent` (an events/v1 Event): one that breaks rules of the table
 * is refused (4xx) under each clause it breaks; a valid one is created (2xx), its type allowed and no
 * deprecated field in it. Here, not in the check, because which answer is due is the model's to say.
 * A valid event that is refused fails rest:6.2/required alone (the type and deprecated-field rows judge
 * an accepted event only), as the check always reported it.
 *
 *   judgeEventV1Create({ ...valid, deprecatedCount: 2 }, { status: 201, body: '{...}' })
 *     -> [fail rest:6.2/deprecated-fields 'refused (4xx): deprecatedCount not permitted on new events']
 */
export function judgeEventV1Create(sent: Record<string, unknown>, answer: { readonly status: number; readonly body: string }): Judgement[] {
  const errors = validateEventV1Create(sent);
  const s = answer.status;
  if (errors.length === 0) {
    const accepted = s >= 200 && s < 300;
    const created = rule(
      'rest:6.2/required',
      accepted,
      'an event with type Normal/Warning, action, reason, reportingController and reportingInstance and no deprecated field is created',
      `status ${s}: ${answer.body.slice(0, 200)}`,
    );
    if (!accepted) return [created];
    return [
      created,
      pass('rest:6.2/type', `type ${String(sent['type'])} is allowed`, `status ${s}`),
      pass('rest:6.2/deprecated-fields', 'no deprecated field: accepted', `status ${s}`),
    ];
  }
  const refused = s >= 400 && s < 500;
  const expected = `refused (4xx): ${errors.map((e) => `${e.field} ${e.reason}`).join('; ')}`;
  return [...new Set(errors.map((e) => e.clause))].map((clause) =>
    refused ? pass(clause, expected, `status ${s}`) : fail(clause, expected, `status ${s}: accepted`),
  );
}

/**
 * rest:6.2/regarding, first half: the event the target created (named `name` in its answer) reads back
 * at its own path. The fields it carries are judgeEventV1Readback's.
 *
 *   judgeEventV1ReadsBack('ev-x1', 404) -> fail rest:6.2/regarding 'the created event ev-x1 reads back' / 'status 404'
 */
export function judgeEventV1ReadsBack(name: string, status: number): Judgement {
  return rule('rest:6.2/regarding', status === 200, `the created event ${name} reads back`, `status ${status}`);
}

/**
 * rest:6.2 "replaces" rows on an events/v1 Event the target created: read back, it carries what was sent
 * under the v1 names (`regarding`, `eventTime`, `series.lastObservedTime`, `series.count`) and none of
 * the legacy names they replace. Fields the server adds to `regarding` are not judged.
 *
 *   judgeEventV1Readback({ regarding: {kind:'ConfigMap',...} }, { involvedObject: {...} })
 *     -> [fail rest:6.2/regarding ...]
 */
export function judgeEventV1Readback(sent: Record<string, unknown>, read: unknown): Judgement[] {
  const got = isObject(read) ? read : {};
  const out: { clause: ClauseId; holds: boolean; expected: string; observed: string }[] = [];
  const legacy = (name: string) => (Object.hasOwn(got, name) ? `; the legacy ${name} is present` : '');
  const sentRegarding = isObject(sent['regarding']) ? sent['regarding'] : {};
  const readRegarding = isObject(got['regarding']) ? got['regarding'] : undefined;
  const regardingKept = readRegarding !== undefined && Object.entries(sentRegarding).every(([k, v]) => readRegarding[k] === v);
  out.push({
    clause: 'rest:6.2/regarding',
    holds: regardingKept && !Object.hasOwn(got, 'involvedObject'),
    expected: `regarding ${JSON.stringify(sentRegarding)}, no involvedObject`,
    observed: `regarding ${JSON.stringify(got['regarding'])}${legacy('involvedObject')}`,
  });
  out.push({
    clause: 'rest:6.2/eventTime',
    holds: sameInstant(sent['eventTime'], got['eventTime']) && !Object.hasOwn(got, 'firstTimestamp'),
    expected: `eventTime ${String(sent['eventTime'])}, no firstTimestamp`,
    observed: `eventTime ${JSON.stringify(got['eventTime'])}${legacy('firstTimestamp')}`,
  });
  if (isObject(sent['series'])) {
    const series = isObject(got['series']) ? got['series'] : {};
    out.push({
      clause: 'rest:6.2/series.lastObservedTime',
      holds: sameInstant(sent['series']['lastObservedTime'], series['lastObservedTime']) && !Object.hasOwn(got, 'lastTimestamp'),
      expected: `series.lastObservedTime ${String(sent['series']['lastObservedTime'])}, no lastTimestamp`,
      observed: `series ${JSON.stringify(got['series'])}${legacy('lastTimestamp')}`,
    });
    out.push({
      clause: 'rest:6.2/series.count',
      holds: series['count'] === sent['series']['count'] && !Object.hasOwn(got, 'count'),
      expected: `series.count ${String(sent['series']['count'])}, no count`,
      observed: `series ${JSON.stringify(got['series'])}${legacy('count')}`,
    });
  }
  return out.map((j) => rule(j.clause, j.holds, j.expected, j.observed));
}
