/**
 * The per-clause blocks of results/summary.json's JSON Schema (summary-schema.ts): a counterexample
 * (the failure, its replay and reproducers, its confirmation) and the clause's expectations-file
 * entries with what became of each.
 */
import { CONFIRMATION_LABELS } from '../runner/results.ts';

const count = { type: 'integer', minimum: 0 } as const;

export const counterexampleSchema = {
  type: 'object',
  required: ['check', 'clause', 'expected', 'observed', 'steps', 'curl', 'requestCount', 'seed', 'replay'],
  properties: {
    check: { type: 'string' },
    clause: { type: 'string', description: 'the clause the failure is reported against, e.g. rest:4.4.3' },
    expected: { type: 'string', description: 'what the model accepted' },
    observed: { type: 'string', description: 'what the target did' },
    steps: { type: 'array', items: { type: 'string' }, description: 'the shrunk operations, one per line' },
    curl: {
      type: 'string',
      description:
        'a standalone reproducer (bash; for the API server curl and node with SERVER, TOKEN, CA, INSECURE; for the node-agent loader LOADER; for the controller daemon DAEMON with SVCCONFIG or SERVER): exit 1 while the failure is present, 0 once the target behaves, 2 could not run, 3 undecided; secrets redacted',
    },
    nodeTest: {
      type: 'string',
      description:
        'the same API reproducer as a node test file (node --test, Node alone): fails while the failure is present; present only where the answer needed is data',
    },
    requestCount: count,
    seed: { type: 'integer' },
    path: { type: 'string', description: 'fast-check replay path' },
    replay: { type: 'string', description: 'the command that replays it' },
    expectedValue: { description: 'the compared value the model expected, when the judge compared objects' },
    observedValue: {},
    diff: {
      type: 'object',
      required: ['added', 'modified', 'removed'],
      properties: { added: { type: 'array' }, modified: { type: 'array' }, removed: { type: 'array' } },
    },
    needs: {
      type: 'array',
      description:
        'the answer the model needed, as data the reproducer script checks: one test per need on requests of `answers` (by index), with what the recorded answers got',
      items: {
        type: 'object',
        required: ['says', 'test', 'observed', 'met'],
        properties: {
          says: { type: 'string' },
          test: {
            type: 'object',
            required: ['kind'],
            properties: {
              kind: {
                enum: ['status', 'statusClass', 'length', 'value', 'same', 'contentType', 'events', 'exit', 'serves', 'anyOf', 'allOf'],
              },
            },
          },
          observed: { type: 'string' },
          met: { type: 'boolean' },
        },
      },
    },
    answers: {
      type: 'array',
      description:
        "every request of the case and what came back: lists with every item of every page (items without this run's label marked notCreatedBySuite), watches with their events",
      items: {
        type: 'object',
        required: ['request', 'call'],
        properties: {
          request: count,
          call: { type: 'string' },
          status: { type: 'integer' },
          setup: { const: true },
          kind: { type: 'string' },
          name: { type: 'string' },
          resourceVersion: { type: 'string' },
          continue: { type: 'string' },
          remainingItemCount: { type: 'integer' },
          items: {
            type: 'array',
            items: {
              type: 'object',
              required: ['name'],
              properties: {
                namespace: { type: 'string' },
                name: { type: 'string' },
                resourceVersion: { type: 'string' },
                notCreatedBySuite: { const: true },
              },
            },
          },
          itemsLeftOut: count,
          events: {
            type: 'array',
            items: {
              type: 'object',
              required: ['type'],
              properties: {
                type: { type: 'string' },
                name: { type: 'string' },
                resourceVersion: { type: 'string' },
                notCreatedBySuite: { const: true },
              },
            },
          },
        },
      },
    },
    confirmation: {
      type: 'object',
      required: ['label', 'runs', 'reproduced'],
      properties: {
        label: {
          enum: [...CONFIRMATION_LABELS],
          description: 'how the failure fared when replayed before it was reported (docs/verdicts.md "Confirmation")',
        },
        runs: { ...count, description: 'replays of the case alone' },
        reproduced: { ...count, description: 'replays alone that failed the same clause again' },
        withWrites: {
          type: 'object',
          required: ['runs', 'reproduced'],
          properties: { runs: count, reproduced: count },
          description: 'replays beside background writes (made when no replay alone failed again)',
        },
        stoppedEarlierBy: {
          type: 'array',
          items: { type: 'string' },
          description: 'the clauses every replay failed first instead (label not confirmed (replays failed earlier))',
        },
      },
      description: 'the replays behind the label; absent only in summaries of runs made before confirmation existed',
    },
    class: {
      type: 'string',
      description:
        "the model's name for the kind of departure (reference/observations.ts), e.g. limit-ignored; what an expectations signature's class matches",
    },
    input: { type: 'string', description: 'the kind of input judged, e.g. limit-below-count' },
    observedStatus: { type: 'integer', description: 'HTTP status of the answer, where the judge recorded it' },
    observedReason: { type: 'string', description: 'the Status reason of the answer, where it had one' },
  },
};

const expectationEntry = {
  type: 'object',
  required: ['excuses', 'reason', 'outcome', 'detail'],
  properties: {
    excuses: {
      type: 'string',
      description: 'the entry\'s signature, e.g. "class limit-ignored, status 200", or "any failure of the clause"',
    },
    reason: { type: 'string' },
    source: { type: 'string' },
    at: { type: 'string', description: 'file:line of the entry' },
    outcome: {
      enum: ['excused', 'noLongerOccurs', 'notExercised'],
      description: "noLongerOccurs only when the run sent the entry's input class and the answers conformed",
    },
    detail: { type: 'string' },
  },
};

export const expectationSchema = {
  type: 'object',
  required: ['regression', 'unexcused', 'entries'],
  description: 'a clause listed in the expectations file',
  properties: {
    regression: { type: 'boolean', description: "a failure of the clause that no entry's signature excuses" },
    unexcused: { type: 'array', items: { type: 'string' }, description: 'those failures: the observed answer and why no entry matched' },
    entries: { type: 'array', items: expectationEntry },
  },
};
