/**
 * Reads a command line the way pflag does (the controller daemon is a Go program): `--f=v`, `--f v`,
 * bare booleans (`--f` is true; in `--f false` the `false` is an argument, not the value), `-v 3`,
 * `-v=3`, `-v3`, `--` ending the flags, unknown flags refused. The daemon takes no arguments, so any
 * left-over argument is an error too.
 *
 *   readFlags(['--secure-port', '0', '--leader-elect'], 'svc').values -> { 'secure-port': 0, 'leader-elect': true }
 */
import type { ProfileName } from '../profile.ts';
import { flagName, optionByFlag, optionByShorthand } from './options.ts';
import type { FlagError, OptionSpec, OptionValue } from './types.ts';
import { isBoolLike, parseValue } from './values.ts';
import type { ClauseId } from '../catalog/clause-ids.ts';

export interface ReadFlags {
  /** Explicitly set values by option name (svc spelling); pattern options by their flag name. */
  readonly values: Readonly<Record<string, OptionValue>>;
  /** Flags in the order given, as the user spelled them, with the option they set. */
  readonly seen: readonly { flag: string; option: OptionSpec }[];
  readonly errors: readonly FlagError[];
}

const SYNTAX_CLAUSE = 'node:1.4';

export function readFlags(argv: readonly string[], profile: ProfileName): ReadFlags {
  const values: Record<string, OptionValue> = Object.create(null) as Record<string, OptionValue>;
  const seen: { flag: string; option: OptionSpec }[] = [];
  const errors: FlagError[] = [];
  const syntax = (option: string, message: string, clause: ClauseId = SYNTAX_CLAUSE) =>
    errors.push({ option, clause, rule: 'flag syntax', message });

  const set = (o: OptionSpec, flag: string, text: string) => {
    const key = o.pattern ? flag.replace(/^-+/, '') : o.name;
    const r = parseValue(o.type, text, values[key]);
    if (!r.ok) {
      errors.push({ option: flag, clause: o.clause, rule: `value of type ${o.type}`, message: `${r.error} for "${flag}" flag` });
      return;
    }
    values[key] = r.value;
    seen.push({ flag, option: o });
  };

  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i]!;
    if (arg === '--') {
      for (const rest of argv.slice(i + 1)) syntax(rest, `unexpected argument ${JSON.stringify(rest)}: the daemon takes no arguments`);
      break;
    }
    if (arg.startsWith('--')) {
      const body = arg.slice(2);
      const eq = body.indexOf('=');
      const name = eq < 0 ? body : body.slice(0, eq);
      if (name === '' || name.startsWith('-') || name.startsWith('=')) {
        syntax(arg, `bad flag syntax: ${arg}`);
        continue;
      }
      const o = optionByFlag(name, profile);
      if (!o) {
        syntax(`--${name}`, `unknown flag: --${name}`);
        continue;
      }
      const flag = `--${o.pattern ? name : flagName(o, profile)}`;
      if (eq >= 0) set(o, flag, body.slice(eq + 1));
      else if (isBoolLike(o.type)) set(o, flag, 'true');
      else if (i + 1 < argv.length) set(o, flag, argv[++i]!);
      else syntax(flag, `flag needs an argument: ${flag}`, o.clause);
      continue;
    }
    if (arg.startsWith('-') && arg.length > 1) {
      // Shorthands can be stacked (`-hv3`); each letter is one flag, a value takes the rest.
      let rest = arg.slice(1);
      while (rest !== '') {
        const ch = rest[0]!;
        const o = optionByShorthand(ch);
        if (!o) {
          syntax(`-${ch}`, `unknown shorthand flag: '${ch}' in ${arg}`);
          break;
        }
        const flag = `-${ch}`;
        rest = rest.slice(1);
        if (rest.startsWith('=')) {
          set(o, flag, rest.slice(1));
          rest = '';
        } else if (isBoolLike(o.type)) {
          set(o, flag, 'true');
        } else if (rest !== '') {
          set(o, flag, rest);
          rest = '';
        } else if (i + 1 < argv.length) {
          set(o, flag, argv[++i]!);
        } else {
          syntax(flag, `flag needs an argument: '${ch}' in ${arg}`, o.clause);
        }
      }
      continue;
    }
    syntax(arg, `unexpected argument ${JSON.stringify(arg)}: the daemon takes no arguments`);
  }
  return { values, seen, errors };
}
