/** The parsers of the command line's option values: a value they refuse is a usage error of one line (exit 2). */
import { InvalidArgumentError } from '@commander-js/extra-typings';
import { parseDuration } from './duration-flag.ts';
import { capabilityFact, CAPABILITIES, type Capability, parseShard } from '../reports/index.ts';
import { SCALE_CHOICES, scaleProfileByName, type ScaleProfile } from '../harness/case/index.ts';
import { parseRequire, type Requirement } from '../reports/require.ts';

export const intArg =
  (name: string) =>
  (v: string): number => {
    if (!/^\d+$/.test(v)) throw new InvalidArgumentError(`${name} must be a non-negative integer`);
    return Number(v);
  };
export const portArg = (v: string): number => {
  if (!/^\d+$/.test(v) || Number(v) > 65535) throw new InvalidArgumentError('--port must be an integer from 0 to 65535 (0: any free port)');
  return Number(v);
};
export const positiveArg =
  (name: string) =>
  (v: string): number => {
    if (!/^\d+$/.test(v) || Number(v) < 1)
      throw new InvalidArgumentError(`${name} must be a positive integer (a property with no examples checks nothing)`);
    return Number(v);
  };
export const shardArg = (v: string): { index: number; count: number } => {
  const s = parseShard(v);
  if (s === undefined) throw new InvalidArgumentError('--shard must be i/n with 1 <= i <= n, e.g. 2/3');
  return s;
};
export const durationArg = (v: string): number => {
  const ms = parseDuration(v);
  if (ms === undefined) throw new InvalidArgumentError(`not a duration (use e.g. 300ms, 2s, 5m)`);
  // Every duration option is a budget or a window: zero would end the run, or the wait, before it began.
  if (ms <= 0) throw new InvalidArgumentError(`must be a positive duration (e.g. 300ms, 2s, 5m)`);
  return ms;
};
export const collect = (v: string, prev: string[] = []): string[] => [...prev, v];
export const capabilityArg = (v: string, known: Partial<Record<Capability, boolean>> = {}): Partial<Record<Capability, boolean>> => {
  const fact = capabilityFact(v, known);
  if (fact === undefined)
    throw new InvalidArgumentError(`unknown capability; known: ${CAPABILITIES.flatMap((c) => [c, `no-${c}`]).join(', ')}`);
  return fact;
};
export const scaleArg = (v: string): ScaleProfile => {
  const p = scaleProfileByName(v);
  if (p === undefined) throw new InvalidArgumentError(`unknown scale profile; known: ${SCALE_CHOICES.join(', ')}`);
  return p;
};

export const requireArg = (v: string, prev: Requirement[] = []): Requirement[] => {
  const parsed = parseRequire(v);
  if (typeof parsed === 'string') throw new InvalidArgumentError(parsed);
  return [...prev, ...parsed];
};
