/**
 * rest:9.3 rule 2 on a resource served in two versions of one group (policy/v1 and policy/v1beta1
 * PodDisruptionBudget in 1.24): written through one, read and written back through the other, read
 * again through the first, nothing the suite wrote is lost.
 */
import { judgePersistedCreate, judgeRoundTrip, judgeRoundTripWrite } from '../../harness/case/index.ts';
import type { Check } from '../../harness/case/index.ts';
import { namespaceOf } from '../../harness/interpreters/index.ts';
import { CheckNotApplicable } from '../../harness/case/index.ts';
import { roundTripCaseArb, type RoundTripCase } from '../../generators/versioning.ts';
import {
  isWriteConflict,
  ROUND_TRIP_WRITE_ATTEMPTS,
  type RoundTripExpectation,
  type WriteAttempt,
} from '../../reference/versioning/round-trip.ts';
import { statusReasonOf } from '../../reference/judgement.ts';

import { resourcesOf } from './versioning.ts';

const isRecord = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);
const other = (v: RoundTripCase['first']): RoundTripCase['first'] => (v === 'v1' ? 'v1beta1' : 'v1');
const budgetText = (c: RoundTripCase) =>
  Object.entries(c.budget)
    .map(([k, v]) => `${k}=${JSON.stringify(v)}`)
    .join('');

export function roundTripSpec(c: RoundTripCase): Record<string, unknown> {
  const selector = {
    matchLabels: { app: c.selectorValue },
    ...(c.expression ? { matchExpressions: [{ key: 'tier', operator: 'In', values: ['a', 'b'] }] } : {}),
  };
  return { ...c.budget, selector };
}

export const versionRoundTrip: Check<RoundTripCase> = {
  id: 'version-round-trip',
  suite: 'rest-versioning',
  title: 'a PodDisruptionBudget round-trips between policy/v1 and policy/v1beta1 without loss',
  clauses: ['rest:9.3/rule-2', 'rest:4.1/post'],
  defaultRuns: 8,
  arbitrary: () => roundTripCaseArb,
  describe: (c) => [
    `POST policy/${c.first} PodDisruptionBudget ${budgetText(c)} selector app=${c.selectorValue}${c.expression ? ' and tier in (a,b)' : ''}`,
    `GET it through policy/${other(c.first)}, PUT that object back through policy/${other(c.first)} with one label more`,
    `GET it through policy/${c.first}`,
  ],
  run: async (c, cx) => {
    const clauses = versionRoundTrip.clauses;
    for (const gv of ['policy/v1', 'policy/v1beta1']) {
      const listed = await resourcesOf(cx, gv);
      if (!listed?.has('poddisruptionbudgets'))
        throw new CheckNotApplicable(
          clauses,
          `the target does not serve ${gv} poddisruptionbudgets: rule 2 needs a resource in two versions`,
          'skipped',
        );
    }
    const ns = encodeURIComponent(await namespaceOf(cx, 0));
    const base = (v: string) => `/apis/policy/${v}/namespaces/${ns}/poddisruptionbudgets`;
    const a = c.first;
    const b = other(a);
    const spec = roundTripSpec(c);
    const labels: Record<string, string> = { ...cx.ownLabels };
    const created = await cx.send({
      method: 'POST',
      path: base(a),
      body: { apiVersion: `policy/${a}`, kind: 'PodDisruptionBudget', metadata: { generateName: 'rt-', labels }, spec },
    });
    cx.judge([judgePersistedCreate(created)]);
    const name = encodeURIComponent(String((created.json as { metadata: { name: string } }).metadata.name));
    const first: RoundTripExpectation = { spec, labels };
    const labelsAfter = { ...labels, 'round-trip': b };
    const attempts: WriteAttempt[] = [];
    for (let i = 0; i < ROUND_TRIP_WRITE_ATTEMPTS; i++) {
      const viaB = await cx.send({ method: 'GET', path: `${base(b)}/${name}` });
      cx.judge(
        judgeRoundTrip([
          {
            step: `read through policy/${b} after the create through policy/${a}`,
            status: viaB.status,
            json: viaB.json,
            expect: first,
            apiVersion: `policy/${b}`,
          },
        ]),
      );
      const read = viaB.json as Record<string, unknown>;
      const md = isRecord(read['metadata']) ? read['metadata'] : {};
      const put = await cx.send({
        method: 'PUT',
        path: `${base(b)}/${name}`,
        body: { ...read, metadata: { ...md, labels: { ...(isRecord(md['labels']) ? md['labels'] : {}), 'round-trip': b } } },
      });
      const attempt = { status: put.status, bodyText: put.bodyText, reason: statusReasonOf(put.json) };
      attempts.push(attempt);
      if (!isWriteConflict(attempt)) break;
    }
    const written = judgeRoundTripWrite(`policy/${b}`, attempts);
    cx.judge([written]);
    if (written.verdict !== 'pass') return;
    const viaA = await cx.send({ method: 'GET', path: `${base(a)}/${name}` });
    cx.judge(
      judgeRoundTrip([
        {
          step: `read through policy/${a} after the write back through policy/${b}`,
          status: viaA.status,
          json: viaA.json,
          expect: { spec, labels: labelsAfter },
          apiVersion: `policy/${a}`,
        },
      ]),
    );
  },
};
