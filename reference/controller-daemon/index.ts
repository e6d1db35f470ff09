/**
 * The controller daemon's options as a pure model (node:2.6, node:5, node:8, rest:9.3):
 *
 *   parseFlags(['--leader-elect-renew-deadline=20s'], 'svc').errors[0].clause -> 'node:2.6/leader-elect-renew-deadline'
 */
import type { ProfileName } from '../profile.ts';
import { effective, withDefaults, type EffectiveConfig, type Values } from './effective.ts';
import { readFlags } from './parse.ts';
import { checkRules, isRefusal, rules, warningsFor, type Rule } from './rules.ts';
import type { FlagError, OtherComponents } from './types.ts';

export * from './types.ts';
export { options, flagName, defaultText, optionByFlag, optionByName, generalSigningOptions, specificSigningOptions } from './options.ts';
export { gates, gateName, gatesFor, resolveGates, gateListClause, lifecycleGates, lifecycleExpectation, type GateSpec } from './gates.ts';
export { knownControllers, offByDefault, enabledControllers, isControllerEnabled } from './controllers.ts';
export { pickCert, parseNamedCertKey, cipherSuiteClass } from './tls.ts';
export { preferredCipherSuites, insecureCipherSuites, tlsMinVersions } from '../tls-names.ts';
export {
  effective,
  withDefaults,
  defaultValue,
  secondaryEvictionRate,
  renderEffective,
  type EffectiveConfig,
  type Values,
} from './effective.ts';
export { rules, previousMinor, isRefusal, ruleOfClause, type Rule, type RuleContext } from './rules.ts';
export { readFlags } from './parse.ts';

/** The version the reference daemon reports; show-hidden-metrics accepts its previous minor. */
export const REFERENCE_VERSION = '1.24';

export interface ParseOptions {
  readonly version?: string;
  readonly other?: OtherComponents;
  /** Rules to apply (default all): the reference daemon's faults leave one out. */
  readonly rules?: readonly Rule[];
}

export interface ParsedFlags {
  /** The values set explicitly. */
  readonly options: Values;
  readonly errors: readonly FlagError[];
  /** Open decisions (rules binding `open`): a daemon may refuse the command line or ignore the option. */
  readonly open: readonly FlagError[];
  readonly warnings: readonly FlagError[];
}

/** Syntax first; the value rules run only on a command line that parsed (as upstream: parse, then validate). */
export function parseFlags(argv: readonly string[], profile: ProfileName, o: ParseOptions = {}): ParsedFlags {
  const read = readFlags(argv, profile);
  const cx = { profile, version: o.version ?? REFERENCE_VERSION, other: o.other ?? {} };
  if (read.errors.length > 0) return { options: read.values, errors: read.errors, open: [], warnings: [] };
  const all = withDefaults(read.values, profile);
  const active = o.rules ?? rules;
  return {
    options: read.values,
    errors: checkRules(all, read.values, cx, active.filter(isRefusal)),
    open: checkRules(
      all,
      read.values,
      cx,
      active.filter((r) => !isRefusal(r)),
    ),
    warnings: warningsFor(read.values, cx),
  };
}

export function effectiveOf(parsed: ParsedFlags, profile: ProfileName): EffectiveConfig {
  return effective(parsed.options, profile);
}
export { formatHelp, parseHelp, judgeHelp, type HelpRow } from './help.ts';
export { optionsMarkdown } from './doc-table.ts';
export { leaseWindow, type LeaseWindow } from './leadership.ts';
export {
  judgeHelpRun,
  judgeVersion,
  judgeRefusal,
  judgeOpenDecision,
  judgePaths,
  judgeValidStart,
  judgeUnexpectedExit,
  notReadyReason,
  judgeLease,
  leaseTaken,
  judgeTlsMinVersion,
  judgeCipherSuites,
  judgeSecurePortZero,
  judgeSni,
  judgeCertDir,
  type StartSeen,
  type MainLoopSeen,
  type Refusal,
  type PathSeen,
  type LeaseSeen,
  type LeaseObservation,
  type HandshakeSeen,
  type SniPairMade,
} from './judge.ts';
export type { Judgement } from '../judgement.ts';
