// The README is the front door: short enough to read in minutes, and every link of it and of docs/ leads
// somewhere (a renamed page or heading fails here). That its commands run is test/oracle/cli/doc-commands.test.ts.
import { describe, expect, it } from 'vitest';
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { anchorOf, anchors, relativeLinks, shellCommands } from '../../helpers/markdown.ts';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../..');
const README_MAX_LINES = 200;

function markdownUnder(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const p = path.join(dir, name);
    return statSync(p).isDirectory() ? markdownUnder(p) : name.endsWith('.md') ? [p] : [];
  });
}

/** "file: link" for every link of `file` whose file, or whose heading in a Markdown file, is missing. */
function brokenLinks(file: string, text: string): string[] {
  return relativeLinks(text).flatMap((link) => {
    const target = link.path === '' ? file : path.resolve(path.dirname(file), decodeURI(link.path));
    const shown = `${path.relative(root, file)}: ${link.path}${link.anchor !== undefined ? `#${link.anchor}` : ''}`;
    if (!existsSync(target)) return [`${shown} (no such file)`];
    if (link.anchor !== undefined && target.endsWith('.md') && !anchors(readFileSync(target, 'utf8')).has(link.anchor))
      return [`${shown} (no such heading)`];
    return [];
  });
}

const readme = readFileSync(path.join(root, 'README.md'), 'utf8');

describe('the README', () => {
  it(`is at most ${README_MAX_LINES} lines, with a Documentation index`, () => {
    expect(readme.split('\n').length - (readme.endsWith('\n') ? 1 : 0)).toBeLessThanOrEqual(README_MAX_LINES);
    expect(readme).toMatch(/^## Documentation$/m);
  });

  it('links every hand-written page of docs/ from its index', () => {
    const linked = new Set(relativeLinks(readme).map((l) => path.normalize(l.path)));
    const pages = readdirSync(path.join(root, 'docs')).filter((f) => f.endsWith('.md'));
    expect(pages.filter((p) => !linked.has(path.join('docs', p)))).toEqual([]);
  });

  it('has links that resolve, and so has every page under docs/ (files, and headings of Markdown files)', () => {
    const files = [path.join(root, 'README.md'), ...markdownUnder(path.join(root, 'docs'))];
    expect(files.length).toBeGreaterThan(10);
    expect(files.flatMap((f) => brokenLinks(f, readFileSync(f, 'utf8')))).toEqual([]);
  });
});

const SOURCE_FOLDERS = ['reference', 'generators', 'harness', 'suites', 'targets', 'runner', 'reports', 'scripts', 'bin'];

function sourcesUnder(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const p = path.join(dir, name);
    return statSync(p).isDirectory() ? sourcesUnder(p) : /\.(ts|mjs)$/.test(name) ? [p] : [];
  });
}

/** "file: section" for every `docs/architecture.md "Section"` a source cites that the page has no heading for. */
function missingSections(file: string, text: string, headings: ReadonlySet<string>): string[] {
  return [...text.matchAll(/docs\/architecture\.md\s*(?:\*\s*)?"([^"]+)"/g)]
    .filter((m) => !headings.has(m[1]!))
    .map((m) => `${path.relative(root, file)}: ${m[1]}`);
}

describe('docs/architecture.md, which the code cites', () => {
  const headings = new Set(
    [...readFileSync(path.join(root, 'docs', 'architecture.md'), 'utf8').matchAll(/^#{2,3} (.+)$/gm)].map((m) => m[1]!.trim()),
  );

  it('has every section a source cites by name', () => {
    const sources = SOURCE_FOLDERS.flatMap((d) => sourcesUnder(path.join(root, d)));
    const cited = sources.flatMap((f) => missingSections(f, readFileSync(f, 'utf8'), new Set()));
    expect(cited.length).toBeGreaterThan(10);
    expect(sources.flatMap((f) => missingSections(f, readFileSync(f, 'utf8'), headings))).toEqual([]);
  });

  it('replaces the design notes a clone does not have, in the model and the generators', () => {
    const sources = ['reference', 'generators'].flatMap((d) => sourcesUnder(path.join(root, d)));
    expect(sources.filter((f) => /\b(DESIGN|STYLE)\.md\b/.test(readFileSync(f, 'utf8'))).map((f) => path.relative(root, f))).toEqual([]);
  });
});

describe('the checks themselves fail on a broken page', () => {
  it('a citation of a section docs/architecture.md lacks is reported', () => {
    const text = ' * see (docs/architecture.md "Safety") and (docs/architecture.md\n * "No such section")';
    expect(missingSections(path.join(root, 'reference', 'x.ts'), text, new Set(['Safety']))).toEqual(['reference/x.ts: No such section']);
  });

  it('a link to a missing page or heading is reported', () => {
    const file = path.join(root, 'docs', 'page.md');
    expect(
      brokenLinks(file, '[a](running.md#options-of-run) [b](no-such.md) [c](running.md#no-such-heading) [d](https://example.com/x.md)'),
    ).toEqual(['docs/page.md: no-such.md (no such file)', 'docs/page.md: running.md#no-such-heading (no such heading)']);
  });

  it('reads links, anchors and commands as GitHub and bash would', () => {
    expect(relativeLinks('see [a](b.md#c), `[not](a-link.md)`, [web](https://x) and [mail](mailto:a@b)')).toEqual([
      { path: 'b.md', anchor: 'c' },
    ]);
    expect(anchorOf('Options of `run`')).toBe('options-of-run');
    expect([...anchors('# A, b\n```sh\n# not a heading\n```\n## A, b\n')]).toEqual(['a-b', 'a-b-1']);
    expect(shellCommands("```sh\nnpx a \\\n  --b 'x # y'   # note\n```\n```yaml\nc: d\n```")).toEqual(["npx a --b 'x # y'"]);
  });
});
