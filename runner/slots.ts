/**
 * The parallel slots of a run's checks, with a cap for the checks that wait on what a target may never
 * do (a watch event, a newly defined type to be served): those never hold every slot at once, so a
 * slow or partial target cannot stall the rest of the run behind their windows. Queued takers start in
 * the order they asked, except that a waiter over its cap lets a check behind it go first.
 *   new Slots(2, 1): waiter A runs; waiter B queues; plain C takes the second slot; A ends -> B runs.
 */
export class Slots {
  private running = 0;
  private runningWaiters = 0;
  private readonly queue: { readonly waiter: boolean; readonly start: () => void }[] = [];

  constructor(
    private readonly limit: number,
    private readonly waiterLimit: number,
  ) {}

  /** Resolves when the caller may start; call the returned function when it ends. */
  take(waiter: boolean): Promise<() => void> {
    return new Promise((resolve) => {
      this.queue.push({ waiter, start: () => resolve(() => this.release(waiter)) });
      this.startWhatFits();
    });
  }

  private fits(waiter: boolean): boolean {
    return this.running < this.limit && (!waiter || this.runningWaiters < this.waiterLimit);
  }

  private release(waiter: boolean): void {
    this.running--;
    if (waiter) this.runningWaiters--;
    this.startWhatFits();
  }

  private startWhatFits(): void {
    for (let i = 0; i < this.queue.length && this.running < this.limit; ) {
      const next = this.queue[i]!;
      if (!this.fits(next.waiter)) {
        i++;
        continue;
      }
      this.queue.splice(i, 1);
      this.running++;
      if (next.waiter) this.runningWaiters++;
      next.start();
    }
  }
}

/** At most all slots but one for the waiting checks (all of them when there is one slot). */
export const waiterLimitOf = (limit: number): number => Math.max(1, limit - 1);
