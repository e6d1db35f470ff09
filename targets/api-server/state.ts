/** Everything a request handler needs, created once per server. */
import type { Profile } from '../../reference/profile.ts';
import type { Codec } from './encoding.ts';
import type { FaultName } from './faults.ts';
import type { VersionedStore } from './store.ts';
import type { VariationName } from './variations.ts';
import type { UserInfo } from '../../reference/rbac.ts';
import type { PartialModeName } from './partial-modes.ts';

export interface ServerState {
  readonly profile: Profile;
  readonly store: VersionedStore;
  readonly codec: Codec;
  readonly historyWindowMs: number;
  readonly continueTtlMs: number;
  readonly tooLargeWaitMs: number;
  /** How often a watch that asked for bookmarks gets one. */
  readonly bookmarkIntervalMs: number;
  readonly clock: () => number;
  readonly faults: ReadonlySet<FaultName>;
  readonly variations: ReadonlySet<VariationName>;
  /** Whole features left out (`--without`, partial-modes.ts); absent or empty: the full server. */
  readonly without?: ReadonlySet<PartialModeName>;
  /** The server empties and removes a deleted namespace itself; off when a real namespace controller does (namespaces.ts). */
  readonly builtInNamespaceController: boolean;
  /** Bearer tokens and their users; absent: no authentication, everyone is a superuser (authz.ts). */
  readonly tokens?: ReadonlyMap<string, UserInfo>;
  /** Told each time a variation's decision point is passed, varied or not (ReferenceServerOptions.onVariationPoint). */
  readonly onVariationPoint?: (v: VariationName) => void;
  /** The number of the request being served, as the request loop counts them (crd-schema-change-lags picks every other one). */
  requestSeq?: number;
}

export const has = (st: ServerState, f: FaultName) => st.faults.has(f);
export const varies = (st: ServerState, v: VariationName) => {
  st.onVariationPoint?.(v);
  return st.variations.has(v);
};
