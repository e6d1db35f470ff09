/** A minor release of the node agent (a loader's claimed version, the spec's reference version). */
export interface MinorVersion {
  readonly major: number;
  readonly minor: number;
}
/** The reference version of the spec (rest:1.9: v1.24). */
export const REFERENCE_VERSION: MinorVersion = { major: 1, minor: 24 };
