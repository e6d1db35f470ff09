/**
 * The optional-spread codemod's safety rule, on a scratch program: it rewrites a spread that only passes
 * an optional field on, and leaves every one where an undefined key would be seen (enumerated, laid over
 * defaults, a truthy test of a string, a computed value, an earlier spread), saying why.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type * as TS from 'typescript';
import { afterAll, describe, expect, it } from 'vitest';
import { applySites, findSites } from '../../../scripts/dev/codemod-optional-spreads.ts';

const ts = createRequire(import.meta.url)('typescript') as typeof TS;
const dir = mkdtempSync(path.join(tmpdir(), 'svc-codemod-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const source = `
interface Opts { readonly name?: string; readonly n?: number }
interface Shown { readonly label?: string }
interface Laid { readonly mode?: string }
export function plain(name: string | undefined): Opts {
  return { ...(name !== undefined ? { name } : {}) };
}
export function reversed(n: number | undefined): Opts {
  return { ...(n === undefined ? {} : { n: n }) };
}
export function enumerated(label: string | undefined): string[] {
  const s: Shown = { ...(label !== undefined ? { label } : {}) };
  return Object.keys(s);
}
const DEFAULTS: Laid = { mode: 'fast' };
export function laid(mode: string | undefined): Laid {
  const o: Laid = { ...(mode !== undefined ? { mode } : {}) };
  return { ...DEFAULTS, ...o };
}
export function truthy(name: string | undefined): Opts {
  return { ...(name ? { name } : {}) };
}
export function computed(n: number | undefined): Opts {
  return { ...(n !== undefined ? { name: String(n) } : {}) };
}
export function earlier(base: Opts, n: number | undefined): Opts {
  return { ...base, ...(n !== undefined ? { n } : {}) };
}
`;

describe('codemod-optional-spreads', () => {
  it('rewrites only the spreads whose key presence nothing sees, and says why it leaves the others', () => {
    const file = path.join(dir, 'sites.ts');
    writeFileSync(file, source);
    const program = ts.createProgram([file], { strict: true, noEmit: true, target: ts.ScriptTarget.ES2022 });
    const sites = findSites(program, dir);
    const rewritten = sites.filter((s) => s.replacement !== undefined).map((s) => s.replacement);
    expect(rewritten).toEqual(['name', 'n']);
    const left = sites.filter((s) => s.left !== undefined).map((s) => s.left);
    expect(left).toEqual([
      'label of this type is enumerated, tested with in, or spread over another object somewhere',
      'mode of this type is enumerated, tested with in, or spread over another object somewhere',
      'a truthy test of a value that can be falsy (empty string, 0, false, null)',
      'the value is not the tested name or path',
      'an earlier spread in the literal could hold the key',
    ]);
    const out = applySites(source, sites);
    expect(out).toContain('return { name };');
    expect(out).toContain('return { n };');
    expect(out).toContain('...(label !== undefined ? { label } : {})');
  });
});
