// Go time.ParseDuration / Duration.String(). Most rows are Go's own time_test.go tables, so a slip in
// the port shows as a disagreement with the Go runtime the agent and the daemon actually use.
import { describe, expect, it } from 'vitest';
import { formatGoDuration, goQuote, parseGoDuration } from '../../../../reference/nodeagent/duration.ts';

const ns = 1n;
const us = 1000n;
const ms = 1000n * us;
const s = 1000n * ms;
const m = 60n * s;
const h = 60n * m;
const INT64_MAX = (1n << 63n) - 1n;
const INT64_MIN = -(1n << 63n);

// [text, nanoseconds]
const valid: [string, bigint][] = [
  // the bare zero, which alone needs no unit
  ['0', 0n],
  ['-0', 0n],
  ['+0', 0n],
  ['0s', 0n],
  // simple and signed
  ['5s', 5n * s],
  ['30s', 30n * s],
  ['1478s', 1478n * s],
  ['-5s', -5n * s],
  ['+5s', 5n * s],
  ['-1m', -1n * m],
  // decimals: digits on at least one side of the point
  ['5.0s', 5n * s],
  ['5.6s', 5n * s + 600n * ms],
  ['5.s', 5n * s],
  ['.5s', 500n * ms],
  ['1.004s', 1n * s + 4n * ms],
  ['1.0040s', 1n * s + 4n * ms],
  ['100.00100s', 100n * s + 1n * ms],
  ['1.5h', 90n * m],
  // every unit, both micro signs
  ['10ns', 10n * ns],
  ['11us', 11n * us],
  ['12\u00b5s', 12n * us],
  ['12\u03bcs', 12n * us],
  ['13ms', 13n * ms],
  ['15m', 15n * m],
  ['16h', 16n * h],
  // composites, in any order, repeated units allowed
  ['1h30m', 90n * m],
  ['1m0s', 1n * m],
  ['3h30m', 3n * h + 30n * m],
  ['10.5s4m', 4n * m + 10n * s + 500n * ms],
  ['-2m3.4s', -(2n * m + 3n * s + 400n * ms)],
  ['1h2m3s4ms5us6ns', h + 2n * m + 3n * s + 4n * ms + 5n * us + 6n * ns],
  ['39h9m14.425s', 39n * h + 9n * m + 14n * s + 425n * ms],
  ['1s1s', 2n * s],
  // large values and the int64 edges
  ['52763797000ns', 52763797000n],
  ['9007199254740993ns', (1n << 53n) + 1n], // not representable as a float64: BigInt all the way
  ['9223372036854775807ns', INT64_MAX],
  ['9223372036854775.807us', INT64_MAX],
  ['9223372036s854ms775us807ns', INT64_MAX],
  ['-9223372036854775808ns', INT64_MIN],
  ['-9223372036854775.808us', INT64_MIN],
  ['-2562047h47m16.854775808s', INT64_MIN],
  // fractions longer than 9 digits go through Go's float64 arithmetic (golang.org/issue/6617, 15011)
  ['0.3333333333333333333h', 20n * m],
  ['0.100000000000000000000h', 6n * m],
  ['0.830103483285477580700h', 49n * m + 48n * s + 372539827n],
  ['1.0000000000000000000000001s', 1n * s],
  // the spec's defaults (2.2, 2.3, 2.6)
  ['1m', 60n * s],
  ['20s', 20n * s],
  ['4h', 4n * h],
  ['2m', 2n * m],
  ['10s', 10n * s],
  ['5m', 5n * m],
  ['30s', 30n * s],
  ['8760h0m0s', 8760n * h],
  ['12h0m0s', 12n * h],
];

// [text, exact Go error]
const invalid: [string, string][] = [
  ['', 'time: invalid duration ""'],
  ['3', 'time: missing unit in duration "3"'],
  ['10', 'time: missing unit in duration "10"'],
  ['00', 'time: missing unit in duration "00"'],
  ['0.0', 'time: missing unit in duration "0.0"'],
  ['1h1', 'time: missing unit in duration "1h1"'],
  ['-', 'time: invalid duration "-"'],
  ['+', 'time: invalid duration "+"'],
  ['s', 'time: invalid duration "s"'],
  ['.', 'time: invalid duration "."'],
  ['-.', 'time: invalid duration "-."'],
  ['.s', 'time: invalid duration ".s"'],
  ['+.s', 'time: invalid duration "+.s"'],
  ['--1s', 'time: invalid duration "--1s"'],
  ['1h-30m', 'time: unknown unit "h-" in duration "1h-30m"'], // the unit runs to the next digit or point
  [' 1s', 'time: invalid duration " 1s"'],
  ['1s ', 'time: unknown unit "s " in duration "1s "'],
  ['1h 30m', 'time: unknown unit "h " in duration "1h 30m"'],
  ['1d', 'time: unknown unit "d" in duration "1d"'],
  ['1H', 'time: unknown unit "H" in duration "1H"'],
  ['1sec', 'time: unknown unit "sec" in duration "1sec"'],
  ['1.2.3s', 'time: missing unit in duration "1.2.3s"'],
  ['1e3s', 'time: unknown unit "e" in duration "1e3s"'],
  ['\u00b5s', 'time: invalid duration "\\xc2\\xb5s"'],
  ['\ufffd', 'time: invalid duration "\\xef\\xbf\\xbd"'],
  ['1"s', 'time: unknown unit "\\"s" in duration "1\\"s"'],
  // overflow beyond int64 nanoseconds
  ['9223372036854775810ns', 'time: invalid duration "9223372036854775810ns"'],
  ['9223372036854775808ns', 'time: invalid duration "9223372036854775808ns"'],
  ['-9223372036854775809ns', 'time: invalid duration "-9223372036854775809ns"'],
  ['9223372036854776us', 'time: invalid duration "9223372036854776us"'],
  ['3000000h', 'time: invalid duration "3000000h"'],
  ['9223372036854775.808us', 'time: invalid duration "9223372036854775.808us"'],
  ['9223372036854ms775us808ns', 'time: invalid duration "9223372036854ms775us808ns"'],
  ['99999999999999999999h', 'time: invalid duration "99999999999999999999h"'],
];

describe('parseGoDuration', () => {
  it.each(valid)('%j -> %s ns', (text, nanos) => {
    expect(parseGoDuration(text)).toEqual({ ok: true, nanos });
  });

  it.each(invalid)("%j is rejected with Go's message", (text, error) => {
    expect(parseGoDuration(text)).toEqual({ ok: false, error });
  });
});

// [nanoseconds, Go's Duration.String()]
const formatted: [bigint, string][] = [
  [0n, '0s'],
  [1n, '1ns'],
  [999n, '999ns'],
  [1n * us, '1\u00b5s'], // Go writes the micro sign U+00B5, never U+03BC
  [1100n, '1.1\u00b5s'],
  [2200n * us, '2.2ms'],
  [500n * ms, '500ms'],
  [1n * s, '1s'],
  [1500n * ms, '1.5s'],
  [3300n * ms, '3.3s'],
  [60n * s, '1m0s'],
  [90n * s, '1m30s'],
  [-90n * s, '-1m30s'],
  [-1n, '-1ns'],
  [4n * m + 5n * s, '4m5s'],
  [4n * m + 5001n * ms, '4m5.001s'],
  [5n * h + 6n * m + 7001n * ms, '5h6m7.001s'],
  [8n * m + 1n, '8m0.000000001s'],
  [4n * h, '4h0m0s'],
  [8760n * h, '8760h0m0s'],
  [12n * h, '12h0m0s'],
  [INT64_MAX, '2562047h47m16.854775807s'],
  [INT64_MIN, '-2562047h47m16.854775808s'],
];

describe('formatGoDuration', () => {
  it.each(formatted)('%s ns -> %s', (nanos, text) => {
    expect(formatGoDuration(nanos)).toBe(text);
  });

  it.each(formatted)('%s ns survives format -> parse', (nanos) => {
    expect(parseGoDuration(formatGoDuration(nanos))).toEqual({ ok: true, nanos });
  });

  it('refuses values no int64 can hold', () => {
    expect(() => formatGoDuration(INT64_MAX + 1n)).toThrow(RangeError);
    expect(() => formatGoDuration(INT64_MIN - 1n)).toThrow(RangeError);
  });
});

describe('spec defaults normalise to the form 2.6 prints', () => {
  // The daemon prints `8760h0m0s` where the agent's config says `4h`: same value, Go's canonical text.
  const defaults: [string, string][] = [
    ['1m', '1m0s'],
    ['20s', '20s'],
    ['4h', '4h0m0s'],
    ['2m', '2m0s'],
    ['10s', '10s'],
    ['5m', '5m0s'],
    ['0s', '0s'],
    ['8760h0m0s', '8760h0m0s'],
    ['12h0m0s', '12h0m0s'],
    ['1h30m', '1h30m0s'],
    ['.5s', '500ms'],
    ['12\u03bcs', '12\u00b5s'],
  ];
  it.each(defaults)('%s prints as %s', (text, canonical) => {
    const r = parseGoDuration(text);
    if (!r.ok) throw new Error(r.error);
    expect(formatGoDuration(r.nanos)).toBe(canonical);
  });
});

describe('goQuote', () => {
  it("escapes like Go's time.quote, not strconv.Quote", () => {
    expect(goQuote('a"b\\c')).toBe('"a\\"b\\\\c"');
    expect(goQuote('\n')).toBe('"\\x0a"');
    expect(goQuote('\u03bc')).toBe('"\\xce\\xbc"');
  });
});
