/**
 * The types the node-agent configuration table is written in: a field (FieldSpec), its value type
 * (TypeSpec, which nests fields for object types), its default, its boundary edges and the issue a
 * value raises. The table (config-fields.ts), the value readers (config-types.ts) and the field-local
 * rules (field-value-rules.ts) all speak them, so they live apart from each.
 */
import type { Profile } from '../profile.ts';
import type { ClauseId } from '../catalog/clause-ids.ts';

export type Scalar = 'bool' | 'string' | 'int32' | 'int64' | 'uint32' | 'float64' | 'duration' | 'quantity' | 'nanos';

export type TypeSpec =
  | { readonly kind: 'scalar'; readonly scalar: Scalar }
  | { readonly kind: 'list'; readonly of: TypeSpec }
  | { readonly kind: 'map'; readonly of: TypeSpec }
  | { readonly kind: 'object'; readonly typeName: string; readonly fields: readonly FieldSpec[] }
  /** Shape not shown by the spec (2.5: taint, vmodule item, node config source): any object. */
  | { readonly kind: 'opaque'; readonly typeName: string };

export type IssueLevel = 'error' | 'unspecified';
export interface Issue {
  readonly level: IssueLevel;
  readonly message: string;
  /** Clause when not the field's own (a 2.5 gap, a limit of 8). */
  readonly clause?: ClauseId;
}

export type DefaultSpec =
  | { readonly kind: 'value'; readonly value: (p: Profile) => unknown }
  /** Default nil: absent, null or empty are all the default. */
  | { readonly kind: 'nil' }
  /** Built from the nested type's field defaults. */
  | { readonly kind: 'object' }
  /** 2.5 says the default is not shown. */
  | { readonly kind: 'gap'; readonly clause: ClauseId }
  /** The spec gives none. */
  | { readonly kind: 'none' };

export interface Edge {
  readonly value: unknown;
  /** With every other field at its default: accepted (true) or rejected (false). */
  readonly ok: boolean;
  readonly what: string;
}

export interface FieldSpec {
  /** svc spelling (clause ids use it). */
  readonly name: string;
  /** k8s spelling where it differs. */
  readonly k8s?: string;
  readonly clause: ClauseId;
  /** Further clauses this field's rule carries (5.x, 8/nodeagent-*). */
  readonly also?: readonly ClauseId[];
  readonly type: TypeSpec;
  readonly def: DefaultSpec;
  readonly required?: boolean;
  /** One line: the rule as the model applies it (docs table, catalog summary). */
  readonly rule: string;
  /** Field-local value rule, for a value already of the right type. */
  readonly check?: (v: unknown, p: Profile) => Issue | undefined;
  /** Values the model accepts with nothing unspecified (whatever the other fields hold, save cross rules). */
  readonly samples: (p: Profile) => readonly unknown[];
  readonly edges?: readonly Edge[];
  /** Feature gates the field needs when not at its default (2.2 "Needs feature ..."). */
  readonly gates?: readonly string[];
  /** The spec's own meaning of the zero value ("0 means no limit", "0 disables"): then 0 is never read as unset. */
  readonly zeroMeans?: string;
}
