/**
 * The shape of a planted fault of the reference controller daemon: what the fault tables (faults.ts,
 * default-faults.ts) hold and what the daemon (daemon.ts) reads at its start.
 */
import type { GateSpec, OptionValue } from '../../reference/controller-daemon/index.ts';
import type { ClauseId } from '../../reference/catalog/clause-ids.ts';

export interface DaemonFault {
  readonly name: string;
  readonly clause: ClauseId;
  readonly description: string;
  /** A rule of reference/controller-daemon/rules.ts the daemon skips. */
  readonly disablesRule?: string;
  /** Exits with an error on --secure-port=0. */
  readonly refusesPortZero?: boolean;
  /** Ignores what is not an option: unknown flags and stray arguments (node:1.4). */
  readonly ignoresNonOptions?: boolean;
  /** Defaults the daemon uses (and prints in --help) instead of the spec's, by option name. */
  readonly defaults?: Readonly<Record<string, OptionValue>>;
  /** The daemon serves every path without authorization (ignores --authorization-always-allow-paths). */
  readonly healthzForbidden?: boolean;
  /** The gate list the daemon prints in --help instead of the spec's. */
  readonly gates?: readonly GateSpec[];
  /** Serves without applying --tls-min-version. */
  readonly ignoresTlsMinVersion?: boolean;
  /** Serves TLS 1.2 with Node's default suites whatever --tls-cipher-suites says. */
  readonly ignoresCipherSuites?: boolean;
  /** Serves the first SNI pair whose pattern matches, so an earlier wildcard beats an exact name. */
  readonly sniFirstMatch?: boolean;
  /** Generates its self-signed pair in a temporary directory whatever --cert-dir says. */
  readonly ignoresCertDir?: boolean;
  /** Takes the lease but under a different name. */
  readonly leaseName?: string;
  /** Refuses a comma-separated list in a `strings` option (2.6's type row), taking one value only. */
  readonly stringsOneValue?: boolean;
  /** Refuses to enable an alpha feature gate, as if alpha gates were locked off. */
  readonly alphaGatesLocked?: boolean;
  /** An option (by name) the daemon does not have: no row in --help, refused as an unknown flag. */
  readonly lacksOption?: string;
}
