/**
 * `svc-conformance controller-daemon ...`: `lint` (the model as a flag linter), `run` (the reference
 * daemon), `docs` (the generated options table). Exit codes: lint 0 clean (warnings allowed), 1 errors,
 * 2 usage; run 1 on invalid options.
 */
import { readFileSync } from 'node:fs';
import { Command, Option } from '@commander-js/extra-typings';
import { parseDocument, isMap, isSeq, isScalar, type Node } from 'yaml';
import {
  effective,
  optionsMarkdown,
  parseFlags,
  renderEffective,
  type FlagError,
  type OtherComponents,
} from '../reference/controller-daemon/index.ts';
import { formatGoDuration, parseGoDuration } from '../reference/nodeagent/duration.ts';
import { suggestFlag } from '../reference/controller-daemon/suggest.ts';
import { ConfigError } from '../harness/transport/index.ts';
import { runDaemonProcess } from '../targets/controller-daemon/process.ts';

export function registerControllerDaemonCommands(program: Command): void {
  const cd = program
    .command('controller-daemon')
    .description('controller daemon options: lint a command line, run the reference daemon, print the options table');

  cd.command('lint')
    .description('check a controller daemon command line against the spec (flags after --, or --file with a manifest)')
    .argument('[flags...]', 'the daemon flags, after --')
    .showHelpAfterError('(the daemon flags go after --: svc-conformance controller-daemon lint -- --secure-port=0)')
    .addOption(new Option('--profile <name>', 'naming profile').choices(['svc', 'k8s'] as const).default('svc' as const))
    .option('--effective', 'print the effective configuration (defaults applied) as JSON')
    .option('--file <manifest>', 'YAML manifest (Pod, Deployment, DaemonSet, StaticPod) or a YAML list of arguments')
    .option('--container <name>', 'container of the manifest whose command and args to check (default: the first)')
    .option(
      '--node-status-update-frequency <duration>',
      "the node agent's nodeStatusUpdateFrequency, to check --node-monitor-grace-period against",
    )
    .addOption(
      new Option(
        '--api-server-enable-garbage-collector <bool>',
        "the API server's --enable-garbage-collector, to check the daemon's against",
      ).choices(['true', 'false'] as const),
    )
    .action((flags, o) => {
      const argv = o.file ? [...argsFromManifest(o.file, o.container), ...flags] : flags;
      let other: OtherComponents = {};
      if (o.nodeStatusUpdateFrequency !== undefined) {
        const d = parseGoDuration(o.nodeStatusUpdateFrequency);
        if (!d.ok) throw new ConfigError(`--node-status-update-frequency: ${d.error}`);
        other = { nodeStatusUpdateFrequencyNanos: d.nanos };
      }
      if (o.apiServerEnableGarbageCollector !== undefined)
        other = { ...other, apiServerEnableGarbageCollector: o.apiServerEnableGarbageCollector === 'true' };
      const parsed = parseFlags(argv, o.profile, { other });
      // An unknown flag gets the flag probably meant (a typo, or the other profile's spelling).
      const unknown = (e: FlagError) => (/^unknown flag: --/.test(e.message) ? suggestFlag(e.option.replace(/^--/, ''), o.profile) : '');
      const line = (kind: string, e: FlagError) => `${kind}: ${e.option}: ${e.message}${unknown(e)} [${e.rule}; ${e.clause}]\n`;
      for (const e of parsed.errors) process.stderr.write(line('error', e));
      for (const w of parsed.open) process.stderr.write(line('warning (no effect; a daemon may also refuse it)', w));
      for (const w of parsed.warnings) process.stderr.write(line('warning', w));
      if (o.effective && parsed.errors.length === 0) {
        const json = JSON.stringify(renderEffective(effective(parsed.options, o.profile), formatGoDuration), null, 2);
        process.stdout.write(json + '\n');
      }
      if (parsed.errors.length === 0) process.stderr.write(`ok: ${argv.length} arguments, ${parsed.warnings.length} warnings\n`);
      process.exitCode = parsed.errors.length > 0 ? 1 : 0;
    });

  cd.command('run')
    .description(
      'run the reference controller daemon: [--profile P] [--fault NAME]... [--variation NAME]... then daemon flags (--help for its flag table)',
    )
    .helpOption(false)
    .allowUnknownOption()
    .allowExcessArguments()
    .argument('[flags...]')
    .action(async () => {
      // Commander would reorder unknown options and operands: take the words after `run` verbatim.
      const at = process.argv.indexOf('run', process.argv.indexOf('controller-daemon'));
      process.exitCode = await runDaemonProcess(process.argv.slice(at + 1));
    });

  cd.command('docs')
    .description('print the generated options table (docs/controller-daemon-options.md)')
    .action(() => {
      process.stdout.write(optionsMarkdown());
    });
}

/**
 * The daemon's arguments from a manifest: a container's `command` (without the program) then `args`,
 * found under `spec.containers` or `spec.template.spec.containers`; or a top-level YAML list.
 */
export function argsFromManifest(file: string, container?: string): string[] {
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch (e) {
    throw new ConfigError(`${file}: ${(e as NodeJS.ErrnoException).code === 'ENOENT' ? 'no such file' : (e as Error).message}`);
  }
  const doc = parseDocument(text, { prettyErrors: false });
  const at = (n: Node | null | undefined) => {
    const off = n?.range?.[0] ?? 0;
    const line = text.slice(0, off).split('\n').length;
    return `${file}: line ${line}`;
  };
  if (doc.errors.length > 0) {
    const err = doc.errors[0]!;
    throw new ConfigError(`${file}: line ${err.linePos?.[0]?.line ?? '?'}: ${err.message.split('\n')[0]}`);
  }
  const strings = (n: unknown, where: string): string[] => {
    if (n === undefined || n === null) return [];
    if (!isSeq(n)) throw new ConfigError(`${at(n as Node)}: ${where} must be a list of strings`);
    return n.items.map((it, i) => {
      if (!isScalar(it) || (typeof it.value !== 'string' && typeof it.value !== 'number' && typeof it.value !== 'boolean'))
        throw new ConfigError(`${at(it as Node)}: ${where}[${i}] must be a string`);
      return String(it.value);
    });
  };
  const root = doc.contents;
  if (isSeq(root)) return strings(root, 'arguments');
  if (!isMap(root)) throw new ConfigError(`${file}: expected a manifest (mapping) or a list of arguments`);
  const spec = root.getIn(['spec', 'template', 'spec'], true) ?? root.getIn(['spec'], true);
  const containers = isMap(spec) ? spec.get('containers', true) : undefined;
  if (!isSeq(containers) || containers.items.length === 0)
    throw new ConfigError(`${at(root)}: no spec.containers or spec.template.spec.containers in the manifest`);
  const chosen = container === undefined ? containers.items[0] : containers.items.find((c) => isMap(c) && c.get('name') === container);
  if (!isMap(chosen))
    throw new ConfigError(
      `${at(containers)}: ${container === undefined ? 'the first container is not a mapping' : `no container named ${container}`}`,
    );
  const name = String(chosen.get('name') ?? '0');
  return [
    ...strings(chosen.get('command', true), `container ${name} command`).slice(1),
    ...strings(chosen.get('args', true), `container ${name} args`),
  ];
}
