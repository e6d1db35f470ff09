// A rebuild of dist/ while a CLI run from the previous build is still going (`npm test` beside a long
// `test:upstream`) must leave the chunks that run imports late: it ended in an internal error,
// ERR_MODULE_NOT_FOUND for a dist/ chunk it loads only when it reaches its confirmation replays.
import { describe, expect, it } from 'vitest';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { carryPreviousChunks } from '../../../scripts/build.ts';

function buildFolder(root: string, name: string, files: readonly string[], chunks: readonly string[] | undefined): string {
  const dir = path.join(root, name);
  mkdirSync(dir);
  for (const f of files) writeFileSync(path.join(dir, f), f);
  writeFileSync(path.join(dir, 'build.json'), JSON.stringify({ startedAtMs: 1, entry: 'scripts/cli.ts', inputs: [], chunks }));
  return dir;
}

describe("a rebuild keeps the previous build's chunks for one build", () => {
  it('carries the chunks the previous build made and the new one lacks, not those it had carried itself', () => {
    const root = mkdtempSync(path.join(tmpdir(), 'svc-build-carry-'));
    // The previous build made a and b; it had carried z from the one before.
    const previous = buildFolder(
      root,
      'old',
      ['cli.js', 'a-111.js', 'a-111.js.map', 'b-222.js', 'z-999.js'],
      ['a-111.js', 'a-111.js.map', 'b-222.js'],
    );
    const next = buildFolder(root, 'new', ['cli.js', 'a-333.js', 'b-222.js'], ['a-333.js', 'b-222.js']);
    expect(carryPreviousChunks(previous, next).sort()).toEqual(['a-111.js', 'a-111.js.map']);
    expect(readdirSync(next).sort()).toEqual(['a-111.js', 'a-111.js.map', 'a-333.js', 'b-222.js', 'build.json', 'cli.js']);
    expect(existsSync(path.join(next, 'z-999.js'))).toBe(false);
  });

  it('carries nothing from a build without a list of its chunks, and takes no name outside the folder', () => {
    const root = mkdtempSync(path.join(tmpdir(), 'svc-build-carry-'));
    const unlisted = buildFolder(root, 'unlisted', ['cli.js', 'a-111.js'], undefined);
    const next = buildFolder(root, 'new', ['cli.js'], []);
    expect(carryPreviousChunks(unlisted, next)).toEqual([]);
    const hostile = buildFolder(root, 'hostile', ['cli.js'], ['../outside.js', 'missing-1.js']);
    writeFileSync(path.join(root, 'outside.js'), 'x');
    expect(carryPreviousChunks(hostile, next)).toEqual([]);
    expect(existsSync(path.join(root, 'outside.js'))).toBe(true);
  });
});
