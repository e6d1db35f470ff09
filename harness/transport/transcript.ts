/**
 * In-memory recorder of exchanges, passed to the client as `onExchange`. A failing property reads the
 * exchanges of its shrunk run with `since(seq)` to build the curl reproduction.
 */
import type { Exchange } from './exchange.ts';

export class Transcript {
  private readonly exchanges: Exchange[] = [];

  /**
   * @param capacity oldest exchanges are dropped beyond this, so a night-long run cannot exhaust memory;
   * a counterexample only needs the exchanges of its own (short) sequence.
   */
  constructor(private readonly capacity = 100_000) {}

  /** Arrow property so it can be handed over unbound: `createTargetClient(cfg, { onExchange: t.record })`. */
  readonly record = (e: Exchange): void => {
    this.exchanges.push(e);
    if (this.exchanges.length > this.capacity) this.exchanges.splice(0, this.exchanges.length - this.capacity);
  };

  all(): readonly Exchange[] {
    return [...this.exchanges];
  }

  /** Exchanges with a seq strictly greater than `seq` (take `lastSeq()` before a sequence starts). */
  since(seq: number): readonly Exchange[] {
    return this.exchanges.filter((e) => e.seq > seq);
  }

  /** seq of the newest recorded exchange, 0 when none. */
  lastSeq(): number {
    return this.exchanges.at(-1)?.seq ?? 0;
  }

  clear(): void {
    this.exchanges.length = 0;
  }
}
