/**
 * Go `time.Duration` text, as read and written by the node agent and the controller daemon (both Go
 * programs; spec 2 "Duration fields are written as strings such as `1m`, `20s`, `4h`", and 2.6
 * "`duration` like `1m0s`"). The spec shows only examples, so the grammar and the overflow rules are
 * Go's `time.ParseDuration` (Go >= 1.17) and the output is Go's `Duration.String()`, reproduced
 * decision for decision, including the float64 rounding of fractions and the error texts.
 *
 *   parseGoDuration('1h30m') -> { ok: true, nanos: 5400000000000n }
 *   parseGoDuration('1d')    -> { ok: false, error: 'time: unknown unit "d" in duration "1d"' }
 *   formatGoDuration(60_000_000_000n) -> '1m0s'
 */

export type DurationParse = { ok: true; nanos: bigint } | { ok: false; error: string };

const NS = 1n;
const US = 1000n * NS;
const MS = 1000n * US;
const SEC = 1000n * MS;
const MIN = 60n * SEC;
const HOUR = 60n * MIN;

/** Go's `unitMap`. Both micro signs are accepted: U+00B5 (micro sign) and U+03BC (Greek mu). */
const UNITS: ReadonlyMap<string, bigint> = new Map([
  ['ns', NS],
  ['us', US],
  ['\u00b5s', US],
  ['\u03bcs', US],
  ['ms', MS],
  ['s', SEC],
  ['m', MIN],
  ['h', HOUR],
]);

/** Go works on an unsigned accumulator and allows magnitudes up to 2^63 (so that -2^63 parses). */
const MAX_MAGNITUDE = 1n << 63n;
const INT64_MAX = MAX_MAGNITUDE - 1n;
const INT64_MIN = -MAX_MAGNITUDE;

const isDigit = (c: string | undefined) => c !== undefined && c >= '0' && c <= '9';

/** UTF-8 bytes of one code point (lone surrogates become U+FFFD, as Go's range loop would see them). */
function utf8(cp: number): number[] {
  if (cp >= 0xd800 && cp <= 0xdfff) cp = 0xfffd;
  if (cp < 0x80) return [cp];
  if (cp < 0x800) return [0xc0 | (cp >> 6), 0x80 | (cp & 0x3f)];
  if (cp < 0x10000) return [0xe0 | (cp >> 12), 0x80 | ((cp >> 6) & 0x3f), 0x80 | (cp & 0x3f)];
  return [0xf0 | (cp >> 18), 0x80 | ((cp >> 12) & 0x3f), 0x80 | ((cp >> 6) & 0x3f), 0x80 | (cp & 0x3f)];
}

/**
 * Go's private `time.quote`: not strconv.Quote. Control and non-ASCII characters become `\xNN` per
 * UTF-8 byte, `"` and `\` get a backslash. Matching it keeps our error texts identical to the agent's.
 */
export function goQuote(s: string): string {
  let out = '"';
  for (const ch of s) {
    const cp = ch.codePointAt(0) ?? 0;
    if (cp >= 0x80 || cp < 0x20) {
      for (const b of utf8(cp)) out += '\\x' + b.toString(16).padStart(2, '0');
    } else {
      if (ch === '"' || ch === '\\') out += '\\';
      out += ch;
    }
  }
  return out + '"';
}

/** Go's `leadingInt`: digits into a uint64 that may not exceed 2^63, else an (anonymous) error. */
function leadingInt(s: string): { x: bigint; rest: string } | undefined {
  let i = 0;
  let x = 0n;
  for (; i < s.length && isDigit(s[i]); i++) {
    if (x > MAX_MAGNITUDE / 10n) return undefined;
    x = x * 10n + BigInt(s.charCodeAt(i) - 48);
    if (x > MAX_MAGNITUDE) return undefined;
  }
  return { x, rest: s.slice(i) };
}

/**
 * Go's `leadingFraction`: digits after the point. It never fails: once another digit would overflow,
 * it silently stops accumulating precision (so `1.0000000000000000000001s` is 1s), and `scale` is a
 * float64 multiplied by 10 per kept digit, exactly as in Go.
 */
function leadingFraction(s: string): { f: bigint; scale: number; rest: string } {
  let i = 0;
  let f = 0n;
  let scale = 1;
  let overflow = false;
  for (; i < s.length && isDigit(s[i]); i++) {
    if (overflow) continue;
    if (f > INT64_MAX / 10n) {
      overflow = true;
      continue;
    }
    const y = f * 10n + BigInt(s.charCodeAt(i) - 48);
    if (y > MAX_MAGNITUDE) {
      overflow = true;
      continue;
    }
    f = y;
    scale *= 10;
  }
  return { f, scale, rest: s.slice(i) };
}

/**
 * Go `time.ParseDuration`: `[-+]?([0-9]*(\.[0-9]*)?[a-z]+)+`, or `0` (signed or not) with no unit.
 * Units: ns, us, µs, μs, ms, s, m, h. No spaces, no `d`, no unit-less non-zero numbers; anything
 * whose magnitude exceeds int64 nanoseconds is an error (except exactly -2^63 ns, which Go accepts).
 */
export function parseGoDuration(text: string): DurationParse {
  const orig = text;
  const invalid = (): DurationParse => ({ ok: false, error: `time: invalid duration ${goQuote(orig)}` });
  let s = text;
  let neg = false;
  if (s !== '' && (s[0] === '-' || s[0] === '+')) {
    neg = s[0] === '-';
    s = s.slice(1);
  }
  // Go's special case: a bare "0" needs no unit (but "00" or "0.0" do).
  if (s === '0') return { ok: true, nanos: 0n };
  if (s === '') return invalid();

  let d = 0n;
  while (s !== '') {
    if (!(s[0] === '.' || isDigit(s[0]))) return invalid();

    const before = s.length;
    const int = leadingInt(s);
    if (int === undefined) return invalid();
    let v = int.x;
    s = int.rest;
    const pre = before !== s.length;

    let f = 0n;
    let scale = 1;
    let post = false;
    if (s !== '' && s[0] === '.') {
      s = s.slice(1);
      const afterPoint = s.length;
      ({ f, scale, rest: s } = leadingFraction(s));
      post = afterPoint !== s.length;
    }
    // "." or ".s": a number needs at least one digit on some side of the point.
    if (!pre && !post) return invalid();

    // The unit is everything up to the next digit or point (so "1h 30m" has unit "h ").
    let i = 0;
    while (i < s.length && !(s[i] === '.' || isDigit(s[i]))) i++;
    if (i === 0) return { ok: false, error: `time: missing unit in duration ${goQuote(orig)}` };
    const u = s.slice(0, i);
    s = s.slice(i);
    const unit = UNITS.get(u);
    if (unit === undefined) return { ok: false, error: `time: unknown unit ${goQuote(u)} in duration ${goQuote(orig)}` };

    if (v > MAX_MAGNITUDE / unit) return invalid();
    v *= unit;
    if (f > 0n) {
      // Go computes the fraction in float64 (`uint64(float64(f) * (float64(unit) / scale))`); JS numbers
      // are float64 with the same round-to-nearest conversions, so this reproduces Go's truncation exactly.
      // The product is below `unit` <= 3.6e12, well inside the exactly representable integers.
      v += BigInt(Math.trunc(Number(f) * (Number(unit) / scale)));
      if (v > MAX_MAGNITUDE) return invalid();
    }
    d += v;
    if (d > MAX_MAGNITUDE) return invalid();
  }
  if (neg) return { ok: true, nanos: -d };
  if (d > INT64_MAX) return invalid();
  return { ok: true, nanos: d };
}

/**
 * Go's `fmtFrac`: the fraction `v mod 10^prec` as ".ddd" without trailing zeros (nothing at all when
 * it is zero), and the integer part.
 */
function fmtFrac(v: bigint, prec: number): { frac: string; int: bigint } {
  const p = 10n ** BigInt(prec);
  const digits = (v % p).toString().padStart(prec, '0').replace(/0+$/, '');
  return { frac: digits === '' ? '' : '.' + digits, int: v / p };
}

/**
 * Go `Duration.String()`: `72h3m0.5s`, `1m0s`, `1.5s`; below one second the largest of ms / µs (U+00B5)
 * / ns that keeps an integer part; `0s` for zero. Hours are the largest unit ("days can be different
 * lengths"). Throws a RangeError outside int64, where no Go duration exists.
 */
export function formatGoDuration(nanos: bigint): string {
  if (nanos < INT64_MIN || nanos > INT64_MAX) throw new RangeError(`duration ${nanos}ns is outside int64`);
  const neg = nanos < 0n;
  const u = neg ? -nanos : nanos;
  let out: string;
  if (u === 0n) return '0s';
  if (u < SEC) {
    const [prec, unit] = u < US ? [0, 'ns'] : u < MS ? [3, '\u00b5s'] : [6, 'ms'];
    const { frac, int } = fmtFrac(u, prec);
    out = `${int}${frac}${unit}`;
  } else {
    const { frac, int: secs } = fmtFrac(u, 9);
    out = `${secs % 60n}${frac}s`;
    const mins = secs / 60n;
    if (mins > 0n) {
      out = `${mins % 60n}m${out}`;
      const hours = mins / 60n;
      if (hours > 0n) out = `${hours}h${out}`;
    }
  }
  return neg ? '-' + out : out;
}
