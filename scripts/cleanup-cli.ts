/**
 * `svc-conformance cleanup`: removes from a target what runs of the suite left there (a run killed
 * before its own cleanup, a second Ctrl-C, a CI job cancelled), by run id or for every run, with the
 * target options `run` takes. Only objects carrying the suite's run label are touched
 * (runner/run-objects.ts); `--dry-run` lists them and deletes nothing.
 * Exit codes: 0 nothing is left, 1 something could not be removed, 2 usage, 3 the target could not be
 * reached or asked.
 */
import { InvalidArgumentError, type Command } from '@commander-js/extra-typings';
import { ConfigError, loadTargetConfig } from '../harness/transport/index.ts';
import { firstContact } from '../harness/transport/index.ts';
import { profiles } from '../reference/profile.ts';
import { readText } from '../runner/executor.ts';
import type { RunScope } from '../runner/run-objects.ts';
import { cleanupRuns } from '../runner/sweep.ts';
import { parseDuration } from './duration-flag.ts';

/** Everything of the suite carries the same label key in both profiles. */
const RUN_LABEL = profiles.svc.runLabel;
/** How long deleted namespaces may take to go: a cluster's namespace controller takes seconds. */
const DEFAULT_WAIT_MS = 60_000;

export const CLEANUP_EXIT = { clean: 0, left: 1, usage: 2, unreachable: 3 } as const;

const runIdArg = (v: string): string => {
  if (!/^[a-z0-9]([a-z0-9-]*[a-z0-9])?$/.test(v))
    throw new InvalidArgumentError('a run id is lower-case letters and digits, as `run` prints it ("run id 1a2b3c4d")');
  return v;
};
const waitArg = (v: string): number => {
  const ms = parseDuration(v);
  if (ms === undefined) throw new InvalidArgumentError('not a duration (use e.g. 30s, 2m)');
  return ms;
};

interface CleanupCliOptions {
  runId?: string;
  all?: true;
  dryRun?: true;
  kubeconfig?: string;
  context?: string;
  server?: string;
  tokenFile?: string;
  insecureSkipTlsVerify?: true;
  wait?: number;
}

export function registerCleanupCommand(program: Command): void {
  program
    .command('cleanup')
    .description(
      'remove what runs of the suite left on a target (objects labelled svc-conformance/run=<id>): by --run-id, or --all runs; --dry-run lists them',
    )
    .option('--run-id <id>', 'the run whose objects to remove (the run prints it: "run id 1a2b3c4d")', runIdArg)
    .option('--all', 'every run of the suite on this target')
    .option('--dry-run', 'list what would be removed; delete nothing')
    .option('--kubeconfig <file>', 'credentials file of the target (default: KUBECONFIG or ~/.kube/config)')
    .option('--context <name>', 'context of the kubeconfig')
    .option('--server <url>', 'target base URL (with --token-file for a bearer token)')
    .option('--token-file <file>', 'bearer token file for --server')
    .option('--insecure-skip-tls-verify', "do not verify the target's certificate")
    .option('--wait <duration>', `how long deleted objects may take to go (default ${DEFAULT_WAIT_MS / 1000}s)`, waitArg)
    .action(async (o: CleanupCliOptions) => {
      process.exitCode = await cleanupCommand(o, (line) => process.stdout.write(`${line}\n`));
    });
}

export async function cleanupCommand(o: CleanupCliOptions, out: (line: string) => void): Promise<number> {
  if ((o.runId === undefined) === (o.all !== true))
    throw new ConfigError('cleanup: give either --run-id ID (one run) or --all (every run of the suite on the target)');
  const scope: RunScope = o.runId !== undefined ? { runId: o.runId } : 'all';
  const cfg = await loadTargetConfig({
    kubeconfig: o.kubeconfig,
    context: o.context,
    server: o.server,
    token: o.tokenFile === undefined ? undefined : readText(o.tokenFile, '--token-file').trim(),
    insecureSkipTlsVerify: o.insecureSkipTlsVerify,
  });
  // A wrong scheme or a silent port: one line, exit 3 (the same first contact as `run`).
  await firstContact(cfg);
  const what = scope === 'all' ? 'every run of the suite' : `run ${scope.runId}`;
  const r = await cleanupRuns(cfg, RUN_LABEL, scope, { dryRun: o.dryRun === true, waitMs: o.wait ?? DEFAULT_WAIT_MS, log: out });
  for (const u of r.unlisted) out(`warning: could not list ${u}; objects of that kind are not vouched for`);
  if (r.unverified !== undefined) {
    out(r.deleted > 0 ? `${r.unverified} (after ${r.deleted} accepted delete(s))` : r.unverified);
    return CLEANUP_EXIT.unreachable;
  }
  if (o.dryRun === true) {
    if (r.found.length === 0) out(`nothing of ${what} on ${cfg.server}`);
    else {
      out(`would delete ${r.found.length} object(s) of ${what} on ${cfg.server} (dry run: nothing deleted):`);
      for (const x of r.found) out(`  ${x.kind} ${x.name} (run ${x.runId}${x.terminating ? ', terminating' : ''})`);
    }
    return CLEANUP_EXIT.clean;
  }
  for (const refused of r.refused) out(`the target refused to delete ${refused}`);
  if (r.leftovers.length === 0) {
    out(
      r.found.length === 0
        ? `nothing of ${what} on ${cfg.server}`
        : `removed ${r.found.length} object(s) of ${what} from ${cfg.server}; nothing is left`,
    );
    return CLEANUP_EXIT.clean;
  }
  out(`${r.leftovers.length} object(s) of ${what} are still there:`);
  for (const l of r.leftovers) out(`  ${l.kind} ${l.name} (${l.state}): ${l.command}`);
  return CLEANUP_EXIT.left;
}
