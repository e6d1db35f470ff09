/**
 * The one place outside the vitest suites (suites/define-suite.ts) that opens a check environment:
 * the runner's direct stage, confirmation replays and the benches all get theirs here.
 */
import { openEnv, type OpenedEnv } from './env.ts';

export type { OpenedEnv };

export function openSession(...args: Parameters<typeof openEnv>): OpenedEnv {
  return openEnv(...args);
}
