/**
 * `svc-conformance versions --release 1.25 [--profile k8s] [--json]`: the removal table of rest:9.4
 * read for one release (reference/versioning/migration-plan.ts), plus the option parsers that the
 * `run` and `serve` commands share for `--release` and `--runtime-config`.
 */
import { InvalidArgumentError, Option, type Command } from '@commander-js/extra-typings';
import { profiles } from '../reference/profile.ts';
import { parseRelease } from '../reference/versioning/release.ts';
import { parseRuntimeConfig } from '../reference/versioning/runtime-config.ts';
import { formatMigrationPlan, migrationPlan } from '../reference/versioning/migration-plan.ts';

/** Keeps the text as given (the server and settings parse it again); refuses what is not a release. */
export const releaseArg = (v: string): string => {
  if (!parseRelease(v)) throw new InvalidArgumentError(`${JSON.stringify(v)} is not a release (use e.g. 1.25 or v1.25)`);
  return v;
};

export const runtimeConfigArg = (v: string): string => {
  const r = parseRuntimeConfig(v);
  if (!r.ok) throw new InvalidArgumentError(r.errors.join('; '));
  return v;
};

export function versionsCommand(program: Command<[], Record<string, unknown>>): void {
  program
    .command('versions')
    .description('which API group versions a client may still use in a release and which it must migrate from (rest:9.4)')
    .requiredOption('--release <version>', 'the release to plan for, e.g. 1.25', releaseArg)
    .addOption(new Option('--profile <name>', 'naming profile').choices(['svc', 'k8s'] as const).default('svc' as const))
    .option('--json', 'print the plan as JSON')
    .action((o) => {
      const plan = migrationPlan(profiles[o.profile], parseRelease(o.release)!);
      process.stdout.write(o.json ? `${JSON.stringify(plan, null, 2)}\n` : formatMigrationPlan(plan));
    });
}
