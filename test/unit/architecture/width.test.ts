/**
 * `npm run sizes -- --width N` measures the sizes as if the tree were formatted at printWidth N, so the
 * size rules can be held at a narrower width before the reformat lands. Shown on a scratch checkout: a
 * function that fits at the repository's width but not once its long lines wrap, and a file
 * .prettierignore keeps as it is (measured unformatted).
 */
import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { oversizeAtWidth, oversizeInCheckout } from '../../../scripts/dev/sizes.ts';
import { keyOf } from '../../../scripts/dev/source-sizes.ts';

const dir = mkdtempSync(path.join(tmpdir(), 'svc-width-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const longCall = `  x += pick('${'a'.repeat(40)}', '${'b'.repeat(40)}', '${'c'.repeat(40)}');`;
const wide = `const pick = (a: string, b: string, c: string): number => a.length + b.length + c.length;\n\nexport function wide(): number {\n  let x = 0;\n${Array.from({ length: 70 }, () => longCall).join('\n')}\n  return x;\n}\n`;

function scratchCheckout(): void {
  execFileSync('git', ['init', '-q'], { cwd: dir });
  writeFileSync(path.join(dir, '.prettierrc.json'), JSON.stringify({ printWidth: 200, singleQuote: true }));
  writeFileSync(path.join(dir, '.prettierignore'), 'reports/kept.ts\n');
  mkdirSync(path.join(dir, 'reference'));
  mkdirSync(path.join(dir, 'reports'));
  writeFileSync(path.join(dir, 'reference', 'wide.ts'), wide);
  writeFileSync(path.join(dir, 'reports', 'kept.ts'), wide.replace('function wide', 'function kept'));
}

describe('sizes at a printWidth', () => {
  it('finds a function that fits at the width it is written at but not once formatted narrower, and leaves ignored files as they are', async () => {
    scratchCheckout();
    expect(oversizeInCheckout(dir)).toEqual([]);
    expect((await oversizeAtWidth(200, dir)).map(keyOf)).toEqual([]);
    const at140 = await oversizeAtWidth(140, dir);
    expect(at140.map(keyOf)).toEqual(['reference/wide.ts:wide']);
    expect(at140[0]!.lines).toBeGreaterThan(80);
  });
});
