// --focus / --skip over check ids, suites, titles and clause ids, on the real registry.
import { describe, expect, it } from 'vitest';
import { compilePattern, isSelected, requireSome, selectChecks, selectionOf } from '../../../harness/case/selection.ts';
import { checks } from '../../../suites/checks/index.ts';

const ids = (o: { focus?: string[]; skip?: string[] }) => selectChecks(checks, selectionOf(o)).map((c) => c.id);

describe('check selection', () => {
  it('no pattern selects every check', () => {
    expect(ids({})).toEqual(checks.map((c) => c.id));
  });

  it('--focus watch --skip bookmark: every check with "watch" in one of its texts, none with "bookmark" in any', () => {
    const got = ids({ focus: ['watch'], skip: ['bookmark'] });
    expect(got).toContain('watch-resume');
    expect(got).not.toContain('watch-bookmarks');
    for (const c of checks) {
      const texts = [c.id, c.suite, c.title, ...c.clauses].join('\n');
      expect(got.includes(c.id), c.id).toBe(/watch/i.test(texts) && !/bookmark/i.test(texts));
    }
  });

  it('matches clause ids and titles, not only ids', () => {
    const byClause = checks.find((c) => c.clauses.includes('rest:4.4.3'))!;
    expect(ids({ focus: ['^rest:4\\.4\\.3$'] })).toContain(byClause.id);
    const c = checks[0]!;
    expect(isSelected(c, selectionOf({ focus: [c.title.slice(0, 12).replace(/[.*+?^${}()|[\]\\]/g, '\\$&')] }))).toBe(true);
  });

  it('several --focus patterns widen, several --skip patterns narrow', () => {
    const a = ids({ focus: ['^paging-'] });
    const b = ids({ focus: ['^health-'] });
    expect(ids({ focus: ['^paging-', '^health-'] }).sort()).toEqual([...a, ...b].sort());
    expect(ids({ focus: ['watch'], skip: ['bookmark', 'resume'] })).not.toContain('watch-resume');
  });

  it('a malformed or empty pattern, or a selection of nothing, is a usage error naming the option', () => {
    expect(() => compilePattern('--focus', '(')).toThrow(/^--focus \(: not a regular expression/);
    expect(() => compilePattern('--skip', '')).toThrow(/^--skip: an empty pattern/);
    expect(() => requireSome([], { focus: ['zzz'] })).toThrow(/--focus zzz selects no check/);
  });
});
