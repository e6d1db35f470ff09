/**
 * Go's value syntaxes as pflag reads them: strconv.ParseBool, ParseInt with base 0, ParseFloat, Go
 * durations, CSV lists (stringSlice), `k=v` maps (stringToString, mapStringBool) and klog's vmodule.
 * Each returns the typed value or the reason it is not one.
 */
import { parseGoDuration } from '../nodeagent/duration.ts';
import type { OptionType, OptionValue } from './types.ts';
import { parseNamedCertKey } from './tls.ts';

export type ValueParse = { ok: true; value: OptionValue } | { ok: false; error: string };

const BOOLS: Readonly<Record<string, boolean>> = {
  '1': true,
  t: true,
  T: true,
  TRUE: true,
  true: true,
  True: true,
  '0': false,
  f: false,
  F: false,
  FALSE: false,
  false: false,
  False: false,
};

export function parseGoBool(s: string): boolean | undefined {
  return Object.hasOwn(BOOLS, s) ? BOOLS[s] : undefined;
}

/** strconv.ParseInt(s, 0, bits): sign, 0x/0o/0b/0 prefixes, underscores only after a prefix. */
export function parseGoInt(s: string, bits: 32 | 64): bigint | undefined {
  const m = /^([+-]?)(0[xX][0-9a-fA-F_]+|0[oO][0-7_]+|0[bB][01_]+|0[0-7_]*|[1-9][0-9]*)$/.exec(s);
  if (!m) return undefined;
  let body = m[2]!;
  const prefixed = body.length > 1 && body[0] === '0';
  if (body.includes('_')) {
    // Go: underscores must separate digits, and are allowed only with a base prefix.
    if (!prefixed || /__|_$/.test(body) || /^0[xXoObB]?_?$/.test(body)) return undefined;
    body = body.replace(/_/g, '');
  }
  let v: bigint;
  if (/^0[xX]/.test(body)) v = BigInt('0x' + body.slice(2));
  else if (/^0[oO]/.test(body)) v = BigInt('0o' + body.slice(2));
  else if (/^0[bB]/.test(body)) v = BigInt('0b' + body.slice(2));
  else if (body.length > 1 && body[0] === '0') v = BigInt('0o' + body.slice(1));
  else v = BigInt(body);
  if (m[1] === '-') v = -v;
  const lim = 1n << BigInt(bits - 1);
  return v >= -lim && v < lim ? v : undefined;
}

/** strconv.ParseFloat(s, 64) for decimal text and inf/nan; hex floats are not modelled. */
export function parseGoFloat(s: string): number | undefined {
  const t = s.replace(/(\d)_(?=\d)/g, '$1');
  if (/^[+-]?(inf|infinity)$/i.test(t)) return t.startsWith('-') ? -Infinity : Infinity;
  if (/^nan$/i.test(t)) return NaN;
  if (!/^[+-]?(\d+\.?\d*|\.\d+)([eE][+-]?\d+)?$/.test(t)) return undefined;
  const v = Number(t);
  return Number.isFinite(v) ? v : undefined;
}

/** encoding/csv on one line, as pflag's stringSlice: `a,"b,c"` -> [a, "b,c"]; '' -> []. */
export function parseCsv(s: string): string[] | undefined {
  if (s === '') return [];
  const out: string[] = [];
  let i = 0;
  for (;;) {
    let field = '';
    if (s[i] === '"') {
      i++;
      for (;;) {
        if (i >= s.length) return undefined;
        if (s[i] === '"') {
          if (s[i + 1] === '"') {
            field += '"';
            i += 2;
            continue;
          }
          i++;
          break;
        }
        field += s[i++];
      }
      if (i < s.length && s[i] !== ',') return undefined;
    } else {
      const end = s.indexOf(',', i);
      field = s.slice(i, end < 0 ? s.length : end);
      if (field.includes('"')) return undefined;
      i = end < 0 ? s.length : end;
    }
    out.push(field);
    if (i >= s.length) return out;
    i++; // the comma
    if (i >= s.length) {
      out.push('');
      return out;
    }
  }
}

/**
 * One option value of the given type. `previous` is the value so far for types that accumulate
 * (pflag's slices append after the first Set, maps merge).
 */
export function parseValue(type: OptionType, text: string, previous: OptionValue | undefined): ValueParse {
  const bad = (what: string): ValueParse => ({ ok: false, error: `invalid argument ${JSON.stringify(text)}: ${what}` });
  switch (type) {
    case 'string':
      return { ok: true, value: text };
    case 'bool':
    case 'help': {
      const b = parseGoBool(text);
      return b === undefined ? bad('not a boolean') : { ok: true, value: b };
    }
    case 'version':
      if (text === 'raw') return { ok: true, value: 'raw' };
      return parseGoBool(text) === undefined ? bad('not a boolean or "raw"') : { ok: true, value: String(parseGoBool(text)) };
    case 'int':
    case 'int32': {
      const v = parseGoInt(text.trim() === text ? text : ' ', type === 'int' ? 64 : 32);
      return v === undefined ? bad(type === 'int32' ? 'not a 32-bit integer' : 'not an integer') : { ok: true, value: Number(v) };
    }
    case 'float': {
      const v = parseGoFloat(text);
      return v === undefined ? bad('not a number') : { ok: true, value: v };
    }
    case 'duration': {
      const d = parseGoDuration(text);
      return d.ok ? { ok: true, value: d.nanos } : bad(d.error);
    }
    case 'strings': {
      const items = parseCsv(text);
      if (items === undefined) return bad('not a comma-separated list');
      return { ok: true, value: [...((previous as readonly string[] | undefined) ?? []), ...items] };
    }
    case 'stringToString': {
      // pflag: with exactly one `=` the whole text is one pair (so `metric,label=v` keeps its comma).
      const eqs = text.split('=').length - 1;
      if (eqs === 0 && text !== '') return bad(`${JSON.stringify(text)} must be formatted as key=value`);
      const items = eqs === 1 ? [text.replace(/^"+|"+$/g, '')] : parseCsv(text);
      if (items === undefined) return bad('not a comma-separated list');
      const out: Record<string, string> = { ...((previous as Record<string, string> | undefined) ?? {}) };
      for (const it of items) {
        const eq = it.indexOf('=');
        if (eq < 0) return bad(`${JSON.stringify(it)} must be formatted as key=value`);
        Object.defineProperty(out, it.slice(0, eq), { value: it.slice(eq + 1), enumerable: true, writable: true, configurable: true });
      }
      return { ok: true, value: out };
    }
    case 'gates': {
      const out: Record<string, boolean> = { ...((previous as Record<string, boolean> | undefined) ?? {}) };
      for (const raw of text.split(',')) {
        const it = raw.trim();
        if (it === '') continue;
        const eq = it.indexOf('=');
        if (eq < 0) return bad(`missing bool value for ${it}`);
        const b = parseGoBool(it.slice(eq + 1).trim());
        if (b === undefined) return bad(`invalid value of ${it.slice(0, eq).trim()}=${it.slice(eq + 1).trim()}`);
        Object.defineProperty(out, it.slice(0, eq).trim(), { value: b, enumerable: true, writable: true, configurable: true });
      }
      return { ok: true, value: out };
    }
    case 'namedCertKey': {
      const p = parseNamedCertKey(text);
      return p.ok ? { ok: true, value: [...((previous as readonly never[] | undefined) ?? []), p.value] } : bad(p.error);
    }
    case 'vmodule': {
      const out: { pattern: string; level: number }[] = [];
      if (text === '') return { ok: true, value: out };
      for (const it of text.split(',')) {
        const eq = it.indexOf('=');
        const level = eq < 0 ? undefined : parseGoInt(it.slice(eq + 1), 32);
        if (eq <= 0 || level === undefined || level < 0n) return bad(`syntax error: expect comma-separated list of filename=N`);
        out.push({ pattern: it.slice(0, eq), level: Number(level) });
      }
      return { ok: true, value: out };
    }
  }
}

/** Types whose flag needs no value: `--name` alone means true. */
export const isBoolLike = (type: OptionType) => type === 'bool' || type === 'help' || type === 'version';
