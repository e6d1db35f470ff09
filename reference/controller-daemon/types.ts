/**
 * The controller daemon's options as data (node:2.6, node:5, node:8). Value types are the pflag types the
 * spec names; `gates`, `namedCertKey`, `vmodule` and `version` are the spec's special types.
 */
import type { ProfileName } from '../profile.ts';
import type { ClauseId } from '../catalog/clause-ids.ts';

export type OptionType =
  | 'string'
  | 'int'
  | 'int32'
  | 'float'
  | 'bool'
  | 'duration'
  | 'strings'
  | 'stringToString'
  | 'gates'
  | 'namedCertKey'
  | 'vmodule'
  | 'version'
  | 'help';

export interface NamedCertKey {
  readonly cert: string;
  readonly key: string;
  /** Domain patterns after `:`; empty when the names come from the certificate itself. */
  readonly names: readonly string[];
}

export type OptionValue =
  | string
  | number
  | boolean
  | bigint
  | readonly string[]
  | Readonly<Record<string, string>>
  | Readonly<Record<string, boolean>>
  | readonly NamedCertKey[]
  | readonly { pattern: string; level: number }[];

export interface OptionSpec {
  /** The name under the svc profile, without dashes: also the clause slug (`node:2.6/secure-port`). */
  readonly name: string;
  /** The name under each profile when it differs (`svc-api-qps` / `kube-api-qps`). */
  readonly names?: Readonly<Record<ProfileName, string>>;
  readonly shorthand?: string;
  readonly type: OptionType;
  /** False for the rows of node:8, whose table gives no type: ours is inferred from the default. */
  readonly typeFromSpec: boolean;
  /** Default as the spec writes it (per profile when it carries a product name); absent: none. */
  readonly default?: string | Readonly<Record<ProfileName, string>>;
  /** Defaults the spec gives in words the value syntax cannot hold (`Go defaults`). */
  readonly defaultNote?: string;
  readonly section: '2.6' | '5' | '8';
  readonly table: string;
  readonly meaning: string;
  readonly clause: ClauseId;
  /** Each occurrence adds an element instead of replacing the value. */
  readonly repeatable?: boolean;
  /** Rest 9.3 rule 5a/6: a deprecated option works and warns. The spec marks none today. */
  readonly deprecated?: string;
  /** Beyond the explicit rows (`--<vendor>-container-registry-config`): a name pattern. */
  readonly pattern?: RegExp;
}

/** One broken rule: the option, the clause and the rule in words (the linter prints all three). */
export interface FlagError {
  readonly option: string;
  readonly clause: ClauseId;
  readonly rule: string;
  readonly message: string;
}

export type FlagWarning = FlagError;

/** Values other components give (node:8 rules that need them); each rule runs only when given. */
export interface OtherComponents {
  /** The node agent's `nodeStatusUpdateFrequency`, ns. */
  readonly nodeStatusUpdateFrequencyNanos?: bigint;
  /** The API server's `--enable-garbage-collector`. */
  readonly apiServerEnableGarbageCollector?: boolean;
}
