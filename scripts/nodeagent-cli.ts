/**
 * `svc-conformance nodeagent ...`: the reference node-agent config loader as a command (it speaks the
 * loader protocol of docs/architecture.md "Targets and protocols", so it is also the default `--nodeagent-loader`), and an explanation of
 * one matchImages decision.
 *
 *   svc-conformance nodeagent validate agent.yaml --effective          # exit 0 / 1 rejected / 2 unreadable
 *   svc-conformance nodeagent validate agent.yaml --output json        # {"errors":[{"field":...}]}
 *   svc-conformance nodeagent match-image '*.registry.io' a.registry.io/app:1
 */
import { readFileSync } from 'node:fs';
import { Command, Option } from '@commander-js/extra-typings';
import { profiles } from '../reference/profile.ts';
import { matchImage } from '../reference/nodeagent/match-images.ts';
import { runReferenceLoader } from '../targets/nodeagent-loader/loader.ts';
import { nodeagentFault, nodeagentFaults, type NodeagentFaultName } from '../targets/nodeagent-loader/faults.ts';

const collect = (v: string, prev: string[] = []): string[] => [...prev, v];

export function nodeagentCommand(): Command {
  const cmd = new Command('nodeagent').description('node-agent configuration: the reference loader and matchImages').exitOverride();
  cmd
    .command('validate')
    .description('load a NodeagentConfiguration or CredentialProviderConfig file: exit 0 accepted, 1 rejected, 2 unreadable')
    .argument('<file>', 'YAML or JSON configuration file')
    .addOption(new Option('--profile <name>', 'naming profile').choices(['svc', 'k8s'] as const).default('svc' as const))
    .option('--effective', 'on acceptance print the effective (defaulted) configuration as JSON')
    .option('--lenient', 'accept unknown fields with a note (the spec leaves them open; by default they are refused, exit 1)')
    .addOption(
      new Option('--output <format>', 'json: errors as {"errors":[{"field","message"}]} on stdout')
        .choices(['text', 'json'] as const)
        .default('text' as const),
    )
    .option(
      '--agent-version <major.minor>',
      'version the loader stands for (showHiddenMetricsForVersion accepts the previous minor)',
      '1.24',
    )
    .option(
      '--fault <name>',
      `planted fault, for self-tests (repeatable): ${nodeagentFaults.map((f) => f.name).join(', ')}; and type-ignored/<field>, range-ignored/<field>, default-changed/<path>, credential-rule-skipped/<field> per field`,
      collect,
    )
    .action((file, o) => validateFile(file, o));
  cmd
    .command('list-faults')
    .description('print the planted faults of the reference loader (for self-tests of a suite)')
    .action(() => {
      // One write: a reader that stops early (`| head`) gets no half-written lines.
      process.stdout.write(
        nodeagentFaults
          .map(
            (f) =>
              `${f.name.padEnd(34)} ${f.clauses[0] ?? ''}${f.clauses.length > 1 ? ` (+${f.clauses.length - 1})` : ''}  ${f.description}\n`,
          )
          .join(''),
      );
    });
  cmd
    .command('match-image')
    .description('explain whether a matchImages pattern selects an image (exit 0 match, 1 no match)')
    .argument('<pattern>', 'matchImages pattern, e.g. *.registry.io:5000/team')
    .argument('<image>', 'image reference, e.g. eu.registry.io:5000/team/app:1.0')
    .action((pattern, image) => {
      const d = matchImage(pattern, image);
      process.stdout.write(
        `${d.matches ? 'match' : 'no match'}${d.unspecified ? ' (unspecified: the spec leaves this case open)' : ''}: ${d.reason}\n`,
      );
      process.exitCode = d.matches ? 0 : 1;
    });
  return cmd;
}

interface ValidateOptions {
  readonly profile: 'svc' | 'k8s';
  readonly effective?: boolean;
  readonly lenient?: boolean;
  readonly output: 'text' | 'json';
  readonly agentVersion: string;
  readonly fault?: readonly string[];
}

/** `nodeagent validate FILE`: the reference loader's answer on stdout/stderr and as the exit code (2: unreadable or a bad option). */
function validateFile(file: string, o: ValidateOptions): void {
  const m = /^(\d+)\.(\d+)$/.exec(o.agentVersion);
  if (!m) return fail(2, `--agent-version ${o.agentVersion}: expected <major>.<minor>`);
  for (const f of o.fault ?? [])
    if (!nodeagentFault(f))
      return fail(
        2,
        `unknown fault ${f}; known: ${nodeagentFaults.map((x) => x.name).join(', ')}, type-ignored/<field>, range-ignored/<field>, default-changed/<path>, credential-rule-skipped/<field>`,
      );
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch (e) {
    const code = (e as NodeJS.ErrnoException).code;
    return fail(2, `${file}: ${code === 'ENOENT' ? 'no such file' : code === 'EISDIR' ? 'is a directory' : (e as Error).message}`);
  }
  const r = runReferenceLoader(text, {
    profile: profiles[o.profile],
    fileName: file,
    output: o.output,
    effective: Boolean(o.effective),
    faults: (o.fault ?? []) as NodeagentFaultName[],
    version: { major: Number(m[1]), minor: Number(m[2]) },
    refuseUnknownFields: o.lenient !== true,
  });
  process.stdout.write(r.stdout);
  process.stderr.write(r.stderr);
  process.exitCode = r.exitCode;
}

function fail(code: number, message: string): void {
  process.stderr.write(`svc-conformance: ${message}\n`);
  process.exitCode = code;
}
