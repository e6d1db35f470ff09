/**
 * Arbitraries for health, versioning and events cases: plain data the checks interpret and the model
 * tests feed to reference/ (never the HTTP client).
 */
import fc from 'fast-check';
import { DEPRECATED_FIELDS, REQUIRED_ON_CREATE } from '../reference/events-v1.ts';
import type { HealthEndpoint } from '../reference/health.ts';

export interface HealthCase {
  readonly endpoint: HealthEndpoint;
  readonly verbose: boolean;
  /** Indices into the check names learned from the target (modulo their count); duplicates collapse. */
  readonly exclude: readonly number[];
  /** Individual checks to ask for (livez/readyz only), as indices likewise. */
  readonly singles: readonly number[];
}

export const healthCaseArb: fc.Arbitrary<HealthCase> = fc.record({
  endpoint: fc.constantFrom<HealthEndpoint>('healthz', 'livez', 'readyz'),
  verbose: fc.boolean(),
  exclude: fc.array(fc.nat(50), { maxLength: 3 }),
  singles: fc.array(fc.nat(50), { minLength: 1, maxLength: 2 }),
});

/** Indices into the served, not yet removed removal-table rows a target lists (learned, modulo). */
export const versionPicksArb: fc.Arbitrary<number[]> = fc.array(fc.nat(500), { minLength: 1, maxLength: 3 });

export interface EventCase {
  readonly type: string;
  readonly drop: readonly (typeof REQUIRED_ON_CREATE)[number][];
  readonly deprecated: readonly (typeof DEPRECATED_FIELDS)[number][];
  /** A series of repeats: its count (at least 2, as upstream requires of a series). */
  readonly seriesCount?: number;
}

/** A valid events/v1 Event with at most two required fields dropped, two legacy fields set, a bad type. */
export const eventCaseArb: fc.Arbitrary<EventCase> = fc.record(
  {
    type: fc.oneof(
      { weight: 3, arbitrary: fc.constantFrom('Normal', 'Warning') },
      { weight: 1, arbitrary: fc.constantFrom('Info', 'Error', 'normal', 'WARNING') },
    ),
    // A clean event half the time: it must be created, and only then can its fields be read back.
    drop: fc.oneof(fc.constant([]), fc.subarray([...REQUIRED_ON_CREATE], { maxLength: 2 })),
    deprecated: fc.oneof(fc.constant([]), fc.subarray([...DEPRECATED_FIELDS], { maxLength: 2 })),
    seriesCount: fc.integer({ min: 2, max: 50 }),
  },
  { requiredKeys: ['type', 'drop', 'deprecated'] },
);

export interface RuntimeConfigItem {
  readonly group: string;
  readonly version: string;
  readonly resource?: string;
  /** `omit` writes no `=value` (which means true, rest:9.1.3). */
  readonly value: 'omit' | 'true' | 'false';
}

export const runtimeConfigItemArb: fc.Arbitrary<RuntimeConfigItem> = fc.record(
  {
    group: fc.constantFrom('batch', 'policy', 'events.svc.io', 'api'),
    version: fc.constantFrom('v1', 'v1beta1', 'v2beta3'),
    resource: fc.constantFrom('cronjobs', 'poddisruptionbudgets', 'events'),
    value: fc.constantFrom('omit' as const, 'true' as const, 'false' as const),
  },
  { requiredKeys: ['group', 'version', 'value'] },
);

export const showRuntimeConfigItem = (i: RuntimeConfigItem): string =>
  `${i.group}/${i.version}${i.resource !== undefined ? `/${i.resource}` : ''}${i.value === 'omit' ? '' : `=${i.value}`}`;

export const runtimeConfigArb: fc.Arbitrary<RuntimeConfigItem[]> = fc.array(runtimeConfigItemArb, { maxLength: 6 });

/** One item that no reading of rest:9.1.3 accepts. */
export const badRuntimeConfigItemArb: fc.Arbitrary<string> = fc.oneof(
  fc.constantFrom('batch', 'a/b/c/d', 'batch//cronjobs', 'Batch/v1', 'batch/v1=yes', '=true', '/v1'),
  fc.stringMatching(/^[a-z]{1,5}\/v1=[a-z]{2,5}$/).filter((s) => !s.endsWith('=true') && !s.endsWith('=false')),
);

export interface PersistedCase {
  readonly minAvailable: number;
  readonly selectorValue: string;
  readonly readVia: 'get' | 'list';
}

/** A PodDisruptionBudget written through policy/v1beta1 and read back through policy/v1. */
export const persistedCaseArb: fc.Arbitrary<PersistedCase> = fc.record({
  minAvailable: fc.integer({ min: 0, max: 3 }),
  selectorValue: fc.constantFrom('web', 'db', 'cache'),
  readVia: fc.constantFrom('get' as const, 'list' as const),
});

/**
 * rest:9.3 rule 2: a PodDisruptionBudget written through `first` (policy/v1 or policy/v1beta1), read and
 * written back through the other, read again through `first`. minAvailable and maxUnavailable are
 * exclusive (one of them, an integer or a percentage); the selector has labels and, sometimes, an
 * expression.
 */
export interface RoundTripCase {
  readonly first: 'v1' | 'v1beta1';
  readonly budget: { readonly minAvailable: number | string } | { readonly maxUnavailable: number | string };
  readonly selectorValue: string;
  readonly expression: boolean;
}

const intOrPercent = fc.oneof(fc.integer({ min: 0, max: 5 }), fc.constantFrom('10%', '30%', '50%'));

export const roundTripCaseArb: fc.Arbitrary<RoundTripCase> = fc.record({
  first: fc.constantFrom('v1' as const, 'v1beta1' as const),
  budget: fc.oneof(
    intOrPercent.map((minAvailable) => ({ minAvailable })),
    intOrPercent.map((maxUnavailable) => ({ maxUnavailable })),
  ),
  selectorValue: fc.constantFrom('web', 'db', 'cache'),
  expression: fc.boolean(),
});
