/**
 * The `--help` flag table in pflag's layout, both ways: the reference daemon prints it from the model,
 * the suite reads any daemon's help back into rows and judges each against the spec (name, type,
 * default). pflag's layout: `  -v, --v Level    usage` / `      --name type    usage (default x)`,
 * no type word for booleans, string defaults quoted, zero defaults not shown.
 *
 *   parseHelp('      --secure-port int   HTTPS port (default 10257)')[0] -> { flag: 'secure-port', type: 'int', default: '10257' }
 */
import type { Judgement } from '../judgement.ts';
import { fail, pass, unspecified } from '../judgement.ts';
import { formatGoDuration } from '../nodeagent/duration.ts';
import type { ProfileName } from '../profile.ts';
import { defaultValue } from './effective.ts';
import { flagName, optionByFlag, options } from './options.ts';
import { gateListClause, gateName, gates, type GateSpec } from './gates.ts';
import type { OptionSpec, OptionType, OptionValue } from './types.ts';
import { parseValue } from './values.ts';

export interface HelpRow {
  readonly flag: string;
  readonly shorthand?: string;
  /** The type word pflag prints ('' for booleans). */
  readonly type: string;
  /** The text inside `(default ...)`, if shown. */
  readonly default?: string;
  readonly usage: string;
}

/** The type word pflag prints for each model type (the first of the accepted words). */
const typeWords: Readonly<Record<OptionType, readonly string[]>> = {
  string: ['string', 'ip'],
  int: ['int', 'int32', 'Level'],
  int32: ['int32'],
  float: ['float32', 'float', 'float64'],
  bool: [''],
  duration: ['duration'],
  strings: ['strings', 'stringSlice'],
  stringToString: ['stringToString', 'mapStringString'],
  gates: ['mapStringBool'],
  namedCertKey: ['namedCertKey', 'string'],
  vmodule: ['pattern=N,...', 'moduleSpec'],
  version: ['version[=true]', 'version'],
  help: [''],
};

function isZero(v: OptionValue): boolean {
  if (Array.isArray(v)) return v.length === 0;
  if (typeof v === 'object') return Object.keys(v as object).length === 0;
  return v === false || v === 0 || v === 0n || v === '';
}

/** How pflag shows a value in `(default ...)`. */
function showValue(type: OptionType, v: OptionValue): string {
  if (typeof v === 'bigint') return formatGoDuration(v);
  if (Array.isArray(v)) return `[${(v as string[]).join(',')}]`;
  if (type === 'string') return JSON.stringify(v);
  return String(v);
}

/** Upstream's per-gate line in the --feature-gates usage: `Name=true|false (BETA - default=true)`. */
export const gateHelpLine = (name: string, g: Pick<GateSpec, 'stage' | 'default'>) =>
  `${name}=true|false (${g.stage} - default=${g.default})`;

/**
 * pflag's table for the model's options; `overrides` replace defaults and `gateTable` the gate list
 * (the reference daemon's faults).
 */
export function formatHelp(
  profile: ProfileName,
  overrides: Readonly<Record<string, OptionValue>> = {},
  gateTable: readonly GateSpec[] = gates,
): string {
  const lines = options
    .filter((o) => !o.pattern)
    .map((o) => {
      const head = `${o.shorthand ? `  -${o.shorthand}, ` : '      '}--${flagName(o, profile)}${typeWords[o.type][0] ? ` ${typeWords[o.type][0]}` : ''}`;
      const d = Object.hasOwn(overrides, o.name) ? overrides[o.name] : defaultValue(o, profile);
      const shown = d === undefined || isZero(d) ? '' : ` (default ${showValue(o.type, d)})`;
      const gateLines = o.type === 'gates' ? [' Options are:', ...gateTable.map((g) => gateLine(g, profile))] : [];
      return { head, usage: o.meaning + shown, more: gateLines };
    });
  const width = Math.max(...lines.map((l) => l.head.length));
  const indent = ' '.repeat(width + 3);
  return lines.map((l) => [`${l.head.padEnd(width)}   ${l.usage}`, ...l.more.map((m) => indent + m.trim())].join('\n')).join('\n') + '\n';
}

const gateLine = (g: GateSpec, profile: ProfileName) => gateHelpLine(gateName(g, profile), g);

const FLAG_LINE = /^\s{1,8}(?:-([A-Za-z0-9]), )?--([A-Za-z0-9][A-Za-z0-9._-]*)(?: (\S+))?(?:\s{2,}(.*))?$/;

/** Reads a help text into rows; lines that are not flag lines continue the previous row's usage. */
export function parseHelp(text: string): HelpRow[] {
  const rows: { flag: string; shorthand?: string; type: string; usage: string }[] = [];
  for (const line of text.split(/\r?\n/)) {
    const m = FLAG_LINE.exec(line);
    if (m) {
      rows.push({ flag: m[2]!, shorthand: m[1], type: m[3] ?? '', usage: (m[4] ?? '').trim() });
    } else if (rows.length > 0 && /^\s{9,}\S/.test(line)) {
      rows[rows.length - 1]!.usage += ' ' + line.trim();
    }
  }
  return rows.map((r) => {
    const d = shownDefault(r.usage);
    return d !== undefined ? { ...r, default: d } : r;
  });
}

/**
 * The default a usage text states: pflag's `(default x)`, or in the help text's own words, as upstream
 * writes some (`Mask size for IPv4 node cidr in dual-stack cluster. Default is 24.`). A sentence giving
 * several defaults (`Default is 24 for IPv4 and 64 for IPv6.`) states no single one.
 */
export function shownDefault(usage: string): string | undefined {
  const d = /\(default (.*)\)\s*$/.exec(usage);
  if (d) return d[1]!;
  const w = /(?:^|[.;]\s+)Defaults? (?:is|to|:)\s*("[^"]*"|[^\s,;]+?)\.?(?:\s*$|\s+(?=[A-Z]))/.exec(usage);
  return w ? w[1]! : undefined;
}

/** The default a help row shows, read with the option's type; undefined when it does not parse. */
function readShownDefault(o: OptionSpec, shown: string): OptionValue | undefined {
  let text = shown;
  if (/^".*"$/.test(text)) text = JSON.parse(text) as string;
  if (/^\[.*\]$/.test(text)) text = text.slice(1, -1);
  const v = parseValue(o.type, text, undefined);
  return v.ok ? v.value : undefined;
}

function sameValue(a: OptionValue, b: OptionValue): boolean {
  if (typeof a === 'number' && typeof b === 'number') return Math.abs(a - b) <= Math.abs(a) * 1e-6;
  return (
    JSON.stringify(a, (_k, v: unknown) => (typeof v === 'bigint' ? `${v}ns` : v)) ===
    JSON.stringify(b, (_k, v: unknown) => (typeof v === 'bigint' ? `${v}ns` : v))
  );
}

/**
 * Judges a help table: every option of the spec present (its clause), with a type the spec's type
 * reads as (node:8 rows have no type in the spec: a different word is only recorded) and the spec's
 * default (a zero default may be left unshown). Extra flags are recorded as unspecified (node:1.4).
 */
export function judgeHelp(rows: readonly HelpRow[], profile: ProfileName): Judgement[] {
  const out: Judgement[] = [];
  const byFlag = new Map(rows.map((r) => [r.flag, r]));
  for (const o of options) {
    if (o.pattern) continue;
    const flag = flagName(o, profile);
    const row = byFlag.get(flag);
    if (!row) {
      out.push(fail(o.clause, `--${flag} listed in --help`, 'absent from --help'));
      continue;
    }
    const words = typeWords[o.type];
    if (words.includes(row.type)) out.push(pass(o.clause, `--${flag} of type ${o.type}`, row.type || 'bool'));
    else if (!o.typeFromSpec) out.push(unspecified(o.clause, `--${flag}: the spec gives no type (ours: ${o.type})`, row.type || 'bool'));
    else
      out.push(
        fail(
          o.clause,
          `--${flag} of type ${o.type} (${words.map((w) => w || '(no type word)').join(' or ')})`,
          row.type || '(no type word)',
        ),
      );

    const want = defaultValue(o, profile);
    if (want === undefined) {
      if (row.default !== undefined)
        out.push(
          unspecified(
            o.clause,
            `--${flag}: the spec gives no default${o.defaultNote ? ` (${o.defaultNote})` : ''}`,
            `default ${row.default}`,
          ),
        );
      continue;
    }
    if (row.default === undefined) {
      out.push(
        isZero(want)
          ? pass(o.clause, `--${flag} default ${showValue(o.type, want)}`, 'zero default not shown')
          : fail(o.clause, `--${flag} default ${showValue(o.type, want)}`, 'no default shown'),
      );
      continue;
    }
    const got = readShownDefault(o, row.default);
    out.push(
      got !== undefined && sameValue(got, want)
        ? pass(o.clause, `--${flag} default ${showValue(o.type, want)}`, row.default)
        : fail(o.clause, `--${flag} default ${showValue(o.type, want)}`, `default ${row.default}`),
    );
  }
  for (const r of rows) {
    if (!optionByFlag(r.flag, profile)) out.push(unspecified('node:1.4', 'flags of the spec', `extra flag --${r.flag}`));
  }
  const gatesRow = rows.find((r) => r.flag === 'feature-gates');
  if (gatesRow) out.push(...judgeGateList(gatesRow.usage, profile));
  return out;
}

/**
 * The gates a help text lists in the --feature-gates usage, judged against the lists of node:2.6:
 * a listed gate must show the spec's stage and default (gates the spec describes without naming them
 * are only recorded). The spec does not require help to list gates: absent gates are unspecified.
 */
export function judgeGateList(usage: string, profile: ProfileName): Judgement[] {
  const listed = new Map(
    [...usage.matchAll(/([A-Za-z0-9]+)=true\|false \(([A-Z]+) - default=(true|false)\)/g)].map((m) => [
      m[1]!,
      { stage: m[2]!, default: m[3] === 'true' },
    ]),
  );
  if (listed.size === 0)
    return [unspecified('node:2.6/feature-gates', 'gates listed in the --feature-gates help', 'no gate list in --help')];
  const out: Judgement[] = [];
  for (const g of gates) {
    const name = gateName(g, profile);
    const seen = listed.get(name);
    const want = gateHelpLine(name, g);
    if (!seen) out.push(unspecified(gateListClause(g), want, 'not listed in --help'));
    else if (seen.stage === g.stage && seen.default === g.default) out.push(pass(gateListClause(g), want));
    else
      out.push(
        (g.named ? fail : unspecified)(
          gateListClause(g),
          want,
          gateHelpLine(name, { stage: seen.stage as GateSpec['stage'], default: seen.default }),
        ),
      );
  }
  const known = new Set(gates.map((g) => gateName(g, profile)));
  for (const name of listed.keys())
    if (!known.has(name)) out.push(unspecified('node:2.6/feature-gates', 'the gates of node:2.6', `extra gate ${name}`));
  return out;
}
