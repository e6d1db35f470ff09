/**
 * Every exchange of every client in this process, as it is recorded, with the server it went to: the
 * bench (scripts/dev/bench-run.ts) replays a whole run's requests with a bare client to weigh the
 * harness against them. Checks record into transcripts of their own, so no one transcript holds them all.
 * No tap, no cost beyond one size test per exchange.
 */
import type { Exchange } from './exchange.ts';

export type ExchangeTap = (server: string, e: Exchange) => void;

const taps = new Set<ExchangeTap>();

/** Starts telling `tap` every exchange; returns the function that stops it. */
export function tapExchanges(tap: ExchangeTap): () => void {
  taps.add(tap);
  return () => void taps.delete(tap);
}

export function tellTaps(server: string, e: Exchange): void {
  if (taps.size === 0) return;
  for (const tap of taps) tap(server, e);
}
