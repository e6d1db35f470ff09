/**
 * The parsed options of `run`, as scripts/cli.ts hands them to planRun: kept apart from the plan so that
 * what reads the options (the plan, the replay command) does not import the plan to know their shape.
 */
import type { ProfileName } from '../reference/profile.ts';
import type { ScaleProfile } from '../harness/case/index.ts';

/** The parsed options of `run` (scripts/cli.ts declares the flags; this is what they parse into). */
export interface RunOptions {
  kubeconfig?: string;
  context?: string;
  server?: string;
  tokenFile?: string;
  certificateAuthority?: string;
  inCluster?: true;
  insecureSkipTlsVerify?: true;
  restrictedKubeconfig?: string;
  profile: ProfileName;
  seed?: number;
  runs: number;
  suite?: string[];
  check?: string[];
  focus?: string[];
  skip?: string[];
  dryRun?: true;
  path?: string;
  reports: string;
  expectations?: string[];
  slow?: true;
  continueTtl?: number;
  historyWindow?: number;
  eventualWindow?: number;
  shrinkTime?: number;
  fault?: string[];
  variation?: string[];
  without?: string[];
  release?: string;
  runtimeConfig?: string;
  targetCapability?: Partial<Record<string, boolean>>;
  nodeagentLoader?: string;
  nodeagentFault?: string[];
  controllerDaemon?: string;
  daemonStartTimeout?: number;
  shard?: { index: number; count: number };
  baseline?: string;
  output: 'text' | 'json';
  writers?: number;
  opsPerWriter?: number;
  hook?: string[];
  scale?: ScaleProfile;
  parallel?: number;
  confirm: number | false;
  confirmTime?: number;
  backgroundWrites?: true;
  reproduce?: number;
  timeout: number;
  /** false (`--no-preflight`): the run does not ask what its identity may do before the checks. */
  preflight?: boolean;
  /** `--namespace` (repeatable): existing namespaces to work in instead of creating the run's own. */
  namespace?: string[];
  /** false (`--no-capability-probe`): no capability map; every selected check runs. */
  capabilityProbe?: boolean;
  /** `--continue-past-failures`: a case goes on past a failure the expectations file excuses. */
  continuePastFailures?: boolean;
}
