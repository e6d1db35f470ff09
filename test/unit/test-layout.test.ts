// The folder decides a self-test's project (vitest.config.ts): a test file elsewhere under test/ would
// be left out of `npm test` without a word. And one helper starts the reference server for tests.
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';

const root = path.resolve(import.meta.dirname, '../..');
const files = readdirSync(path.join(root, 'test'), { recursive: true, encoding: 'utf8' }).map((f) => `test/${f.replaceAll('\\', '/')}`);
const SERVER_HELPER = 'test/helpers/reference-server.ts';
/** Naming the server's constructor: a call, an import of it, a property of a dynamic import. */
const NAMES_CONSTRUCTOR = /\bstartReferenceServer\b/;
/** Running a check, or opening its environment, round the plan and its executor. */
const RUNS_CHECKS_DIRECTLY = /\b(runCheck|openSession)\s*\(/;
/**
 * Test files that run checks round planRun -> executeRun (test/helpers/planned-run.ts is the way), each
 * with the reason at its top: it tests the unit itself, not a run of checks. Never add a file that
 * only wants a shortcut.
 */
const DIRECT_CHECK_RUNNERS: readonly string[] = ['test/unit/harness/unsupported-by-model.test.ts'];

describe('the test folders', () => {
  it('every test file is under test/unit/ or test/oracle/', () => {
    const tests = files.filter((f) => f.endsWith('.test.ts'));
    expect(tests.length).toBeGreaterThan(200);
    expect(tests.filter((f) => !/^test\/(unit|oracle)\//.test(f))).toEqual([]);
  });

  it(`only ${SERVER_HELPER} starts the reference server`, () => {
    const code = (f: string) => readFileSync(path.join(root, f), 'utf8').replace(/^\s*(\/\/|\*).*$/gm, '');
    const starters = files.filter(
      (f) =>
        f.endsWith('.ts') &&
        f !== 'test/unit/test-layout.test.ts' &&
        f !== 'test/unit/architecture.test.ts' &&
        NAMES_CONSTRUCTOR.test(code(f)),
    );
    expect(starters).toEqual([SERVER_HELPER]);
  });

  it('self-tests run checks through planRun and the executor, but the listed unit tests', () => {
    const code = (f: string) => readFileSync(path.join(root, f), 'utf8').replace(/^\s*(\/\/|\*).*$/gm, '');
    const direct = files.filter((f) => f.endsWith('.ts') && f !== 'test/unit/test-layout.test.ts' && RUNS_CHECKS_DIRECTLY.test(code(f)));
    expect(direct, 'run checks with test/helpers/planned-run.ts').toEqual([...DIRECT_CHECK_RUNNERS].sort());
    // Each listed file says at its top why it calls runCheck or openSession itself.
    for (const f of DIRECT_CHECK_RUNNERS)
      expect(readFileSync(path.join(root, f), 'utf8').split('\n')[0], f).toMatch(/^\/\/ Calls (runCheck|openSession) itself: /);
  });

  it('the direct-run pattern catches a planted call, not a mention', () => {
    expect(RUNS_CHECKS_DIRECTLY.test('const records = await runCheck(checkById(id)!, env, { seed: 1, runs: 1 });')).toBe(true);
    expect(RUNS_CHECKS_DIRECTLY.test('const opened = openSession({ target, profile, runId, settings });')).toBe(true);
    expect(RUNS_CHECKS_DIRECTLY.test("import { runPlanned } from '../helpers/planned-run.ts';")).toBe(false);
  });

  it('the pattern catches a planted start round the helper', () => {
    expect(NAMES_CONSTRUCTOR.test("import { startReferenceServer } from '../../targets/api-server/index.ts';")).toBe(true);
    expect(
      NAMES_CONSTRUCTOR.test("const s = await (await import('../../targets/api-server/index.ts')).startReferenceServer({ profile });"),
    ).toBe(true);
    expect(NAMES_CONSTRUCTOR.test('const s = await referenceServer({ profile: "k8s" });')).toBe(false);
  });
});
