// Label selectors, upstream syntax: what matches, what does not, what does not parse, and the odd
// corners where a regex-based parser would disagree with the real server.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { formatLabelSelector, matchesLabels, parseLabelSelector, type Requirement } from '../../../reference/label-selector.ts';

const labels = { app: 'web', tier: 'db', n: '7', in: 'x' };
const m = (s: string, l: Record<string, string> | ReadonlyMap<string, string> = labels) => {
  const p = parseLabelSelector(s);
  if (!p.ok) throw new Error(`${s}: ${p.error}`);
  return matchesLabels(p.selector, l);
};

describe('matching', () => {
  it.each([
    ['app=web', true],
    ['app==web', true],
    ['app=db', false],
    ['app!=db', true],
    ['app!=web', false],
    ['color!=red', true],
    ['app in (web,db)', true],
    ['app in (db)', false],
    ['color in (red)', false],
    ['app notin (db)', true],
    ['color notin (red)', true],
    ['app notin (web)', false],
    ['app', true],
    ['color', false],
    ['!color', true],
    ['!app', false],
    ['app=web,tier=db', true],
    ['app=web,tier=x', false],
    ['', true],
    ['   ', true],
    ['tier in (db, web),!color', true],
    // whitespace between any two tokens, none needed around symbols
    [' app = web ', true],
    ['app in(web)', true],
    ['app notin(db)', true],
    ['! color', true],
    ['app  in  ( web , db )', true],
    // `in` is a keyword only in operator position
    ['in=x', true],
    ['in in (x)', true],
    ['!in', false],
    ['in notin (in)', true],
    // integer comparisons
    ['n>6', true],
    ['n>7', false],
    ['n<8', true],
    ['app>1', false],
    ['missing<1', false],
    // the same key twice is an AND
    ['app=web,app=db', false],
    ['app,app!=db', true],
  ] as const)('%j -> %s', (s, want) => expect(m(s)).toBe(want));

  it('empty values: `a=` and the sets upstream builds from `()`, `(,x)` and `(x,)`', () => {
    expect(m('e=', { e: '' })).toBe(true);
    expect(m('e=', { e: 'x' })).toBe(false);
    expect(m('e in ()', { e: '' })).toBe(true);
    expect(m('e in ()', { e: 'x' })).toBe(false);
    expect(m('e in ()', {})).toBe(false);
    expect(m('e notin ()', {})).toBe(true);
    for (const s of ['e in (x,)', 'e in (,x)', 'e in (x,,y)']) {
      expect(m(s, { e: '' }), s).toBe(true);
      expect(m(s, { e: 'x' }), s).toBe(true);
      expect(m(s, { e: 'z' }), s).toBe(false);
    }
  });

  it('treats __proto__, constructor and toString as ordinary keys', () => {
    // `__proto__` is not a valid label key (leading underscore), but matching must still be honest.
    expect(parseLabelSelector('__proto__=a').ok).toBe(false);
    const proto: Requirement[] = [{ key: '__proto__', op: 'exists' }];
    expect(matchesLabels(proto, {})).toBe(false);
    expect(matchesLabels(proto, JSON.parse('{"__proto__":"x"}') as Record<string, string>)).toBe(true);
    expect(matchesLabels([{ key: '__proto__', op: 'eq', value: 'x' }], new Map([['__proto__', 'x']]))).toBe(true);
    for (const k of ['constructor', 'toString', 'hasOwnProperty', 'valueOf']) {
      expect(m(k, {}), k).toBe(false);
      expect(m(`!${k}`, {}), k).toBe(true);
      expect(m(`${k}!=x`, {}), k).toBe(true);
      expect(m(`${k} in (x)`, {}), k).toBe(false);
      expect(m(`${k}=x`, JSON.parse(`{"${k}":"x"}`) as Record<string, string>), k).toBe(true);
    }
  });

  it('accepts Map labels', () => {
    expect(m('app=web', new Map([['app', 'web']]))).toBe(true);
    expect(m('!app', new Map())).toBe(true);
  });
});

describe('parsing', () => {
  it.each([
    'app in (web',
    'app in web',
    'app in (web))',
    'app in (a b)',
    'e in (x,,)',
    '=web',
    'a b=c',
    'app=we b',
    'app===web',
    'a=b=c',
    'a,',
    ',a',
    'a,,b',
    '!a=b',
    '!!a',
    '!',
    'a!',
    '(a)',
    'a in (x),',
    'n>x',
    'n<',
    'a=b)',
    'a notin',
    '__proto__',
    '-a',
    'a-',
    'Example.com/a',
    '/a',
    'a/b/c',
    'example.com/',
    `${'k'.repeat(64)}`,
    `a=${'v'.repeat(64)}`,
    'a=-b',
    'a in (-b)',
    'a=b!',
  ])('refuses %j', (s) => {
    const p = parseLabelSelector(s);
    expect(p.ok).toBe(false);
  });

  it.each([
    'a=',
    'a==',
    'a!=',
    `${'k'.repeat(63)}`,
    `a=${'v'.repeat(63)}`,
    'example.com/a-b_c.d=x',
    'a.b/c',
    'A_b.C-d',
    'a in (x,)',
    'n>-3',
    'x=y,!z,w in (1,2)',
  ])('accepts %j', (s) => {
    expect(parseLabelSelector(s).ok).toBe(true);
  });

  it('keeps requirements in order and parses operators exactly', () => {
    const p = parseLabelSelector('b!=1,a in (x,y),!c,d,e>2');
    expect(p).toEqual({
      ok: true,
      selector: [
        { key: 'b', op: 'neq', value: '1' },
        { key: 'a', op: 'in', values: ['x', 'y'] },
        { key: 'c', op: 'notexists' },
        { key: 'd', op: 'exists' },
        { key: 'e', op: 'gt', value: '2' },
      ],
    });
  });

  it('round-trips through format', () => {
    for (const s of ['app=web', 'app!=web', 'app in (web,db)', 'app notin (x)', 'app', '!app', 'app=web,!tier', 'n>3', 'n<3', 'in=x']) {
      const p = parseLabelSelector(s);
      expect(p.ok && formatLabelSelector(p.selector)).toBe(s);
    }
  });

  it('parse(format(selector)) is the selector, for generated selectors', () => {
    const key = fc.constantFrom('a', 'in', 'notin', 'example.com/k', 'x.y_z-1', 'constructor');
    const value = fc.constantFrom('', 'v', 'in', 'a.b-c_d', '0');
    const req: fc.Arbitrary<Requirement> = fc.oneof(
      fc.record({ key, op: fc.constantFrom('eq' as const, 'neq' as const), value }),
      fc.record({
        key,
        op: fc.constantFrom('in' as const, 'notin' as const),
        values: fc.uniqueArray(
          value.filter((v) => v !== ''),
          { minLength: 1, maxLength: 3 },
        ),
      }),
      fc.record({ key, op: fc.constantFrom('exists' as const, 'notexists' as const) }),
      fc.record({ key, op: fc.constantFrom('gt' as const, 'lt' as const), value: fc.integer({ min: -5, max: 99 }).map(String) }),
    );
    fc.assert(
      fc.property(fc.array(req, { maxLength: 4 }), (sel) => {
        const back = parseLabelSelector(formatLabelSelector(sel));
        expect(back).toEqual({ ok: true, selector: sel });
      }),
    );
  });
});
