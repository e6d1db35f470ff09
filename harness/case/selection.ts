/**
 * `--focus REGEX` / `--skip REGEX` (as ginkgo's): a check runs when some focus pattern matches one of
 * its texts (or no focus is given) and no skip pattern matches any. Its texts are its id, suite, title
 * and clause ids. Patterns are JavaScript regular expressions, case-insensitive, unanchored.
 *
 *   selectChecks(checks, { focus: [/watch/i], skip: [/bookmark/i] })
 *     -> the watch checks except watch-bookmarks (and any whose clause id names a bookmark)
 */
import { ConfigError } from '../transport/index.ts';

export interface Selectable {
  readonly id: string;
  readonly suite: string;
  readonly title: string;
  readonly clauses: readonly string[];
}

export interface Selection {
  readonly focus: readonly RegExp[];
  readonly skip: readonly RegExp[];
}

/** A pattern as the user typed it; a malformed one is a usage error naming its option. */
export function compilePattern(option: '--focus' | '--skip', source: string): RegExp {
  if (source === '')
    throw new ConfigError(`${option}: an empty pattern matches every check; give a regular expression such as ${option} watch`);
  try {
    return new RegExp(source, 'i');
  } catch (e) {
    throw new ConfigError(
      `${option} ${source}: not a regular expression (${(e as Error).message.replace(/^Invalid regular expression: /, '')})`,
    );
  }
}

export function selectionOf(o: { focus?: readonly string[]; skip?: readonly string[] }): Selection {
  return { focus: (o.focus ?? []).map((p) => compilePattern('--focus', p)), skip: (o.skip ?? []).map((p) => compilePattern('--skip', p)) };
}

export function textsOf(c: Selectable): string[] {
  return [c.id, c.suite, c.title, ...c.clauses];
}

export function isSelected(c: Selectable, s: Selection): boolean {
  const texts = textsOf(c);
  const hits = (r: RegExp) => texts.some((t) => r.test(t));
  return (s.focus.length === 0 || s.focus.some(hits)) && !s.skip.some(hits);
}

export function selectChecks<T extends Selectable>(checks: readonly T[], s: Selection): T[] {
  return checks.filter((c) => isSelected(c, s));
}

/** Nothing left to run is a usage error: an empty run would report every clause "not checked" and exit 0. */
export function requireSome<T>(selected: readonly T[], o: { focus?: readonly string[]; skip?: readonly string[] }): void {
  if (selected.length > 0) return;
  const given = [...(o.focus ?? []).map((p) => `--focus ${p}`), ...(o.skip ?? []).map((p) => `--skip ${p}`)];
  throw new ConfigError(
    `${given.length > 0 ? given.join(' ') : 'the selection'} selects no check; see \`svc-conformance list-checks\` (patterns match check ids, suites, titles and clause ids)`,
  );
}
