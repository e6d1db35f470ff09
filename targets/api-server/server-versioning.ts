/**
 * The release and runtime-config a reference server was started with, per server. Its own module so
 * that served-versions.ts (which records metrics) and metrics.ts (which shows the release's deprecated
 * metrics) both read it without importing each other.
 */
import { REFERENCE_RELEASE, type Release } from '../../reference/versioning/release.ts';
import type { RuntimeConfigEntry } from '../../reference/versioning/runtime-config.ts';
import type { ServerState } from './state.ts';

export interface Versioning {
  readonly release: Release;
  readonly runtimeConfig: readonly RuntimeConfigEntry[];
}

const perServer = new WeakMap<ServerState, Versioning>();

export function attachVersioning(st: ServerState, v: Versioning): void {
  perServer.set(st, v);
}

export const versioningOf = (st: ServerState): Versioning => perServer.get(st) ?? { release: REFERENCE_RELEASE, runtimeConfig: [] };

export const serverRelease = (st: ServerState): Release => versioningOf(st).release;
