/**
 * JSON Schema (draft-07) of compare.json (`svc-conformance compare`, reports/compare-result.ts),
 * published as docs/schemas/compare.schema.json (`npm run docs:schemas`). Like the summary schema it
 * states the documented keys; keys after them are allowed extras.
 */
import { STEP_CLASSES } from '../harness/interpreters/index.ts';

const count = { type: 'integer', minimum: 0 } as const;
const side = {
  type: 'object',
  required: ['server', 'profile', 'label'],
  properties: { server: { type: 'string' }, profile: { enum: ['svc', 'k8s'] }, label: { type: 'string' } },
};
const answer = {
  type: 'object',
  properties: {
    status: { type: 'integer' },
    body: { description: 'the answer body as JSON (a watch: its events, BOOKMARKs left out), or text, shortened past 6000 characters' },
    transportError: { type: 'string' },
    ending: { enum: ['server', 'client'], description: 'a watch: ended by the server, or open until the suite closed it' },
  },
};
const failure = {
  type: 'object',
  required: ['clause', 'expected', 'observed'],
  properties: { clause: { type: 'string' }, expected: { type: 'string' }, observed: { type: 'string' } },
};

export const compareJsonSchema = {
  $schema: 'http://json-schema.org/draft-07/schema#',
  $id: 'https://svc-conformance.invalid/schemas/compare.schema.json',
  title: 'svc-conformance compare.json',
  type: 'object',
  required: [
    'tool',
    'kind',
    'version',
    'seed',
    'runs',
    'strict',
    'startedAt',
    'durationMs',
    'verdict',
    'target',
    'reference',
    'suites',
    'checks',
    'totals',
    'kinds',
    'divergences',
  ],
  properties: {
    tool: { const: 'svc-conformance' },
    kind: { const: 'compare' },
    version: { type: 'string' },
    seed: { type: 'integer' },
    runs: { type: 'integer', minimum: 1 },
    strict: { type: 'boolean' },
    startedAt: { type: 'string', format: 'date-time' },
    durationMs: { type: 'number', minimum: 0 },
    verdict: { enum: ['same', 'differs', 'target-violates', 'error'] },
    target: side,
    reference: side,
    suites: { type: 'array', items: { type: 'string' } },
    checks: {
      type: 'array',
      items: {
        type: 'object',
        required: ['id', 'suite', 'cases', 'steps'],
        properties: { id: { type: 'string' }, suite: { type: 'string' }, cases: count, steps: count, notApplicable: { type: 'string' } },
      },
    },
    totals: {
      type: 'object',
      required: [...STEP_CLASSES, 'notCompared'],
      properties: Object.fromEntries([...STEP_CLASSES, 'notCompared'].map((c) => [c, count])),
    },
    kinds: { type: 'object', additionalProperties: count, description: 'differs-both-conformant steps by kind of difference' },
    divergences: {
      type: 'array',
      description: 'every step that is not `same`, most serious first',
      items: {
        type: 'object',
        required: ['check', 'path', 'seed', 'step', 'class', 'kinds', 'clauses', 'request', 'differences', 'steps', 'replay'],
        properties: {
          check: { type: 'string' },
          path: { type: 'string', description: 'fast-check path of the case: --path replays it' },
          seed: { type: 'integer' },
          step: { type: 'integer', minimum: -1, description: "request index in the target's sequence; -1 the case as a whole" },
          class: { enum: [...STEP_CLASSES] },
          kinds: {
            type: 'array',
            items: {
              enum: [
                'status-code',
                'order',
                'omitted-empty',
                'field-presence',
                'message',
                'value',
                'generated-value',
                'timing',
                'sequence',
                'request',
                'transport',
                'open-choice',
              ],
            },
          },
          clauses: { type: 'array', items: { type: 'string' } },
          request: { type: 'string' },
          differences: {
            type: 'array',
            items: {
              type: 'object',
              required: ['path', 'kind'],
              properties: { path: { type: 'string' }, kind: { type: 'string' }, target: {}, reference: {} },
            },
          },
          target: answer,
          reference: answer,
          failures: {
            type: 'object',
            properties: { target: { type: 'array', items: failure }, reference: { type: 'array', items: failure } },
          },
          note: { type: 'string' },
          steps: { type: 'array', items: { type: 'string' } },
          replay: { type: 'string' },
        },
      },
    },
  },
} as const;
