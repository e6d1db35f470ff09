/**
 * The node-agent config loader as a target (docs/architecture.md "Targets and protocols"): a command run once per
 * case with the config file path appended, or the embedded reference loader run in-process. Exit 0
 * accepted, non-zero rejected; stdout may carry the effective configuration or `{"errors":[...]}`.
 * A command that cannot run (126/127), dies on a signal or outlives its timeout is infrastructure
 * trouble, never a verdict; its process group is always killed and reaped.
 */
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { Profile } from '../../reference/profile.ts';
import { InfrastructureError } from '../transport/index.ts';

export interface LoaderOutcome {
  readonly exitCode: number;
  readonly stdout: string;
  readonly stderr: string;
}

export interface NodeagentLoaderTarget {
  /** What the report names as the loader (`target.nodeagentLoader`). */
  readonly description: string;
  /** Loads one configuration file with the given name and content. */
  run(fileName: string, text: string): Promise<LoaderOutcome>;
  /** Shell line that reproduces a case from its saved file. */
  replay(file: string): string;
  /** The command line a file's path is appended to (a reproducer's default LOADER). */
  readonly command?: string;
  close(): void;
}

/** What the CLI hands to the suites: a command, or nothing for the embedded reference loader. */
export interface NodeagentLoaderSettings {
  readonly command?: string;
  readonly faults?: readonly string[];
  readonly timeoutMs?: number;
}

/**
 * Builds the embedded reference loader (targets/nodeagent-loader/embedded.ts) with planted faults.
 * Handed in by the composition root (scripts/, tests), so the harness never imports a target and
 * imports flow one way (docs/architecture.md "Layers").
 */
export type EmbeddedLoaderFactory = (profile: Profile, faults: readonly string[]) => NodeagentLoaderTarget;

let providedEmbedded: EmbeddedLoaderFactory | undefined;

/** Called once per process by whoever may import targets/ (the runner's check stage). */
export function provideEmbeddedLoader(factory: EmbeddedLoaderFactory): void {
  providedEmbedded = factory;
}

const shellQuote = (s: string) => `'${s.replace(/'/g, `'\\''`)}'`;

export function commandLoader(command: string, o: { timeoutMs?: number } = {}): NodeagentLoaderTarget {
  const dir = mkdtempSync(path.join(tmpdir(), 'svc-conformance-nodeagent-'));
  const timeoutMs = o.timeoutMs ?? 20_000;
  let n = 0;
  return {
    description: command,
    command,
    replay: (file) => `${command} ${shellQuote(file)}`,
    close: () => rmSync(dir, { recursive: true, force: true }),
    run: (fileName, text) => {
      const file = path.join(dir, `${++n}-${path.basename(fileName)}`);
      writeFileSync(file, text);
      return new Promise<LoaderOutcome>((resolve, reject) => {
        // `sh -c 'CMD "$1"' sh FILE`: the command line is the user's, the path is never re-parsed.
        const child = spawn('sh', ['-c', `${command} "$1"`, 'sh', file], { detached: true, stdio: ['ignore', 'pipe', 'pipe'] });
        const out: Buffer[] = [];
        const err: Buffer[] = [];
        child.stdout.on('data', (b: Buffer) => out.push(b));
        child.stderr.on('data', (b: Buffer) => err.push(b));
        let timedOut = false;
        const killGroup = () => {
          try {
            if (child.pid !== undefined) process.kill(-child.pid, 'SIGKILL');
          } catch {
            // Already gone.
          }
        };
        const timer = setTimeout(() => {
          timedOut = true;
          killGroup();
        }, timeoutMs);
        child.on('error', (e) => {
          clearTimeout(timer);
          reject(new InfrastructureError(`node-agent loader ${JSON.stringify(command)} could not start: ${e.message}`));
        });
        child.on('close', (code, signal) => {
          clearTimeout(timer);
          killGroup();
          rmSync(file, { force: true });
          const stderr = Buffer.concat(err).toString('utf8');
          if (timedOut)
            return reject(new InfrastructureError(`node-agent loader ${JSON.stringify(command)} did not finish within ${timeoutMs} ms`));
          if (code === null) return reject(new InfrastructureError(`node-agent loader ${JSON.stringify(command)} was killed by ${signal}`));
          if (code === 126 || code === 127)
            return reject(
              new InfrastructureError(
                `node-agent loader ${JSON.stringify(command)} cannot run (exit ${code}): ${stderr.trim().slice(0, 200)}`,
              ),
            );
          resolve({ exitCode: code, stdout: Buffer.concat(out).toString('utf8'), stderr });
        });
      });
    },
  };
}

export function loaderFromSettings(
  s: NodeagentLoaderSettings | undefined,
  profile: Profile,
  embedded: EmbeddedLoaderFactory | undefined = providedEmbedded,
): NodeagentLoaderTarget | undefined {
  if (s === undefined) return undefined;
  if (s.command !== undefined) return commandLoader(s.command, s.timeoutMs !== undefined ? { timeoutMs: s.timeoutMs } : {});
  if (embedded === undefined) throw new Error('no embedded node-agent loader was provided (provideEmbeddedLoader): a bug of ours');
  return embedded(profile, s.faults ?? []);
}
