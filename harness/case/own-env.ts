/**
 * A check's own environment: apart from footprint.ts, which the environment's type (check-env.ts) names,
 * so that neither imports the other.
 */
import { Transcript } from '../transport/index.ts';
import type { CheckEnv } from './check-env.ts';
import { ExchangeSink, recordingInto, type CheckFootprint } from './footprint.ts';

/** `env` as one check's (or one lockstep side's) own: a transcript of its own, and every request it sends recorded there and counted in `footprint`. */
export function ownEnv(env: CheckEnv, footprint: CheckFootprint): CheckEnv {
  const sink = new ExchangeSink(new Transcript(), footprint);
  return { ...env, transcript: sink.transcript, target: recordingInto(env.target, sink), exchangeSink: sink };
}
