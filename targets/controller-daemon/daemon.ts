/**
 * The reference controller daemon: validates its command line with the model (node:2.6, 5, 8), prints
 * errors naming the option and exits 1, prints the pflag table on --help, serves /healthz, /readyz and
 * /livez over HTTPS on --bind-address:--secure-port (paths outside --authorization-always-allow-paths
 * are 403: it has no authorization webhook), and with --leader-elect holds the lock Lease on the API
 * server of --svcconfig/--master. It runs no control loops.
 */
import {
  flagName,
  formatHelp,
  gatesFor,
  optionByFlag,
  options,
  parseFlags,
  rules,
  withDefaults,
  REFERENCE_VERSION,
  type FlagError,
  type Values,
} from '../../reference/controller-daemon/index.ts';
import { profiles, type ProfileName } from '../../reference/profile.ts';
import type { DaemonOptions, DaemonStart } from './daemon-start.ts';
import type { DaemonFault } from './fault-type.ts';
import { helpInWords, SLOW_MS } from './variations.ts';

export async function startDaemon(argv: readonly string[], o: DaemonOptions): Promise<DaemonStart> {
  const profile = profiles[o.profile];
  const name = profile.controllerManagerName;
  const variation = new Set(o.variations ?? []);
  if (variation.has('slow')) await new Promise((r) => setTimeout(r, SLOW_MS.start));
  const lacking = lackedFlags(o.faults, o.profile);
  const unknown = argv.find((w) => lacking.some((f) => w === `--${f}` || w.startsWith(`--${f}=`)));
  if (unknown !== undefined) {
    o.err(`Error: unknown flag: ${unknown.split('=')[0]}\n`);
    return { kind: 'exit', code: 1 };
  }
  if (argv.includes('-h') || argv.includes('--help')) {
    const overrides = Object.assign({}, ...o.faults.map((f) => f.defaults ?? {})) as Values;
    const gateTable = o.faults.find((f) => f.gates)?.gates;
    const table = withoutRows(formatHelp(o.profile, overrides, gateTable), lacking);
    o.out(
      `The ${name} is a daemon that embeds the core control loops.\n\nUsage:\n  ${name} [flags]\n\nFlags:\n${variation.has('help-in-words') ? helpInWords(table) : table}`,
    );
    return { kind: 'exit', code: 0 };
  }
  const disabled = new Set(o.faults.flatMap((f) => (f.disablesRule ? [f.disablesRule] : [])));
  // Variation main-loop-validation: control-loop values are checked once leadership is taken, not here.
  const deferred = variation.has('main-loop-validation') ? rules.filter((r) => r.binding === 'main-loop' && !disabled.has(r.name)) : [];
  const active = { rules: rules.filter((r) => !disabled.has(r.name) && !deferred.includes(r)) };
  const strict = parseFlags(argv, o.profile, active);
  const parsed = o.faults.some((f) => f.ignoresNonOptions) ? parseFlags(withoutNonOptions(argv, strict.errors), o.profile, active) : strict;
  for (const w of parsed.warnings) o.err(`W ${w.option}: ${w.message}\n`);
  // An option without what it needs: refused here, ignored under variation needs-ignored (both legal).
  const refused = variation.has('needs-ignored') ? parsed.errors : [...parsed.errors, ...parsed.open];
  if (variation.has('needs-ignored')) for (const w of parsed.open) o.err(`W ${w.option}: ${w.message}; ignored\n`);
  if (refused.length > 0) {
    for (const e of refused) o.err(`Error: ${e.option}: ${e.message} (${e.rule}; ${e.clause})\n`);
    return { kind: 'exit', code: 1 };
  }
  const late = deferred.length > 0 ? parseFlags(argv, o.profile, { rules: deferred }).errors : [];
  const set = parsed.options;
  if (o.faults.some((f) => f.stringsOneValue)) {
    const listed = argv.find((w) => /^--[^=]+=.*,/.test(w) && optionByFlag(w.slice(2, w.indexOf('=')), o.profile)?.type === 'strings');
    if (listed !== undefined) {
      o.err(`Error: ${listed.slice(0, listed.indexOf('='))}: one value expected\n`);
      return { kind: 'exit', code: 1 };
    }
  }
  if (o.faults.some((f) => f.alphaGatesLocked)) {
    const enabled = Object.entries((set['feature-gates'] as Record<string, boolean> | undefined) ?? {}).filter(
      ([name, on]) => on && gatesFor(o.profile).get(name)?.stage === 'ALPHA',
    );
    if (enabled.length > 0) {
      o.err(`Error: --feature-gates: alpha gate ${enabled[0]![0]} cannot be enabled\n`);
      return { kind: 'exit', code: 1 };
    }
  }
  if (set['secure-port'] === 0 && o.faults.some((f) => f.refusesPortZero)) {
    o.err('Error: --secure-port: 0 is not a port\n');
    return { kind: 'exit', code: 1 };
  }
  if (set['version'] !== undefined && set['version'] !== 'false') {
    o.out(set['version'] === 'raw' ? `${REFERENCE_VERSION}.0\n` : `${name} v${REFERENCE_VERSION}.0\n`);
    return { kind: 'exit', code: 0 };
  }
  const faultDefaults = Object.assign({}, ...o.faults.map((f) => f.defaults ?? {})) as Values;
  const v = withDefaults({ ...faultDefaults, ...set }, o.profile);
  // Everything a running daemon needs (HTTPS, certificates, the API client, leader election) is loaded
  // only now: most starts the suite makes are refused above, and each paid for loading it.
  const { runDaemon } = await import('./serving.ts');
  return runDaemon(v, late, o);
}

/** Faults `option-missing/<option>`: the flags of the options the daemon lacks. */
function lackedFlags(faults: readonly DaemonFault[], profile: ProfileName): string[] {
  return faults
    .flatMap((f) => (f.lacksOption === undefined ? [] : [options.find((x) => x.name === f.lacksOption)!]))
    .map((x) => flagName(x, profile));
}

/** The help table without the rows of `flags` (each a one-line row: gate lists are never lacked). */
function withoutRows(table: string, flags: readonly string[]): string {
  return table
    .split('\n')
    .filter((line) => !flags.some((f) => new RegExp(`^\\s+(?:-\\w, )?--${f.replace(/[.-]/g, '\\$&')}(?:\\s|$)`).test(line)))
    .join('\n');
}

/** Fault `arguments-ignored`: the words a strict reading refused as non-options (node:1.4), dropped. */
function withoutNonOptions(argv: readonly string[], errors: readonly FlagError[]): string[] {
  const refused = new Set(errors.filter((e) => e.clause === 'node:1.4').map((e) => e.option));
  return argv.filter((w) => !refused.has(w) && !refused.has(w.split('=')[0]!));
}
