/**
 * The upstream `resource.Quantity` string syntax (spec 2.2 `containerLogMaxSize` "quantity string",
 * default `10Mi`; 2.4 `infoBufferSize`), with the exact value as a reduced fraction and the canonical
 * text upstream would write back. No floats anywhere: `0.1` is 1/10, not 0.1000000000000000055...
 *
 *   <quantity>        ::= <signedNumber><suffix>
 *   <number>          ::= <digits> | <digits>.<digits> | <digits>. | .<digits>
 *   <suffix>          ::= <binarySI> | <decimalExponent> | <decimalSI>
 *   <binarySI>        ::= Ki | Mi | Gi | Ti | Pi | Ei
 *   <decimalSI>       ::= n | u | m | "" | k | M | G | T | P | E
 *   <decimalExponent> ::= "e" <signedInteger> | "E" <signedInteger>
 *
 *   parseQuantity('1.5Gi') -> { ok: true, value: { numerator: 1610612736n, denominator: 1n }, canonical: '1536Mi', ... }
 *
 * Where upstream's scanner is laxer than its own documented grammar we follow the grammar, because the
 * spec only says "quantity": upstream reads a number with no digits at all (`Mi`, `-`, `.`) as zero.
 * Those are rejected here with a message that says so, so a target accepting them is easy to explain.
 */

export type Rational = { numerator: bigint; denominator: bigint };
export type QuantityFormat = 'BinarySI' | 'DecimalSI' | 'DecimalExponent';
export type QuantityParse =
  | {
      ok: true;
      /** Exactly the value written, reduced, denominator > 0 (before upstream's nano rounding and cap). */
      value: Rational;
      /** What upstream serialises the parsed quantity as (after rounding to 1n and the BinarySI cap). */
      canonical: string;
      /** The format upstream remembers from the suffix, which decides how `canonical` is written. */
      format: QuantityFormat;
    }
  | { ok: false; error: string };

/** Upstream's error texts, so a rejection reads the same as the agent's. */
const SPLIT_RE = '^([+-]?[0-9.]+)([eEinumkKMGTP]*[-+]?[0-9]*)$';
export const ERR_FORMAT_WRONG = `quantities must match the regular expression '${SPLIT_RE}'`;
export const ERR_SUFFIX = "unable to parse quantity's suffix";

/** Exponents past this are refused rather than expanded (10^100000 is already a 330 000-bit integer). */
export const MAX_DECIMAL_EXPONENT = 100_000;

const DECIMAL_SI: ReadonlyMap<string, number> = new Map([
  ['n', -9],
  ['u', -6],
  ['m', -3],
  ['', 0],
  ['k', 3],
  ['M', 6],
  ['G', 9],
  ['T', 12],
  ['P', 15],
  ['E', 18],
]);
const BINARY_SI: ReadonlyMap<string, number> = new Map([
  ['Ki', 10],
  ['Mi', 20],
  ['Gi', 30],
  ['Ti', 40],
  ['Pi', 50],
  ['Ei', 60],
]);
const DECIMAL_SUFFIX_BY_EXP: ReadonlyMap<number, string> = new Map([...DECIMAL_SI].map(([k, v]) => [v, k]));
const BINARY_SUFFIX_BY_POW: readonly string[] = ['', 'Ki', 'Mi', 'Gi', 'Ti', 'Pi', 'Ei'];

/** Upstream caps a BinarySI quantity, silently, at 2^63-1 in magnitude ("8Ei" parses as 2^63-1). */
const BINARY_CAP = (1n << 63n) - 1n;
const NANO = 1_000_000_000n;

const abs = (x: bigint) => (x < 0n ? -x : x);
function gcd(a: bigint, b: bigint): bigint {
  a = abs(a);
  b = abs(b);
  while (b !== 0n) [a, b] = [b, a % b];
  return a;
}
function reduce(numerator: bigint, denominator: bigint): Rational {
  if (numerator === 0n) return { numerator: 0n, denominator: 1n };
  const g = gcd(numerator, denominator);
  return { numerator: numerator / g, denominator: denominator / g };
}

const DIGITS = /^[0-9]*/;

export function parseQuantity(text: string): QuantityParse {
  const fail = (error: string): QuantityParse => ({ ok: false, error });
  if (text === '') return fail(ERR_FORMAT_WRONG);

  let pos = 0;
  let negative = false;
  if (text[0] === '-' || text[0] === '+') {
    negative = text[0] === '-';
    pos = 1;
  }
  const intDigits = DIGITS.exec(text.slice(pos))?.[0] ?? '';
  pos += intDigits.length;
  let fracDigits = '';
  if (text[pos] === '.') {
    pos++;
    fracDigits = DIGITS.exec(text.slice(pos))?.[0] ?? '';
    pos += fracDigits.length;
  }

  // Upstream's suffix scanner: letters from "eEinumkKMGTP", an optional sign, digits, then the end.
  // Anything else left over (a space, "B", a second ".") is a format error, not a suffix error.
  const suffix = text.slice(pos);
  if (!/^[eEinumkKMGTP]*[-+]?[0-9]*$/.test(suffix)) return fail(ERR_FORMAT_WRONG);
  let format: QuantityFormat;
  let base: 2n | 10n;
  let exponent: number;
  const dec = DECIMAL_SI.get(suffix);
  const bin = BINARY_SI.get(suffix);
  if (dec !== undefined) [format, base, exponent] = ['DecimalSI', 10n, dec];
  else if (bin !== undefined) [format, base, exponent] = ['BinarySI', 2n, bin];
  else if (/^[eE][-+]?[0-9]+$/.test(suffix)) {
    exponent = Number(suffix.slice(1));
    if (Math.abs(exponent) > MAX_DECIMAL_EXPONENT) {
      return fail(`decimal exponent ${suffix.slice(1)} is outside the modelled range +-${MAX_DECIMAL_EXPONENT}`);
    }
    [format, base] = ['DecimalExponent', 10n];
  } else return fail(ERR_SUFFIX);
  // Checked after the suffix so this message is given only where upstream would have answered 0.
  if (intDigits === '' && fracDigits === '') {
    return fail(`${ERR_FORMAT_WRONG}: the number has no digits (upstream's scanner reads most such texts as 0; the grammar needs a digit)`);
  }

  // Exact value: digits / 10^fraction-length, times base^exponent.
  let numerator = BigInt(intDigits + fracDigits || '0');
  let denominator = 10n ** BigInt(fracDigits.length);
  const factor = base ** BigInt(Math.abs(exponent));
  if (exponent >= 0) numerator *= factor;
  else denominator *= factor;
  if (negative) numerator = -numerator;
  const value = reduce(numerator, denominator);

  return { ok: true, value, canonical: canonicalize(value, format), format };
}

/**
 * The value upstream stores, in units of 1n: the magnitude is rounded UP to a whole nano ("if you want
 * some resources you should get some", so 0.1n is 1n), then a BinarySI magnitude is capped at 2^63-1.
 */
export function storedNanos(value: Rational, format: QuantityFormat): bigint {
  const negative = value.numerator < 0n;
  const scaled = abs(value.numerator) * NANO;
  let nanos = scaled / value.denominator + (scaled % value.denominator === 0n ? 0n : 1n);
  if (format === 'BinarySI' && nanos > BINARY_CAP * NANO) nanos = BINARY_CAP * NANO;
  return negative ? -nanos : nanos;
}

/**
 * Upstream `Quantity.String()`: no fractional digits, the largest exponent that loses nothing.
 * Decimal forms use exponents that are multiples of 3 (suffix n..E, or `eN` past E / for DecimalExponent);
 * BinarySI uses powers of 1024, but falls back to DecimalSI for |v| < 1024 or a non-integer value.
 */
export function canonicalize(value: Rational, format: QuantityFormat): string {
  const nanos = storedNanos(value, format);
  if (nanos === 0n) return '0';
  const sign = nanos < 0n ? '-' : '';
  const magnitude = abs(nanos);

  if (format === 'BinarySI' && magnitude >= 1024n * NANO && magnitude % NANO === 0n) {
    let m = magnitude / NANO;
    let pow = 0;
    while (m % 1024n === 0n && pow < BINARY_SUFFIX_BY_POW.length - 1) {
      m /= 1024n;
      pow++;
    }
    return `${sign}${m}${BINARY_SUFFIX_BY_POW[pow] ?? ''}`;
  }

  // magnitude = m * 10^e with no trailing zeros in m, then e floored to a multiple of 3.
  let m = magnitude;
  let e = -9;
  while (m % 10n === 0n) {
    m /= 10n;
    e++;
  }
  const r = ((e % 3) + 3) % 3;
  m *= 10n ** BigInt(r);
  e -= r;
  const si = DECIMAL_SUFFIX_BY_EXP.get(e);
  const suffix = format === 'DecimalExponent' || si === undefined ? (e === 0 ? '' : `e${e}`) : si;
  return `${sign}${m}${suffix}`;
}
