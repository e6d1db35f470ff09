/**
 * Durations on our own command line (`--continue-ttl 300ms`, `--history-window 5m`): the same Go
 * duration grammar the spec uses for its own durations (reference/nodeagent/duration.ts), one grammar
 * for the whole project. Milliseconds, rounded; negative durations are refused (a window cannot be).
 */
import { parseGoDuration } from '../reference/nodeagent/duration.ts';

export function parseDuration(text: string): number | undefined {
  const d = parseGoDuration(text);
  if (!d.ok || d.nanos < 0n) return undefined;
  return Math.round(Number(d.nanos) / 1e6);
}
