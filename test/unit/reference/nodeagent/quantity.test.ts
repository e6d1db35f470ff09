// resource.Quantity syntax: exact values as fractions, and the canonical text upstream writes back.
// Canonical expectations come from upstream's own documentation ("1.5" -> "1500m", "1.5Gi" -> "1536Mi",
// "8Ei" caps at 2^63-1, "0.9n" -> "1n", "1.2345" -> "1234500u").
import { describe, expect, it } from 'vitest';
import { ERR_FORMAT_WRONG, ERR_SUFFIX, canonicalize, parseQuantity } from '../../../../reference/nodeagent/quantity.ts';

const Ki = 1024n;
const Mi = Ki * Ki;
const Gi = Mi * Ki;
const Ei = 1n << 60n;

// [text, numerator, denominator, canonical, format]
const valid: [string, bigint, bigint, string, string][] = [
  ['0', 0n, 1n, '0', 'DecimalSI'],
  ['-0', 0n, 1n, '0', 'DecimalSI'],
  ['000', 0n, 1n, '0', 'DecimalSI'],
  ['0Mi', 0n, 1n, '0', 'BinarySI'],
  ['1', 1n, 1n, '1', 'DecimalSI'],
  ['+1', 1n, 1n, '1', 'DecimalSI'],
  ['-1', -1n, 1n, '-1', 'DecimalSI'],
  ['007', 7n, 1n, '7', 'DecimalSI'],
  ['1000', 1000n, 1n, '1k', 'DecimalSI'],
  ['1024', 1024n, 1n, '1024', 'DecimalSI'],
  // binary suffixes
  ['10Mi', 10n * Mi, 1n, '10Mi', 'BinarySI'], // the spec's containerLogMaxSize default: 10485760
  ['1Ki', Ki, 1n, '1Ki', 'BinarySI'],
  ['1024Ki', Mi, 1n, '1Mi', 'BinarySI'],
  ['1.5Gi', (3n * Gi) / 2n, 1n, '1536Mi', 'BinarySI'],
  ['0.5Gi', Gi / 2n, 1n, '512Mi', 'BinarySI'],
  ['1.5Ki', 1536n, 1n, '1536', 'BinarySI'], // below 1024Ki-granularity: canonical falls back to DecimalSI
  ['0.5Ki', 512n, 1n, '512', 'BinarySI'], // |v| < 1024 is written as DecimalSI
  ['1.1Ki', 5632n, 5n, '1126400m', 'BinarySI'], // not an integer: DecimalSI, nothing rounded away
  ['-1Ki', -Ki, 1n, '-1Ki', 'BinarySI'],
  ['1Ti', Gi * Ki, 1n, '1Ti', 'BinarySI'],
  ['1Pi', Gi * Mi, 1n, '1Pi', 'BinarySI'],
  ['7Ei', 7n * Ei, 1n, '7Ei', 'BinarySI'],
  ['8Ei', 8n * Ei, 1n, '9223372036854775807', 'BinarySI'], // silently capped at 2^63-1
  // decimal suffixes
  ['1n', 1n, 1_000_000_000n, '1n', 'DecimalSI'],
  ['5u', 1n, 200_000n, '5u', 'DecimalSI'],
  ['100m', 1n, 10n, '100m', 'DecimalSI'],
  ['1.5', 3n, 2n, '1500m', 'DecimalSI'],
  ['0.1', 1n, 10n, '100m', 'DecimalSI'],
  ['.5', 1n, 2n, '500m', 'DecimalSI'],
  ['5.', 5n, 1n, '5', 'DecimalSI'],
  ['1.2345', 2469n, 2000n, '1234500u', 'DecimalSI'],
  ['0.1m', 1n, 10000n, '100u', 'DecimalSI'],
  ['-0.1m', -1n, 10000n, '-100u', 'DecimalSI'],
  ['1k', 1000n, 1n, '1k', 'DecimalSI'],
  ['1500k', 1_500_000n, 1n, '1500k', 'DecimalSI'],
  ['1.5M', 1_500_000n, 1n, '1500k', 'DecimalSI'],
  ['2G', 2_000_000_000n, 1n, '2G', 'DecimalSI'],
  ['3T', 3n * 10n ** 12n, 1n, '3T', 'DecimalSI'],
  ['4P', 4n * 10n ** 15n, 1n, '4P', 'DecimalSI'],
  ['5E', 5n * 10n ** 18n, 1n, '5E', 'DecimalSI'],
  ['1000E', 10n ** 21n, 1n, '1e21', 'DecimalSI'], // past E there is no suffix: exponent notation
  ['18446744073709551616', 1n << 64n, 1n, '18446744073709551616', 'DecimalSI'], // not capped: decimal
  // rounding below one nano: magnitude rounded up
  ['0.9n', 9n, 10_000_000_000n, '1n', 'DecimalSI'],
  ['-0.1n', -1n, 10_000_000_000n, '-1n', 'DecimalSI'],
  // decimal exponents
  ['1e3', 1000n, 1n, '1e3', 'DecimalExponent'],
  ['1E3', 1000n, 1n, '1e3', 'DecimalExponent'],
  ['1e+3', 1000n, 1n, '1e3', 'DecimalExponent'],
  ['1.5E-2', 3n, 200n, '15e-3', 'DecimalExponent'],
  ['1000e0', 1000n, 1n, '1e3', 'DecimalExponent'],
  ['12e0', 12n, 1n, '12', 'DecimalExponent'],
  ['1e-10', 1n, 10_000_000_000n, '1e-9', 'DecimalExponent'],
  ['-2e30', -2n * 10n ** 30n, 1n, '-2e30', 'DecimalExponent'],
];

describe('parseQuantity: valid', () => {
  it.each(valid)('%j = %s/%s, canonical %s', (text, numerator, denominator, canonical, format) => {
    expect(parseQuantity(text)).toEqual({ ok: true, value: { numerator, denominator }, canonical, format });
  });

  it('10Mi is 10485760 bytes', () => {
    const r = parseQuantity('10Mi');
    expect(r.ok && r.value).toEqual({ numerator: 10485760n, denominator: 1n });
  });

  it.each(valid)('canonical form of %j parses back to the same stored value', (text) => {
    const first = parseQuantity(text);
    if (!first.ok) throw new Error(first.error);
    const again = parseQuantity(first.canonical);
    if (!again.ok) throw new Error(again.error);
    expect(again.canonical).toBe(first.canonical);
  });
});

// [text, error]
const NO_DIGITS = expect.stringContaining('no digits');
const invalid: [string, unknown][] = [
  ['', ERR_FORMAT_WRONG],
  ['10MB', ERR_FORMAT_WRONG],
  ['1.2.3', ERR_FORMAT_WRONG],
  ['1.1.M', ERR_FORMAT_WRONG],
  ['1+1.0M', ERR_FORMAT_WRONG], // exponent-like "+1" then ".": the scanner stops
  [' 1', ERR_FORMAT_WRONG],
  ['1 ', ERR_FORMAT_WRONG],
  ['1 Mi', ERR_FORMAT_WRONG],
  ['aoeu', ERR_FORMAT_WRONG],
  ['1e3.5', ERR_FORMAT_WRONG],
  ['--1', ERR_SUFFIX], // the suffix scanner reads "-1", which is no suffix
  ['0.1mi', ERR_SUFFIX],
  ['0.1am', ERR_FORMAT_WRONG],
  ['1i', ERR_SUFFIX],
  ['-3.01i', ERR_SUFFIX],
  ['1K', ERR_SUFFIX], // kilo is lower-case k; capital K exists only as Ki
  ['1KiB', ERR_FORMAT_WRONG],
  ['1mm', ERR_SUFFIX],
  ['1k3', ERR_SUFFIX],
  ['1e', ERR_SUFFIX],
  ['-3.01e-', ERR_SUFFIX],
  ['1Ee3', ERR_SUFFIX],
  // no digits at all: the grammar needs one (upstream's scanner would read these as 0)
  ['Mi', NO_DIGITS],
  ['-', NO_DIGITS],
  ['+', NO_DIGITS],
  ['.', NO_DIGITS],
  ['.Mi', NO_DIGITS],
  ['k', NO_DIGITS],
  ['1e999999', expect.stringContaining('outside the modelled range')],
];

describe('parseQuantity: invalid', () => {
  it.each(invalid)('%j is rejected', (text, error) => {
    expect(parseQuantity(text)).toEqual({ ok: false, error });
  });

  it('"1E" is one exa, not an exponent without digits', () => {
    expect(parseQuantity('1E')).toMatchObject({ ok: true, canonical: '1E', format: 'DecimalSI' });
  });
});

describe('canonicalize', () => {
  it('keeps the format it is given', () => {
    expect(canonicalize({ numerator: 2048n, denominator: 1n }, 'BinarySI')).toBe('2Ki');
    expect(canonicalize({ numerator: 2048n, denominator: 1n }, 'DecimalSI')).toBe('2048');
    expect(canonicalize({ numerator: 2000n, denominator: 1n }, 'DecimalExponent')).toBe('2e3');
  });
});
