/**
 * The embedded target's own restart and compaction hooks, served at a private path so the
 * suite's workers can reach them like any user's `--hook` command:
 * - compact: drops every revision older than the newest, as `etcdctl compact <current>` would;
 * - restart: drops every open connection (watches end mid-stream) and answers 503 for a moment, as a
 *   process restart would; the store is kept, as a persisted one is.
 * Planted faults: `compaction-ignored` (the hook does nothing, old versions stay readable) and
 * `restart-loses-last-write` (the newest acknowledged write is lost, its revision reused).
 */
import type { IncomingMessage, Server } from 'node:http';
import { has, type ServerState } from './state.ts';
import { statusAnswer, type Answer } from './status.ts';

export const HOOK_PATH = '/_svc-conformance/hooks/';
const RESTART_DOWN_MS = 300;

export interface HookControl {
  /** Until this time every request answers 503 (the process is "starting"). */
  downUntil: number;
}

export function serveHook(st: ServerState, server: Server, ctl: HookControl, req: IncomingMessage, pathname: string): Answer | undefined {
  if (!pathname.startsWith(HOOK_PATH)) return undefined;
  if (req.method !== 'POST') return statusAnswer(405, 'MethodNotAllowed', 'hooks are POSTed');
  const name = pathname.slice(HOOK_PATH.length);
  if (name === 'compact') {
    if (!has(st, 'compaction-ignored')) st.store.compactTo(st.store.currentRevision);
    return { status: 200, body: { hook: 'compact', compactedTo: st.codec.rv(st.store.oldestRetained) } };
  }
  if (name === 'restart') {
    if (has(st, 'restart-loses-last-write')) st.store.forgetNewest();
    ctl.downUntil = st.clock() + RESTART_DOWN_MS;
    // After this answer is sent: the hook's own connection must not be the one cut.
    setImmediate(() => server.closeAllConnections());
    return { status: 200, body: { hook: 'restart' } };
  }
  return statusAnswer(404, 'NotFound', `no hook ${name}`);
}

export const starting = (st: ServerState, ctl: HookControl): Answer | undefined =>
  st.clock() < ctl.downUntil ? statusAnswer(503, 'ServiceUnavailable', 'the server is starting', { 'retry-after': '1' }) : undefined;

/** The hook settings that reach this server's hooks (the CLI and the self-tests pass them to checks). */
export function embeddedHooks(server: string): { restart: { kind: 'http'; url: string }; compact: { kind: 'http'; url: string } } {
  return { restart: { kind: 'http', url: `${server}${HOOK_PATH}restart` }, compact: { kind: 'http', url: `${server}${HOOK_PATH}compact` } };
}
