/**
 * The feature-gate life cycle of rest:9.3 (rest:9.3/feature-gate-lifecycle, rule 9): Alpha off by
 * default and can be enabled; Beta on by default and can be disabled; GA deprecated and
 * non-operational (setting it to true is accepted with a warning, disabling it fails); after its
 * window it is removed and any setting is refused.
 *
 *   setGate('ga', false) -> { accepted: false, ... }
 */
export type GateStage = 'alpha' | 'beta' | 'ga' | 'removed';

export interface GateOutcome {
  readonly accepted: boolean;
  /** Whether the feature is on after the setting (undefined when refused). */
  readonly enabled?: boolean;
  /** rule 9: a deprecated gate warns when used. */
  readonly warns: boolean;
  readonly why: string;
}

export function gateDefault(stage: GateStage): boolean | undefined {
  return stage === 'alpha' ? false : stage === 'beta' || stage === 'ga' ? true : undefined;
}

/** The outcome of `--feature-gates=<Gate>=<value>` for a gate at `stage`. */
export function setGate(stage: GateStage, value: boolean): GateOutcome {
  switch (stage) {
    case 'alpha':
    case 'beta':
      return { accepted: true, enabled: value, warns: false, why: `${stage} gates can be set either way` };
    case 'ga':
      return value
        ? { accepted: true, enabled: true, warns: true, why: 'a GA gate is deprecated and non-operational: setting it warns' }
        : { accepted: false, warns: true, why: 'disabling a non-operational (GA) gate fails' };
    case 'removed':
      return { accepted: false, warns: false, why: 'a removed gate is refused' };
  }
}
