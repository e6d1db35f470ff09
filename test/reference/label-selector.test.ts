// Label selectors, upstream syntax: what matches, what does not, what does not parse.
import { describe, expect, it } from 'vitest';
import { formatLabelSelector, matchesLabels, parseLabelSelector } from '../../reference/label-selector.ts';

const labels = { app: 'web', tier: 'db', __proto__x: 'y' };
const m = (s: string, l: Record<string, string> = labels) => {
  const p = parseLabelSelector(s);
  if (!p.ok) throw new Error(p.error);
  return matchesLabels(p.selector, l);
};

describe('label selectors', () => {
  it.each([
    ['app=web', true], ['app==web', true], ['app=db', false], ['app!=db', true], ['app!=web', false], ['color!=red', true],
    ['app in (web,db)', true], ['app in (db)', false], ['color in (red)', false], ['app notin (db)', true], ['color notin (red)', true], ['app notin (web)', false],
    ['app', true], ['color', false], ['!color', true], ['!app', false], ['app=web,tier=db', true], ['app=web,tier=x', false], ['', true],
    ['tier in (db, web),!color', true],
  ])('%s -> %s', (s, want) => expect(m(s)).toBe(want));

  it('treats __proto__ and constructor as ordinary keys', () => {
    // A label key may not start with an underscore; `constructor` is a valid key that no object has.
    expect(parseLabelSelector('__proto__=a').ok).toBe(false);
    expect(m('constructor', {})).toBe(false);
    expect(m('constructor=x', JSON.parse('{"constructor":"x"}') as Record<string, string>)).toBe(true);
    expect(m('!constructor', {})).toBe(true);
  });

  it.each(['app=', 'app in (web', '=web', 'app in web', 'a b=c', 'app=we b'])('accepts or refuses consistently: %s', (s) => {
    const p = parseLabelSelector(s);
    if (s === 'app=') expect(p.ok).toBe(true); // empty value is valid upstream
    else expect(p.ok).toBe(false);
  });

  it('round-trips through format', () => {
    for (const s of ['app=web', 'app!=web', 'app in (web,db)', 'app notin (x)', 'app', '!app', 'app=web,!tier']) {
      const p = parseLabelSelector(s);
      expect(p.ok && formatLabelSelector(p.selector)).toBe(s);
    }
  });
});
