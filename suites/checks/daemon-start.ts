/**
 * What the controller daemon checks share (suites/checks/daemon.ts, daemon-tls.ts): the suite's flags and
 * command line, a start bounded in time and read as plain data for the judges, a serving daemon stopped
 * whatever happens, TLS handshakes paced by the target, and the reproducers of a start.
 */
import type { Check, CheckEnv } from '../../harness/case/index.ts';
import type { CaseContext } from '../../harness/case/index.ts';
import { DAEMON_NOT_SELECTED } from '../../harness/case/index.ts';
import {
  calibrate,
  freePort,
  handshakePatiently,
  observeStart,
  DaemonDidNotExit,
  shellQuote,
  type ControllerDaemonTarget,
  type Handshake,
  type StartObservation,
} from '../../harness/processes/index.ts';
import { flagName, notReadyReason, optionByName, type Judgement, type StartSeen } from '../../reference/controller-daemon/index.ts';
import { CheckNotApplicable } from '../../harness/case/index.ts';
import { daemonReproducer, processSteps, type ProcessAbout } from '../../harness/reproducers/index.ts';
import type { ProfileName } from '../../reference/profile.ts';
import type { ClauseId } from '../../reference/catalog/clause-ids.ts';

export const SUITE = 'controller-daemon';
export const notConfigured = (env: CheckEnv) => (env.controllerDaemon ? undefined : DAEMON_NOT_SELECTED);
/** The daemon target, its pace calibrated on the first use (harness/processes/controller-daemon.ts `calibrate`). */
export const daemon = async (cx: CaseContext): Promise<ControllerDaemonTarget> => {
  await calibrate(cx.env.controllerDaemon!);
  return cx.env.controllerDaemon!;
};

/**
 * The launcher for a start judged by what the daemon does with its flags (serves, or exits with a
 * code): the target's in-process one for the run's profile where it has one, else its process launcher.
 */
export const startLauncher = (t: ControllerDaemonTarget, profile: ProfileName) => t.startLauncher?.(profile) ?? t.launcher;

/** What the suite adds to every start: loopback, its free port, the API server target. */
export function suiteFlags(t: Pick<ControllerDaemonTarget, 'kubeconfigPath'>, profile: ProfileName, port: number | '<port>'): string[] {
  return ['--bind-address=127.0.0.1', `--secure-port=${port}`, `--${flagName(optionByName('svcconfig')!, profile)}=${t.kubeconfigPath}`];
}

/** The command line to paste (the port is whatever is free when you run it). */
export const commandLine = (
  env: Pick<CheckEnv, 'profile'> & { readonly controllerDaemon?: CheckEnv['controllerDaemon'] },
  words: readonly string[],
) =>
  [
    env.controllerDaemon?.launcher.display ?? '<daemon>',
    ...suiteFlags(env.controllerDaemon ?? { kubeconfigPath: '<kubeconfig>' }, env.profile.name, '<port>'),
    ...words.map(shellQuote),
  ].join(' ');

/** What an observed start was, as plain data for the judges. */
export const startSeen = (obs: Exclude<StartObservation, { kind: 'hung' }>): StartSeen =>
  obs.kind === 'exited' ? { kind: 'exited', code: obs.code, output: obs.output } : { kind: 'serving', healthz: obs.healthz };

/** A start that never got ready: the clauses the case would judge are inconclusive, and the check stops. */
export const hung = (clauses: readonly ClauseId[], obs: { output: string; waitedMs: number }) =>
  new CheckNotApplicable(clauses, notReadyReason(obs.waitedMs, obs.output), 'inconclusive');

/** --help or --version still running when its window passed: no clause bounds how long it may take either. */
export const notExited =
  (clauses: readonly ClauseId[]) =>
  (e: unknown): never => {
    if (e instanceof DaemonDidNotExit)
      throw new CheckNotApplicable(clauses, notReadyReason(e.waitedMs, e.output, 'exited'), 'inconclusive');
    throw e;
  };

/** The target's paces, for the waits that take them (absent in hand-built targets). */
export const paced = (t: ControllerDaemonTarget) => ({ pace: t.pace, answers: t.answers });

/**
 * A TLS handshake with a serving daemon, its timeout stretched by how late it answered lately and doubled while
 * nothing answers: a handshake that gets no answer at all is reported as such (`timedOut`), never as
 * a refusal (slow is not wrong, and silence is not a refusal either).
 */
export const handshake = (
  t: ControllerDaemonTarget,
  port: number,
  o: Omit<Parameters<typeof handshakePatiently>[1], 'timeoutMs'> = {},
): Promise<Handshake> => handshakePatiently(port, { ...o, timeoutMs: 3000 }, t.answers);

/**
 * Starts the daemon with the suite's flags and `words`, runs `whileServing` once /healthz answers 200,
 * and always stops it. A start that exits is judged by `onExit`; one that never gets ready leaves `clauses` inconclusive.
 */
export async function withServingDaemon(
  cx: CaseContext,
  clauses: readonly ClauseId[],
  words: readonly string[],
  onExit: (obs: Extract<StartSeen, { kind: 'exited' }>) => Judgement[],
  whileServing: (port: number, t: ControllerDaemonTarget) => Promise<Judgement[]>,
): Promise<void> {
  const t = await daemon(cx);
  const port = await freePort();
  const dp = startLauncher(t, cx.env.profile.name).launch([...suiteFlags(t, cx.env.profile.name, port), ...words]);
  try {
    const obs = await observeStart(dp, port, { startTimeoutMs: t.startTimeoutMs, waitFor200: true, ...paced(t) });
    if (obs.kind === 'hung') throw hung(clauses, obs);
    cx.judge(obs.kind === 'exited' ? onExit({ kind: 'exited', code: obs.code, output: obs.output }) : await whileServing(port, t));
  } finally {
    await dp.stop();
  }
}

/**
 * The standalone reproducer of a start: the exact command line, started and watched
 * as the suite did, with the answer the judge needed (refuse, or serve) checked; where the judge
 * attached none (a handshake, a Lease, --help) the script still shows the command line and what it did.
 */
export function startReproducer(words: readonly string[], failure: Judgement, env: CheckEnv, about: ProcessAbout): string {
  const t = env.controllerDaemon;
  return daemonReproducer({
    command: t?.launcher.display ?? '<daemon command>',
    kubeconfigFlag: `--${flagName(optionByName('svcconfig')!, env.profile.name)}`,
    words,
    needs: failure.needs,
    about,
    startTimeoutS: Math.max(30, Math.ceil((t?.startTimeoutMs ?? 0) / 1000)),
    settleS: Math.max(1, Math.ceil((t?.settleMs ?? 0) / 1000)),
  });
}

/** A check with no command line of its own to start (--help, --version, handshakes): its steps, undecided. */
export const stepsReproducer = (c: Check<{ line: string }>): Check<{ line: string }> => ({
  ...c,
  reproducer: (i, _failure, _env, about) => processSteps(c.describe(i), about),
});
