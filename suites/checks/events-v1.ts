/**
 * rest:6.2: creates on the events group's v1 Event, each a valid event with at most a few rules
 * broken; the model (reference/events-v1.ts) says whether it must be refused or accepted.
 */
import { judgeEventV1Create, judgeEventV1Readback, judgeEventV1ReadsBack } from '../../harness/case/index.ts';
import type { Check } from '../../harness/case/index.ts';
import { namespaceOf } from '../../harness/interpreters/index.ts';
import { CheckNotApplicable } from '../../harness/case/index.ts';
import { namedGroup } from '../../reference/profile.ts';
import { DEPRECATED_FIELDS, validateEventV1Create } from '../../reference/events-v1.ts';
import { eventCaseArb, type EventCase } from '../../generators/versioning.ts';

const DEPRECATED_VALUES: Readonly<Record<(typeof DEPRECATED_FIELDS)[number], unknown>> = {
  deprecatedFirstTimestamp: '2026-01-01T00:00:00Z',
  deprecatedLastTimestamp: '2026-01-01T00:00:01Z',
  deprecatedCount: 2,
  'deprecatedSource.component': 'kubelet',
  'deprecatedSource.host': 'node-1',
};

/** eventTime in the MicroTime shape every server accepts (not a spec rule; always present). */
const microTime = (ms: number) => new Date(ms).toISOString().replace(/\.(\d{3})Z$/, '.$1000Z');

export function eventBody(
  c: EventCase,
  o: { apiVersion: string; namespace: string; labels: Record<string, string>; nowMs: number },
): Record<string, unknown> {
  const body: Record<string, unknown> = {
    apiVersion: o.apiVersion,
    kind: 'Event',
    metadata: { generateName: 'ev-', namespace: o.namespace, labels: o.labels },
    type: c.type,
    action: 'Checked',
    reason: 'Conformance',
    reportingController: 'svc-conformance.io/suite',
    reportingInstance: 'suite-1',
    eventTime: microTime(o.nowMs),
    regarding: { apiVersion: 'v1', kind: 'ConfigMap', namespace: o.namespace, name: 'subject' },
    note: 'created by svc-conformance',
  };
  if (c.seriesCount !== undefined) body['series'] = { count: c.seriesCount, lastObservedTime: microTime(o.nowMs + 1000) };
  for (const f of c.drop) delete body[f];
  for (const f of c.deprecated) {
    const [top, sub] = f.split('.') as [string, string | undefined];
    if (sub === undefined) body[top] = DEPRECATED_VALUES[f];
    else body[top] = { ...(body[top] as object | undefined), [sub]: DEPRECATED_VALUES[f] };
  }
  return body;
}

export const eventsV1Create: Check<EventCase> = {
  id: 'events-v1-create',
  suite: 'rest-events',
  title: 'events/v1 creates: type, required fields and the renamed legacy fields',
  clauses: [
    'rest:6.2/type',
    'rest:6.2/required',
    'rest:6.2/deprecated-fields',
    'rest:6.2/regarding',
    'rest:6.2/eventTime',
    'rest:6.2/series.lastObservedTime',
    'rest:6.2/series.count',
  ],
  defaultRuns: 15,
  // A clean series event (created, then read back: eventTime, regarding, series), a bad type, and a
  // required field dropped with two legacy fields set: half the random cases drop or add something, so a
  // few of them read nothing back on some seeds.
  examples: () => [
    { type: 'Normal', drop: [], deprecated: [], seriesCount: 2 },
    { type: 'Info', drop: [], deprecated: [] },
    { type: 'Warning', drop: ['reportingController'], deprecated: ['deprecatedCount', 'deprecatedSource.component'] },
  ],
  arbitrary: () => eventCaseArb,
  describe: (c) => [
    `POST an events/v1 Event with type ${c.type}${c.seriesCount !== undefined ? `, a series of ${c.seriesCount}` : ''}${c.drop.length ? `, without ${c.drop.join(', ')}` : ''}${c.deprecated.length ? `, with ${c.deprecated.join(', ')}` : ''}`,
    'GET it back',
  ],
  run: async (c, cx) => {
    const group = namedGroup(cx.env.profile, 'events');
    const ns = await namespaceOf(cx, 0);
    const body = eventBody(c, { apiVersion: `${group}/v1`, namespace: ns, labels: cx.ownLabels, nowMs: cx.env.now() });
    const r = await cx.send({ method: 'POST', path: `/apis/${group}/v1/namespaces/${encodeURIComponent(ns)}/events`, body });
    // The namespace exists (created above): a 404 means the group version is not served, e.g. a target
    // started with --runtime-config=<events group>/v1=false. Nothing to judge then.
    if (r.status === 404)
      throw new CheckNotApplicable(eventsV1Create.clauses, `${group}/v1 events are not served by the target`, 'skipped');
    cx.judge(judgeEventV1Create(body, { status: r.status, body: r.bodyText }));
    if (validateEventV1Create(body).length > 0) return; // only a valid (created) event is read back
    // Read back: the fields are stored and served under their v1 names (the "replaces" rows).
    const name = (r.json as { metadata?: { name?: unknown } } | undefined)?.metadata?.name;
    if (typeof name !== 'string') return;
    const g = await cx.send({
      method: 'GET',
      path: `/apis/${group}/v1/namespaces/${encodeURIComponent(ns)}/events/${encodeURIComponent(name)}`,
    });
    cx.judge([judgeEventV1ReadsBack(name, g.status)]);
    cx.judge(judgeEventV1Readback(body, g.json));
  },
};
