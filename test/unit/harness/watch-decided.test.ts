// Why: a watch wait ends as soon as the stream broke the order rest:6.1.1 requires
// (a gap or a disorder among the suite's own writes), instead of waiting out the eventual window for
// every shrink candidate; a stream still in order must not be cut short.
import { describe, expect, it } from 'vitest';
import { orderBroken, writesAfter } from '../../../harness/interpreters/watch-session.ts';
import { emptyHistory, recordWrite } from '../../../reference/history.ts';
import type { ObjectVersion } from '../../../reference/objects.ts';
import type { ObservedEvent } from '../../../reference/watch-oracle.ts';

const ev = (type: string, rv: string): ObservedEvent => ({ type, object: { rv, key: `ns/${rv}` } as never, raw: {} });
const version = (name: string, rv: string): ObjectVersion =>
  ({
    key: `ns/${name}`,
    name,
    namespace: 'ns',
    uid: `u-${name}`,
    rv,
    creationTimestamp: undefined,
    content: { labels: {}, annotations: {}, body: {} },
  }) as never;

describe('orderBroken', () => {
  const expected = ['5', '6', '7'];
  it('in order, complete or not yet: undecided', () => {
    expect(orderBroken(expected, [ev('ADDED', '5'), ev('MODIFIED', '6'), ev('ADDED', '7')])).toBeUndefined();
    expect(orderBroken(expected, [ev('ADDED', '5')])).toBeUndefined();
    expect(orderBroken(expected, [])).toBeUndefined();
  });
  it('foreign events, bookmarks and events of older writes are not the sequence', () => {
    expect(orderBroken(expected, [ev('ADDED', '2'), ev('BOOKMARK', '9'), ev('ADDED', '5'), ev('ADDED', '99')])).toBeUndefined();
  });
  it('a gap: a later write arrived while an earlier one is missing', () => {
    expect(orderBroken(expected, [ev('ADDED', '5'), ev('ADDED', '7')])).toMatch(/6 was skipped: 7 came first/);
    expect(orderBroken(expected, [ev('ADDED', '6')])).toMatch(/5 was skipped/);
  });
  it('a disorder or a repeat', () => {
    expect(orderBroken(expected, [ev('ADDED', '6'), ev('ADDED', '5')])).toBeDefined();
    expect(orderBroken(expected, [ev('ADDED', '5'), ev('ADDED', '5')])).toMatch(/came after/);
  });
});

describe('writesAfter', () => {
  it('the creates and updates after the watch opened, in order, without no-op writes', () => {
    let h = emptyHistory(0);
    h = recordWrite(h, { op: 'put', version: version('a', '1'), atMs: 0 });
    const opened = h.snapshots.length - 1;
    h = recordWrite(h, { op: 'put', version: version('b', '2'), atMs: 0 });
    h = recordWrite(h, { op: 'put', version: version('a', '3'), atMs: 0 });
    h = recordWrite(h, { op: 'put', version: version('a', '3'), atMs: 0 });
    h = recordWrite(h, { op: 'remove', key: 'ns/b', rv: '4', atMs: 0 });
    expect(writesAfter(h, opened, () => true)).toEqual(['2', '3']);
    expect(writesAfter(h, opened, (k) => k === 'ns/a')).toEqual(['3']);
  });
});
