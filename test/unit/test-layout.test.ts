// The folder decides a self-test's project (vitest.config.ts): a test file elsewhere under test/ would
// be left out of `npm test` without a word.
import { readdirSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';

const root = path.resolve(import.meta.dirname, '../..');
const files = readdirSync(path.join(root, 'test'), { recursive: true, encoding: 'utf8' }).map((f) => `test/${f.replaceAll('\\', '/')}`);

describe('the test folders', () => {
  it('every test file is under test/unit/ or test/oracle/', () => {
    const tests = files.filter((f) => f.endsWith('.test.ts'));
    expect(tests.length).toBeGreaterThan(200);
    expect(tests.filter((f) => !/^test\/(unit|oracle)\//.test(f))).toEqual([]);
  });
});
