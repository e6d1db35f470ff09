/**
 * JSON Schema (draft-07) of results/summary.json, the report CI scripts parse (summary-json.ts). It
 * states the documented keys and their types; anything after them is an allowed extra, so readers
 * written against it keep working when the tool adds keys. Published as docs/schemas/summary.schema.json
 * (`npm run docs:schemas`); the self-test holds real summaries to it.
 */
import { scorecardSchema as scorecard } from './scorecard-schema.ts';
import { counterexampleSchema as counterexample, expectationSchema as expectation } from './counterexample-schema.ts';

const count = { type: 'integer', minimum: 0 } as const;
// `informative`: a clause no black-box test can judge, shown with its reason, apart from the gaps.
// `notServed`, `blocked`: a feature the target lacks, and the clauses that needed it.
const STATUSES = [
  'passed',
  'failed',
  'unspecified',
  'inconclusive',
  'skipped',
  'notChecked',
  'informative',
  'error',
  'notServed',
  'blocked',
] as const;
const TOTALS = ['passed', 'failed', 'unspecified', 'inconclusive', 'skipped', 'notChecked', 'error'] as const;
const FAILED_TOTAL =
  'clauses that failed beyond the expectations file (what makes the run nonconformant); a failure the file excuses counts under known. Before totals.known existed, failed counted known failures too';

/** A coverage figure: normative clauses judged, of how many; and the catalog's other clauses, counted apart. */
const figure = {
  checked: { ...count, description: 'normative clauses judged (passed, failed or error)' },
  normative: count,
  verdicts: { ...count, description: 'clauses of any kind with a verdict (passed, failed, error, unspecified, inconclusive, skipped)' },
  informative: { ...count, description: 'clauses no black-box test can judge, shown with their reason' },
  notChecked: { ...count, description: 'clauses left without a verdict, each with the reason in its notes' },
  clauses: { ...count, description: 'all catalog clauses of the doc or area' },
} as const;

const requestsByVerb = { type: 'object', additionalProperties: count, description: 'requests sent, by HTTP method' };

const checkFootprint = {
  type: 'object',
  required: ['check', 'wallMs', 'namespaces', 'clusterObjects', 'requests', 'bytesSent', 'bytesReceived'],
  properties: {
    check: { type: 'string' },
    wallMs: { type: 'number', minimum: 0 },
    namespaces: count,
    clusterObjects: count,
    requests: requestsByVerb,
    bytesSent: count,
    bytesReceived: count,
    namespaceWaitMs: { type: 'number', minimum: 0 },
  },
};

export const summaryJsonSchema = {
  $schema: 'http://json-schema.org/draft-07/schema#',
  $id: 'https://svc-conformance.test/schemas/summary.schema.json',
  title: 'svc-conformance results/summary.json',
  description:
    'One run of svc-conformance: its verdict, totals, every catalogued clause with its status, and what the run cost the target. Keys beyond these are allowed extras.',
  type: 'object',
  required: ['tool', 'version', 'profile', 'seed', 'verdict', 'target', 'totals', 'clauses', 'startedAt', 'durationMs', 'errors'],
  properties: {
    tool: { const: 'svc-conformance' },
    version: { type: 'string' },
    profile: { type: 'string', description: 'naming profile: svc or k8s' },
    seed: { type: 'integer' },
    verdict: {
      enum: ['conformant', 'nonconformant', 'error', 'notTested', 'interrupted'],
      description:
        'exit code 0, 1, 3, 3 and 130/143 respectively (docs/verdict-rules.md); nonconformant: a clause failed beyond the expectations file, however the run ended (what it left undone in incomplete); interrupted: SIGINT or SIGTERM stopped the run before it finished and no failure beyond the expectations was found (its reports hold what it had; leftovers says what it left); notTested: no such failure, and the preflight stopped the run, it exercised too little of its selection, no watch stream of the run delivered an event while some owed one, or it fell below --require (reasons in notTested)',
    },
    notTested: { type: 'array', items: { type: 'string' }, description: 'why the verdict is notTested, one line each' },
    incomplete: {
      type: 'object',
      required: ['because', 'lines'],
      properties: { because: { type: 'array', items: { type: 'string' } }, lines: { type: 'array', items: { type: 'string' } } },
      description:
        'a nonconformant run that timed out, ended early or judged too little: why, short (timed out, stopped by SIGTERM, ended early, judged too little) and one full line each',
    },
    verdictLine: {
      type: 'string',
      description:
        'the verdict with how much was judged, as the terminal prints it: "nonconformant: 3 failures, 310 clauses judged; incomplete: timed out"',
    },
    target: {
      type: 'object',
      required: ['server', 'nodeagentLoader'],
      properties: {
        server: { type: ['string', 'null'] },
        nodeagentLoader: { type: ['string', 'null'] },
        kind: {
          enum: ['embedded', 'external'],
          description: "embedded: the suite's own reference server (no target option was given); external: the server the options named",
        },
        description: {
          type: 'string',
          description:
            'for a person: "embedded reference server" (with its planted faults), or the server URL with the kubeconfig and context; never a credential',
        },
        reportedVersion: { type: 'string', description: 'the version the API server reported at /version; absent when it reported none' },
      },
    },
    notSelected: {
      type: 'array',
      description:
        'components the run was not given (a node-agent loader, a controller daemon beside an external API server), one entry each; absent when none',
      items: {
        type: 'object',
        required: ['reason', 'checks', 'clauses'],
        properties: {
          reason: { type: 'string', description: 'not selected: and the option that would test it' },
          checks: { type: 'array', items: { type: 'string' } },
          clauses: { ...count, description: 'clauses left notChecked for this reason' },
        },
      },
    },
    invocation: {
      type: 'object',
      required: ['command', 'selection', 'expectations'],
      description: 'how the run was asked for',
      properties: {
        command: { type: 'string', description: 'the command line, credentials scrubbed' },
        selection: { type: 'string', description: 'the checks selected and the options that chose them' },
        expectations: { type: 'array', items: { type: 'string' }, description: 'the --expectations files, as given' },
      },
    },
    totals: {
      type: 'object',
      required: [...TOTALS],
      properties: {
        ...Object.fromEntries(TOTALS.map((t) => [t, count])),
        failed: { ...count, description: FAILED_TOTAL },
        known: {
          ...count,
          description:
            'clauses that failed as the expectations file excuses (status failed, expectedFailure true); absent in reports of versions before it',
        },
        informative: {
          ...count,
          description:
            'clauses the catalog marks informative, each with its reason as the first note (absent in reports of versions before it)',
        },
        notServed: {
          ...count,
          description:
            'clauses whose feature the spec lets a server leave out, found not served by the capability probe (absent in reports of versions before it)',
        },
        blocked: {
          ...count,
          description: 'clauses not judged because they need a feature the target does not serve (absent in reports of versions before it)',
        },
      },
    },
    capabilities: {
      type: 'array',
      description:
        'the capability map: what the probe before the checks found the target serves, one entry per feature (absent when no API suite ran)',
      items: {
        type: 'object',
        required: ['feature', 'area', 'title', 'clause', 'required', 'state', 'evidence', 'blocks'],
        properties: {
          feature: { type: 'string' },
          area: { type: 'string' },
          title: { type: 'string' },
          clause: {
            type: 'string',
            description: 'the clause that requires the feature, or lets a server leave it out; a required feature not served fails it',
          },
          required: { type: 'boolean' },
          state: {
            enum: ['served', 'notServed', 'servedWrongly', 'unknown'],
            description: 'servedWrongly: answered, but not as the spec says (the checks judge how); unknown: not asked',
          },
          evidence: { type: 'string', description: 'the request and what it got' },
          blocks: { type: 'array', items: { type: 'string' }, description: 'checks of the run not run because the feature is not served' },
        },
      },
    },
    clauses: {
      type: 'array',
      items: {
        type: 'object',
        required: ['id', 'section', 'summary', 'status', 'checks', 'counterexamples', 'notes', 'expectedFailure'],
        properties: {
          id: { type: 'string', pattern: '^[a-z]+:\\S+$' },
          section: { type: 'string' },
          summary: { type: 'string' },
          status: { enum: [...STATUSES] },
          checks: count,
          counterexamples: { type: 'array', items: counterexample },
          notes: { type: 'array', items: { type: 'string' } },
          expectedFailure: {
            type: 'boolean',
            description: 'listed in the expectations file and not a regression: failed as excused, or did not fail',
          },
          expectation,
        },
      },
    },
    startedAt: { type: 'string', format: 'date-time' },
    durationMs: { type: 'number', minimum: 0 },
    errors: { type: 'array', items: { type: 'string' } },
    leftovers: {
      type: 'array',
      description:
        'external targets: objects of this run (labelled with its id) that cleanup did not remove within its bound (a finished run exits 3 when there is any); cleanupCommand removes them all',
      items: {
        type: 'object',
        required: ['kind', 'name', 'state', 'command'],
        properties: {
          kind: {
            type: 'string',
            description: 'Namespace, CustomResourceDefinition, ValidatingWebhookConfiguration, MutatingWebhookConfiguration',
          },
          name: { type: 'string' },
          state: { enum: ['present', 'terminating'], description: 'terminating: deleted but still there when the bounded wait ended' },
          command: { type: 'string', description: 'removes it by hand' },
        },
      },
    },
    cleanupCommand: {
      type: 'string',
      description:
        'external targets: the svc-conformance cleanup command that removes every object of this run (works after the run is gone)',
    },
    coverage: {
      type: 'object',
      required: ['docs', 'areas'],
      properties: {
        docs: { type: 'object', additionalProperties: { type: 'object', required: ['checked', 'normative'], properties: figure } },
        areas: {
          type: 'object',
          additionalProperties: {
            type: 'object',
            required: ['doc', 'checked', 'normative'],
            properties: { doc: { type: 'string' }, ...figure },
          },
        },
      },
    },
    scorecard,
    footprint: {
      type: 'object',
      required: ['namespaces', 'clusterObjects', 'requests', 'bytesSent', 'bytesReceived', 'checkWallMs', 'checks'],
      properties: {
        namespaces: count,
        clusterObjects: count,
        requests: requestsByVerb,
        bytesSent: count,
        bytesReceived: count,
        checkWallMs: { type: 'number', minimum: 0 },
        parallel: { type: 'integer', minimum: 1 },
        checks: { type: 'array', items: checkFootprint },
        slowdown: {
          type: 'object',
          description:
            'present when the target slowed down steadily over the run: the median round trip of each fifth of its requests (harness/transport/pace-trend.ts)',
          required: ['segmentsMs', 'factor', 'line'],
          properties: {
            segmentsMs: { type: 'array', items: { type: 'number', minimum: 0 } },
            factor: { type: 'number', minimum: 0 },
            line: { type: 'string' },
          },
        },
        perVerdict: {
          type: 'object',
          description:
            'what each decided clause (passed, failed, unspecified, inconclusive) cost the target; per check, the distinct clauses it decided',
          required: ['verdicts', 'requests', 'bytes', 'checks'],
          properties: {
            verdicts: count,
            requests: count,
            bytes: { ...count, description: 'sent and received' },
            bytesReceived: { ...count, description: 'received alone' },
            requestsPerVerdict: { type: 'number', minimum: 0 },
            bytesPerVerdict: count,
            bytesReceivedPerVerdict: count,
            checks: {
              type: 'array',
              description: 'checks that sent requests, the most requests per verdict first (none decided first of all)',
              items: {
                type: 'object',
                required: ['check', 'requests', 'bytes', 'verdicts'],
                properties: { check: { type: 'string' }, requests: count, bytes: count, verdicts: count },
              },
            },
          },
        },
      },
    },
  },
} as const;
