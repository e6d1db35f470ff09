/**
 * Label selectors in the upstream syntax (`a=b`, `a==b`, `a!=b`, `a in (x,y)`, `a notin (x)`, `a`,
 * `!a`, `a>1`, `a<1`, comma-joined = AND). Pure: the model uses it to know which of the suite's objects
 * a selector covers, the reference server to filter.
 *
 * The parser follows the upstream lexer/parser rather than regular expressions, because the suite
 * sends the same strings to real servers and must agree with them on the odd cases: whitespace between
 * any two tokens, `in`/`notin` being keywords only in operator position (`in=x` is a key named `in`),
 * `a in ()` meaning the set {""}, `a=` meaning the empty value, a trailing comma being an error.
 * Keys are looked up with Object.hasOwn, so `__proto__` and `constructor` are ordinary keys.
 */
export type Requirement =
  | { readonly key: string; readonly op: 'eq' | 'neq'; readonly value: string }
  | { readonly key: string; readonly op: 'in' | 'notin'; readonly values: readonly string[] }
  | { readonly key: string; readonly op: 'exists' | 'notexists' }
  /** Upstream's integer comparisons; the value is kept as written (a decimal integer). */
  | { readonly key: string; readonly op: 'gt' | 'lt'; readonly value: string };

export type LabelSelector = readonly Requirement[];

export type ParseResult = { ok: true; selector: LabelSelector } | { ok: false; error: string };

type Tok =
  | { readonly t: 'id'; readonly s: string }
  | { readonly t: 'in' | 'notin' | '!' | '!=' | '(' | ')' | ',' | '=' | '==' | '>' | '<' | 'end'; readonly s: string };

const SYMBOLS = new Set(['!', '!=', '(', ')', ',', '=', '==', '>', '<']);
const isSpecial = (ch: string) => '=!(),><'.includes(ch);
const isSpace = (ch: string) => ch === ' ' || ch === '\t' || ch === '\r' || ch === '\n';

/** Upstream lexer: special symbols are read greedily as the longest known operator. */
function lex(text: string): Tok[] | string {
  const out: Tok[] = [];
  let i = 0;
  while (i < text.length) {
    const ch = text[i]!;
    if (isSpace(ch)) {
      i++;
      continue;
    }
    if (isSpecial(ch)) {
      let best = '';
      let j = i;
      let buf = '';
      while (j < text.length && isSpecial(text[j]!)) {
        buf += text[j]!;
        j++;
        if (SYMBOLS.has(buf)) best = buf;
        else if (best !== '') break;
      }
      if (best === '') return `unexpected symbol ${JSON.stringify(buf)}`;
      out.push({ t: best as Exclude<Tok['t'], 'id' | 'in' | 'notin' | 'end'>, s: best });
      i += best.length;
      continue;
    }
    let j = i;
    while (j < text.length && !isSpecial(text[j]!) && !isSpace(text[j]!)) j++;
    const word = text.slice(i, j);
    out.push(word === 'in' || word === 'notin' ? { t: word, s: word } : { t: 'id', s: word });
    i = j;
  }
  out.push({ t: 'end', s: '' });
  return out;
}

const DNS1123_SUBDOMAIN = /^[a-z0-9]([-a-z0-9]*[a-z0-9])?(\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*$/;
const NAME_PART = /^[A-Za-z0-9]([-A-Za-z0-9_.]*[A-Za-z0-9])?$/;
const VALUE = /^([A-Za-z0-9]([-A-Za-z0-9_.]*[A-Za-z0-9])?)?$/;

/** Upstream IsQualifiedName: optional DNS-subdomain prefix and a name part of at most 63 characters. */
export function labelKeyError(key: string): string | undefined {
  const slash = key.split('/');
  if (slash.length > 2) return `invalid label key ${JSON.stringify(key)}: at most one '/'`;
  const name = slash.length === 2 ? slash[1]! : slash[0]!;
  if (slash.length === 2) {
    const prefix = slash[0]!;
    if (prefix === '') return `invalid label key ${JSON.stringify(key)}: prefix part must be non-empty`;
    if (prefix.length > 253 || !DNS1123_SUBDOMAIN.test(prefix))
      return `invalid label key ${JSON.stringify(key)}: prefix must be a DNS subdomain`;
  }
  if (name === '' || name.length > 63 || !NAME_PART.test(name))
    return `invalid label key ${JSON.stringify(key)}: name part must be 1-63 alphanumerics, '-', '_' or '.', starting and ending with an alphanumeric`;
  return undefined;
}

export function labelValueError(value: string): string | undefined {
  if (value.length > 63 || !VALUE.test(value))
    return `invalid label value ${JSON.stringify(value)}: at most 63 alphanumerics, '-', '_' or '.', starting and ending with an alphanumeric`;
  return undefined;
}

class Parser {
  private pos = 0;
  constructor(private readonly toks: readonly Tok[]) {}
  /** In value position the keywords are plain identifiers (upstream's "Values" context). */
  peek(values = true): Tok {
    const tok = this.toks[Math.min(this.pos, this.toks.length - 1)]!;
    return values && (tok.t === 'in' || tok.t === 'notin') ? { t: 'id', s: tok.s } : tok;
  }
  next(values = true): Tok {
    const tok = this.peek(values);
    this.pos++;
    return tok;
  }
}

class SelectorError extends Error {}
const fail = (msg: string): never => {
  throw new SelectorError(msg);
};
const found = (tok: Tok, expected: string) => fail(`found '${tok.s}', expected: ${expected}`);

function parseRequirement(p: Parser): Requirement {
  let tok = p.next();
  let negated = false;
  if (tok.t === '!') {
    negated = true;
    tok = p.next();
  }
  if (tok.t !== 'id') return found(tok, 'identifier');
  const key = tok.s;
  const keyErr = labelKeyError(key);
  if (keyErr) fail(keyErr);
  if (negated) return { key, op: 'notexists' };
  const after = p.peek();
  if (after.t === 'end' || after.t === ',') return { key, op: 'exists' };
  const op = p.next(false);
  switch (op.t) {
    case 'in':
    case 'notin':
      return { key, op: op.t, values: parseValues(p) };
    case '=':
    case '==':
    case '!=':
    case '>':
    case '<': {
      const value = parseExactValue(p);
      if (op.t === '>' || op.t === '<') {
        if (!/^[+-]?[0-9]+$/.test(value)) fail(`for 'Gt', 'Lt' operators, the value must be an integer, not ${JSON.stringify(value)}`);
        return { key, op: op.t === '>' ? 'gt' : 'lt', value };
      }
      const err = labelValueError(value);
      if (err) fail(err);
      return { key, op: op.t === '!=' ? 'neq' : 'eq', value };
    }
    default:
      return found(op, '=, ==, !=, in, notin, >, <');
  }
}

function parseExactValue(p: Parser): string {
  const la = p.peek();
  if (la.t === 'end' || la.t === ',') return '';
  const tok = p.next();
  return tok.t === 'id' ? tok.s : found(tok, 'identifier');
}

/**
 * `(a,b)`; `()`, `(,a)`, `(a,)` and `(a,,b)` put the empty value in the set. A literal port of
 * upstream's loop, since its corner cases (`(a,,)` is an error, `(a,,b)` is not) follow from its shape.
 */
function parseValues(p: Parser): string[] {
  const open = p.next();
  if (open.t !== '(') found(open, "'('");
  const first = p.peek();
  if (first.t === ')') {
    p.next();
    return [''];
  }
  if (first.t !== 'id' && first.t !== ',') found(first, "',', ')' or identifier");
  const values = new Set<string>();
  for (;;) {
    const tok = p.next();
    if (tok.t === 'id') {
      values.add(tok.s);
      const la = p.peek();
      if (la.t === ',') continue;
      if (la.t === ')') break;
      found(la, "',' or ')'");
    } else if (tok.t === ',') {
      if (values.size === 0) values.add('');
      const la = p.peek();
      if (la.t === ')') {
        values.add('');
        break;
      }
      if (la.t === ',') {
        p.next();
        values.add('');
      }
    } else {
      found(tok, "',', or identifier");
    }
  }
  const close = p.next();
  if (close.t !== ')') found(close, "')'");
  for (const v of values) {
    const err = labelValueError(v);
    if (err) fail(err);
  }
  return [...values];
}

export function parseLabelSelector(text: string): ParseResult {
  const toks = lex(text);
  if (typeof toks === 'string') return { ok: false, error: toks };
  const p = new Parser(toks);
  const out: Requirement[] = [];
  try {
    for (;;) {
      const la = p.peek();
      if (la.t === 'end') break;
      if (la.t !== 'id' && la.t !== '!') found(la, "!, identifier, or 'end of string'");
      out.push(parseRequirement(p));
      const sep = p.next();
      if (sep.t === 'end') break;
      if (sep.t !== ',') found(sep, "',' or 'end of string'");
      const again = p.peek();
      if (again.t !== 'id' && again.t !== '!') found(again, "identifier after ','");
    }
  } catch (e) {
    if (e instanceof SelectorError) return { ok: false, error: `unable to parse requirement: ${e.message}` };
    throw e;
  }
  return { ok: true, selector: out };
}

function hasLabel(labels: Readonly<Record<string, string>> | ReadonlyMap<string, string>, key: string): string | undefined {
  if (labels instanceof Map) return labels.get(key);
  const rec = labels as Readonly<Record<string, string>>;
  return Object.hasOwn(rec, key) ? rec[key] : undefined;
}

export function matchesLabels(selector: LabelSelector, labels: Readonly<Record<string, string>> | ReadonlyMap<string, string>): boolean {
  return selector.every((r) => {
    const v = hasLabel(labels, r.key);
    const has = v !== undefined;
    switch (r.op) {
      case 'eq':
        return has && v === r.value;
      case 'neq':
        return !has || v !== r.value;
      case 'in':
        return has && r.values.includes(v);
      case 'notin':
        return !has || !r.values.includes(v);
      case 'exists':
        return has;
      case 'notexists':
        return !has;
      case 'gt':
      case 'lt': {
        // A label value that is not an integer never matches an integer comparison (upstream).
        if (!has || !/^[+-]?[0-9]+$/.test(v)) return false;
        const a = BigInt(v);
        const b = BigInt(r.value);
        return r.op === 'gt' ? a > b : a < b;
      }
    }
  });
}

export function formatLabelSelector(selector: LabelSelector): string {
  return selector
    .map((r) => {
      switch (r.op) {
        case 'eq':
          return `${r.key}=${r.value}`;
        case 'neq':
          return `${r.key}!=${r.value}`;
        case 'in':
        case 'notin':
          return `${r.key} ${r.op} (${r.values.join(',')})`;
        case 'exists':
          return r.key;
        case 'notexists':
          return `!${r.key}`;
        case 'gt':
          return `${r.key}>${r.value}`;
        case 'lt':
          return `${r.key}<${r.value}`;
      }
    })
    .join(',');
}

/**
 * The object form of a selector (`{ matchLabels, matchExpressions }`, as in a webhook's
 * namespaceSelector) as requirements; a string says why it is malformed. An empty or absent selector
 * selects everything.
 *   selectorFromObject({ matchLabels: { a: 'b' }, matchExpressions: [{ key: 'c', operator: 'Exists' }] })
 *     -> [{ key: 'a', op: 'eq', value: 'b' }, { key: 'c', op: 'exists' }]
 */
export function selectorFromObject(o: unknown): LabelSelector | string {
  if (o === undefined || o === null) return [];
  if (typeof o !== 'object' || Array.isArray(o)) return 'a label selector must be an object';
  const rec = o as Record<string, unknown>;
  const out: Requirement[] = [];
  const ml = rec['matchLabels'];
  if (ml !== undefined && ml !== null) {
    if (typeof ml !== 'object' || Array.isArray(ml)) return 'matchLabels must be a map of string to string';
    for (const [key, value] of Object.entries(ml)) {
      if (typeof value !== 'string') return `matchLabels.${key} must be a string`;
      out.push({ key, op: 'eq', value });
    }
  }
  const me = rec['matchExpressions'];
  if (me !== undefined && me !== null) {
    if (!Array.isArray(me)) return 'matchExpressions must be a list';
    for (const [i, e] of me.entries()) {
      const x = (e ?? {}) as Record<string, unknown>;
      const key = x['key'];
      const values = Array.isArray(x['values']) ? x['values'].filter((v): v is string => typeof v === 'string') : [];
      if (typeof key !== 'string' || key === '') return `matchExpressions[${i}].key is required`;
      switch (x['operator']) {
        case 'In':
        case 'NotIn':
          if (values.length === 0) return `matchExpressions[${i}].values must be non-empty for ${String(x['operator'])}`;
          out.push({ key, op: x['operator'] === 'In' ? 'in' : 'notin', values });
          break;
        case 'Exists':
        case 'DoesNotExist':
          out.push({ key, op: x['operator'] === 'Exists' ? 'exists' : 'notexists' });
          break;
        default:
          return `matchExpressions[${i}].operator ${JSON.stringify(x['operator'])} is not one of In, NotIn, Exists, DoesNotExist`;
      }
    }
  }
  return out;
}
