/**
 * What the docs self-tests read in Markdown: relative links, heading anchors as GitHub spells them, and
 * the commands of shell blocks. Plain functions of a page's text, so the tests can also show each one
 * failing on a page made to break it.
 *
 *   relativeLinks('see [a](b.md#c) and [web](https://x)') -> [{ path: 'b.md', anchor: 'c' }]
 *   anchorOf('Options of `run`') -> 'options-of-run'
 *   shellCommands('```sh\nnpx a \\\n  --b   # note\n```') -> ['npx a --b']
 */

const FENCE = /^```[^\n]*\n[\s\S]*?^```[ \t]*$/gm;

/** The text without fenced blocks and inline code, where a bracket is not a link and `#` not a heading. */
function prose(text: string): string {
  return text.replace(FENCE, '').replace(/`[^`\n]*`/g, '');
}

export interface Link {
  readonly path: string;
  /** The part after `#`, if any (a heading's anchor). */
  readonly anchor?: string;
}

/** Links to other files or to headings of this one; web and mail addresses are not ours to check. */
export function relativeLinks(text: string): Link[] {
  const out: Link[] = [];
  for (const m of prose(text).matchAll(/\]\(([^)\s]+)(?:\s+"[^"]*")?\)/g)) {
    const target = m[1]!;
    if (/^[a-z][a-z0-9+.-]*:/i.test(target)) continue;
    const hash = target.indexOf('#');
    out.push(hash < 0 ? { path: target } : { path: target.slice(0, hash), anchor: target.slice(hash + 1) });
  }
  return out;
}

/** GitHub's anchor for a heading: lower case, punctuation dropped, spaces to hyphens. */
export function anchorOf(heading: string): string {
  return heading
    .replace(/`/g, '')
    .trim()
    .toLowerCase()
    .replace(/[^\p{L}\p{N} _-]/gu, '')
    .replace(/ /g, '-');
}

/** The anchors of a page's headings, a repeated one numbered as GitHub numbers it (`x`, `x-1`, ...). */
export function anchors(text: string): Set<string> {
  const seen = new Map<string, number>();
  const out = new Set<string>();
  for (const m of text.replace(FENCE, '').matchAll(/^#{1,6}\s+(.+?)\s*#*\s*$/gm)) {
    const base = anchorOf(m[1]!);
    const n = seen.get(base) ?? 0;
    seen.set(base, n + 1);
    out.add(n === 0 ? base : `${base}-${n}`);
  }
  return out;
}

/** A line's shell comment removed: a `#` after white space and outside quotes starts it. */
function withoutComment(line: string): string {
  let quote: string | undefined;
  for (let i = 0; i < line.length; i++) {
    const c = line[i]!;
    if (quote !== undefined) {
      if (c === quote) quote = undefined;
    } else if (c === "'" || c === '"') quote = c;
    else if (c === '#' && (i === 0 || /\s/.test(line[i - 1]!))) return line.slice(0, i);
  }
  return line;
}

/** Every command of the page's `sh`/`bash`/`shell` blocks, continuation lines joined, comments removed. */
export function shellCommands(text: string): string[] {
  const out: string[] = [];
  for (const m of text.matchAll(/^```(?:sh|bash|shell)[ \t]*\n([\s\S]*?)^```[ \t]*$/gm)) {
    const joined = m[1]!.replace(/[ \t]*\\\n\s*/g, ' ');
    for (const line of joined.split('\n')) {
      const command = withoutComment(line).trim();
      if (command !== '') out.push(command);
    }
  }
  return out;
}
