/**
 * The `scorecard` block of results/summary.json's JSON Schema (summary-schema.ts): what a run reached
 * on the target, counted from the requests it sent.
 */
import { ANSWER_KEYS } from './scorecard.ts';

const count = { type: 'integer', minimum: 0 } as const;

export const scorecardSchema = {
  type: 'object',
  description: 'what the run reached on the target, counted from the requests it sent (docs/verdicts.md "Exercised scorecard")',
  required: ['answers', 'cells', 'pages', 'watches', 'compactions', 'restarts', 'applyConflicts', 'largest'],
  properties: {
    answers: {
      type: 'object',
      required: [...ANSWER_KEYS],
      properties: Object.fromEntries(ANSWER_KEYS.map((k) => [k, count])),
      additionalProperties: count,
      description: 'answers by class (2xx, 3xx, 4xx, 5xx) and by status for 409, 410, 429 and 504; none: no answer came',
    },
    cells: {
      type: 'object',
      required: ['rest:4.5'],
      properties: {
        'rest:4.5': {
          type: 'object',
          required: ['hit', 'of', 'get', 'list', 'watch', 'missed'],
          properties: {
            hit: count,
            of: count,
            get: count,
            list: count,
            watch: count,
            missed: { type: 'array', items: { type: 'string' } },
          },
          description: 'cells of the rest:4.5 get, list and watch tables that some request fell into (answered, other than 401 and 403)',
        },
      },
    },
    pages: {
      type: 'object',
      required: ['walked', 'longestChain'],
      properties: { walked: count, longestChain: count },
      description: 'list pages answered 2xx to a request with a limit; pages of the longest chain of continue tokens',
    },
    watches: {
      type: 'object',
      required: ['opened', 'resumed', 'expired'],
      properties: { opened: count, resumed: count, expired: count, delivering: count },
      description:
        'watches answered 200; of those, started from a version an earlier watch of the same check delivered or started from; watches answered 410 or ended by an ERROR event with code 410; watches answered 200 whose stream carried an ADDED, MODIFIED or DELETED event',
    },
    compactions: { ...count, description: 'compact hooks that completed during a check' },
    restarts: { ...count, description: 'restart hooks that completed during a check' },
    applyConflicts: { ...count, description: 'server-side apply requests answered 409' },
    largest: {
      type: 'object',
      required: ['objects', 'bytes'],
      properties: { objects: count, bytes: count },
      description: 'most items in one list answer; largest object sent or read, in bytes',
    },
    exercised: {
      type: 'object',
      required: ['selectedChecks', 'applicableChecks', 'checksWithVerdict', 'declaredClauses', 'judgedClauses', 'notTested', 'line'],
      properties: {
        selectedChecks: count,
        applicableChecks: count,
        checksWithVerdict: count,
        declaredClauses: count,
        judgedClauses: count,
        declaredAreas: count,
        judgedAreas: count,
        notTested: { type: 'boolean' },
        line: { type: 'string' },
      },
      description: 'how much of the selection reached a verdict (the vacuity guard)',
    },
    require: {
      type: 'array',
      items: {
        type: 'object',
        required: ['key', 'min', 'actual', 'met'],
        properties: { key: { type: 'string' }, min: count, actual: count, met: { type: 'boolean' } },
      },
      description: 'the --require minimums and what the run reached',
    },
  },
};
