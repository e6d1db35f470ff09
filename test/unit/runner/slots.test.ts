/**
 * The run's parallel slots (runner/slots.ts): the checks that wait on a target's eventual effects never
 * hold every slot, so a plain check behind them still starts; without waiters the slots behave as a
 * plain semaphore in arrival order.
 */
import { describe, expect, it } from 'vitest';
import { Slots, waiterLimitOf } from '../../../runner/slots.ts';
import { waitsOnTarget } from '../../../runner/scheduler.ts';

const tick = () => new Promise((resolve) => setTimeout(resolve, 0));

describe('slots', () => {
  it('waiters never hold every slot: a plain check behind two waiters starts beside the first', async () => {
    const slots = new Slots(2, waiterLimitOf(2));
    const started: string[] = [];
    const take = (name: string, waiter: boolean) => slots.take(waiter).then((free) => (started.push(name), free));
    const a = take('waiter-a', true);
    const b = take('waiter-b', true);
    const c = take('plain-c', false);
    await tick();
    expect(started).toEqual(['waiter-a', 'plain-c']);
    (await a)();
    await tick();
    expect(started).toEqual(['waiter-a', 'plain-c', 'waiter-b']);
    (await c)();
    (await b)();
  });

  it('without the cap (every slot open to waiters) the plain check would wait: the cap is what lets it start', async () => {
    const slots = new Slots(2, 2);
    const started: string[] = [];
    const take = (name: string, waiter: boolean) => slots.take(waiter).then((free) => (started.push(name), free));
    const frees = [take('waiter-a', true), take('waiter-b', true), take('plain-c', false)];
    await tick();
    expect(started).toEqual(['waiter-a', 'waiter-b']);
    for (const f of frees.slice(0, 2)) (await f)();
    (await frees[2]!)();
  });

  it('without waiters: a plain semaphore, first come first served', async () => {
    const slots = new Slots(1, waiterLimitOf(1));
    const started: string[] = [];
    const take = (name: string) => slots.take(false).then((free) => (started.push(name), free));
    const a = take('a');
    const b = take('b');
    const c = take('c');
    await tick();
    expect(started).toEqual(['a']);
    (await a)();
    await tick();
    expect(started).toEqual(['a', 'b']);
    (await b)();
    await tick();
    expect(started).toEqual(['a', 'b', 'c']);
    (await c)();
  });

  it('one slot: a waiter still runs (the cap is never below one)', async () => {
    const slots = new Slots(1, waiterLimitOf(1));
    const free = await slots.take(true);
    free();
  });

  it('the waiting checks are those that need watch delivery or a newly defined type served', () => {
    expect(waitsOnTarget('watch-cell-unset')).toBe(true);
    expect(waitsOnTarget('apply-schema-change')).toBe(true);
    expect(waitsOnTarget('names-and-scope')).toBe(false);
  });
});
