/**
 * The one place that opens a check environment: the runner's check stage, confirmation replays and the
 * benches all get theirs here.
 */
import { openEnv, type OpenedEnv } from './env.ts';

export type { OpenedEnv };

export function openSession(...args: Parameters<typeof openEnv>): OpenedEnv {
  return openEnv(...args);
}
