/**
 * Label selectors in the upstream syntax (`a=b`, `a==b`, `a!=b`, `a in (x,y)`, `a notin (x)`, `a`,
 * `!a`, comma-joined = AND). Pure: the model uses it to know which of the suite's objects a selector
 * covers, the reference server to filter. Keys are looked up with Object.hasOwn, so `__proto__` and
 * `constructor` are ordinary keys.
 */
export type Requirement =
  | { readonly key: string; readonly op: 'eq' | 'neq'; readonly value: string }
  | { readonly key: string; readonly op: 'in' | 'notin'; readonly values: readonly string[] }
  | { readonly key: string; readonly op: 'exists' | 'notexists' };

export type LabelSelector = readonly Requirement[];

const KEY = /^([a-z0-9]([-a-z0-9]*[a-z0-9])?(\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*\/)?[A-Za-z0-9]([-A-Za-z0-9_.]{0,61}[A-Za-z0-9])?$/;
const VALUE = /^(([A-Za-z0-9][-A-Za-z0-9_.]{0,61})?[A-Za-z0-9])?$/;

/** Splits on commas that are not inside a parenthesised value set. */
function splitTop(s: string): string[] | undefined {
  const parts: string[] = [];
  let depth = 0;
  let cur = '';
  for (const ch of s) {
    if (ch === '(') depth++;
    if (ch === ')') depth--;
    if (depth < 0 || depth > 1) return undefined;
    if (ch === ',' && depth === 0) {
      parts.push(cur);
      cur = '';
    } else cur += ch;
  }
  if (depth !== 0) return undefined;
  parts.push(cur);
  return parts;
}

export function parseLabelSelector(text: string): { ok: true; selector: LabelSelector } | { ok: false; error: string } {
  if (text.trim() === '') return { ok: true, selector: [] };
  const parts = splitTop(text);
  if (!parts) return { ok: false, error: `unbalanced parentheses in ${JSON.stringify(text)}` };
  const out: Requirement[] = [];
  for (const raw of parts) {
    const p = raw.trim();
    let m: RegExpMatchArray | null;
    let req: Requirement | undefined;
    if ((m = p.match(/^(\S+?)\s+(in|notin)\s*\(([^()]*)\)$/))) {
      const values = m[3]!.split(',').map((v) => v.trim());
      if (values.some((v) => !VALUE.test(v))) return { ok: false, error: `invalid value in ${JSON.stringify(p)}` };
      req = { key: m[1]!, op: m[2] as 'in' | 'notin', values };
    } else if ((m = p.match(/^([^=!\s]+)\s*(==|=|!=)\s*([^=!\s]*)$/))) {
      if (!VALUE.test(m[3]!)) return { ok: false, error: `invalid value in ${JSON.stringify(p)}` };
      req = { key: m[1]!, op: m[2] === '!=' ? 'neq' : 'eq', value: m[3]! };
    } else if ((m = p.match(/^!\s*([^=!\s()]+)$/))) {
      req = { key: m[1]!, op: 'notexists' };
    } else if ((m = p.match(/^([^=!\s()]+)$/))) {
      req = { key: m[1]!, op: 'exists' };
    }
    if (!req) return { ok: false, error: `cannot parse requirement ${JSON.stringify(p)}` };
    if (!KEY.test(req.key)) return { ok: false, error: `invalid label key ${JSON.stringify(req.key)}` };
    out.push(req);
  }
  return { ok: true, selector: out };
}

export function matchesLabels(selector: LabelSelector, labels: Readonly<Record<string, string>>): boolean {
  return selector.every((r) => {
    const has = Object.hasOwn(labels, r.key);
    const v = has ? labels[r.key] : undefined;
    switch (r.op) {
      case 'eq':
        return has && v === r.value;
      case 'neq':
        return !has || v !== r.value;
      case 'in':
        return has && r.values.includes(v!);
      case 'notin':
        return !has || !r.values.includes(v!);
      case 'exists':
        return has;
      case 'notexists':
        return !has;
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
      }
    })
    .join(',');
}
