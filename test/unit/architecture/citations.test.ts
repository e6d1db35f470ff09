/**
 * Comments say what and why now, and cite what a clone contains: no "issue N" (the history of a change,
 * not its meaning; a test's title included) and no DESIGN.md or STYLE.md, which are not in the
 * repository (docs/architecture.md, docs/oracle.md and docs/verdict-rules.md hold what they were cited
 * for). What is still there lives in files other work was changing when the rule came; the allowlist
 * may only shrink.
 */
import { readFileSync } from 'node:fs';
import { execFileSync } from 'node:child_process';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..', '..');

const ISSUE = /\bissues? #?\d+/i;
const OUTSIDE_DOC = /\b(DESIGN|STYLE)\.md\b/;

/** The lines of `text` that cite an issue by number or a document a clone does not have. */
export function citations(file: string, text: string): string[] {
  return text.split('\n').flatMap((line, i) => (ISSUE.test(line) || OUTSIDE_DOC.test(line) ? [`${file}:${i + 1}: ${line.trim()}`] : []));
}

/** Files and their count of such lines still allowed (files others were changing); never add to it. */
const ALLOWED: Readonly<Record<string, number>> = {
  'targets/api-server/faults.ts': 6,
  'harness/transport/client-connection.ts': 2,
  'runner/run-verdict.ts': 1,
};

// This file plants what it forbids, to show the rule catches it.
const SELF = 'test/unit/architecture/citations.test.ts';
const FOLDERS = ['reference', 'generators', 'harness', 'suites', 'targets', 'runner', 'reports', 'scripts', 'bin', 'test'];

function sourceFiles(): string[] {
  const listed = execFileSync('git', ['ls-files', '--cached', '--others', '--exclude-standard'], { cwd: root, encoding: 'utf8' });
  return listed.split('\n').filter((f) => FOLDERS.includes(f.split('/')[0] ?? '') && /\.(ts|mts|mjs)$/.test(f));
}

describe('comments cite meaning and this repository', () => {
  it('no source or test file cites an issue by number or a document outside the repository, but the listed ones, none grown', () => {
    const found = new Map<string, string[]>();
    for (const f of sourceFiles()) {
      let text: string;
      try {
        text = readFileSync(path.join(root, f), 'utf8');
      } catch {
        continue; // listed by git but deleted in the work tree
      }
      const lines = f === SELF ? [] : citations(f, text);
      if (lines.length > 0) found.set(f, lines);
    }
    const over = [...found].filter(([f, lines]) => lines.length > (ALLOWED[f] ?? 0)).flatMap(([, lines]) => lines);
    const stale = Object.entries(ALLOWED)
      .filter(([f, n]) => (found.get(f)?.length ?? 0) < n)
      .map(([f, n]) => `${f}: listed at ${n}, now ${found.get(f)?.length ?? 0}`);
    expect(over, 'say what and why instead; cite docs/ pages').toEqual([]);
    expect(stale, 'lower or remove these entries of ALLOWED').toEqual([]);
  });

  it('finds a planted citation of each kind, in a comment and in a test title, and lets meaning through', () => {
    const planted = [
      '// Why (' + 'issue 24 item 4): replays',
      "it('bad input of " + "issues 12 and 20', () => {});",
      ' * the exit code of ' + 'DESIGN' + '.md',
      '// (' + 'STYLE' + '.md practice 3)',
    ];
    expect(citations('x.ts', planted.join('\n'))).toHaveLength(4);
    const clean = [
      '// A repeatable 5xx is an answer (docs/verdicts.md).',
      '// the issue is the window, not the count: 24 items',
      '// kubernetes#135841 shows the same',
      '// see docs/architecture.md "Oracle rules"',
    ];
    expect(citations('x.ts', clean.join('\n'))).toEqual([]);
  });
});
