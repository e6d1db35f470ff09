/**
 * A tiny XML well-formedness checker for the JUnit tests (no dependencies allowed): balanced tags,
 * quoted attributes, only the five named entities and numeric references, no characters XML 1.0
 * forbids. Returns the element tree with entities decoded so tests can compare round-tripped strings.
 */
export interface XmlElement {
  readonly name: string;
  readonly attrs: Record<string, string>;
  readonly children: XmlElement[];
  text: string;
}

const NAME = /^[A-Za-z_][A-Za-z0-9_.-]*/;
const FORBIDDEN = /[\u0000-\u0008\u000B\u000C\u000E-\u001F\uFFFE\uFFFF]/;
const ENTITIES: Record<string, string> = { amp: '&', lt: '<', gt: '>', quot: '"', apos: "'" };

export function parseXml(src: string): XmlElement {
  let i = 0;
  const fail = (msg: string): never => {
    throw new Error(`not well-formed at offset ${i}: ${msg} near ${JSON.stringify(src.slice(i, i + 40))}`);
  };
  const forbidden = FORBIDDEN.exec(src);
  if (forbidden) {
    i = forbidden.index;
    fail('character not allowed in XML 1.0');
  }
  const decode = (raw: string, inAttr: boolean): string => {
    if (raw.includes('<')) fail('raw < in character data');
    if (!inAttr && raw.includes(']]>')) fail(']]> in character data');
    return raw.replace(/&([^;]*);?/g, (whole, ref: string) => {
      if (!whole.endsWith(';')) fail(`unterminated reference ${whole}`);
      if (ref in ENTITIES) return ENTITIES[ref] ?? '';
      const m = /^#(?:x([0-9A-Fa-f]+)|([0-9]+))$/.exec(ref);
      if (!m) return fail(`unknown entity &${ref};`);
      return String.fromCodePoint(m[1] !== undefined ? parseInt(m[1], 16) : parseInt(m[2] ?? '', 10));
    });
  };

  if (src.startsWith('<?xml')) {
    const end = src.indexOf('?>');
    if (end < 0) fail('unterminated declaration');
    i = end + 2;
  }
  const stack: XmlElement[] = [];
  let root: XmlElement | undefined;
  while (i < src.length) {
    const lt = src.indexOf('<', i);
    const text = src.slice(i, lt < 0 ? src.length : lt);
    const current = stack[stack.length - 1];
    if (current === undefined) {
      if (text.trim() !== '') fail('text outside the root element');
    } else {
      current.text += decode(text, false);
    }
    if (lt < 0) break;
    i = lt;
    if (src.startsWith('</', i)) {
      i += 2;
      const name = NAME.exec(src.slice(i))?.[0] ?? fail('bad closing tag name');
      i += name.length;
      while (/\s/.test(src[i] ?? '')) i++;
      if (src[i] !== '>') fail('closing tag not terminated');
      i++;
      const open = stack.pop();
      if (open?.name !== name) fail(`</${name}> closes <${open?.name ?? 'nothing'}>`);
      continue;
    }
    i++;
    const name = NAME.exec(src.slice(i))?.[0] ?? fail('bad tag name');
    i += name.length;
    const el: XmlElement = { name, attrs: {}, children: [], text: '' };
    for (;;) {
      const ws = /^\s*/.exec(src.slice(i))?.[0].length ?? 0;
      i += ws;
      if (src.startsWith('/>', i) || src[i] === '>') break;
      if (ws === 0) fail('attributes must be separated by whitespace');
      const attr = NAME.exec(src.slice(i))?.[0] ?? fail('bad attribute name');
      i += attr.length;
      if (src[i] !== '=') fail('attribute without =');
      i++;
      const quote = src[i];
      if (quote !== '"' && quote !== "'") return fail('unquoted attribute value');
      const end = src.indexOf(quote, i + 1);
      if (end < 0) fail('unterminated attribute value');
      if (attr in el.attrs) fail(`duplicate attribute ${attr}`);
      el.attrs[attr] = decode(src.slice(i + 1, end), true);
      i = end + 1;
    }
    const parent = stack[stack.length - 1];
    if (parent) parent.children.push(el);
    else if (root) fail('second root element');
    else root = el;
    if (src.startsWith('/>', i)) i += 2;
    else {
      i += 1;
      stack.push(el);
    }
  }
  if (stack.length > 0) fail(`unclosed <${stack[stack.length - 1]?.name}>`);
  return root ?? fail('no root element');
}

export function descendants(el: XmlElement, name: string): XmlElement[] {
  return el.children.flatMap((c) => [...(c.name === name ? [c] : []), ...descendants(c, name)]);
}
