// The envtest launcher's failure paths, with stand-in binaries (no upstream ones needed): a missing or
// bad assets folder is one line naming what is missing; a component that dies or never serves is an
// error naming it with its log tail (token scrubbed); and whatever was started is stopped, helpers it
// forked included, and the private folder removed.
import { afterAll, describe, expect, it } from 'vitest';
import { spawn } from 'node:child_process';
import { chmodSync, existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { AssetsError, ControlPlaneStartError, resolveAssets, startControlPlane } from '../../../harness/envtest/index.ts';
import { processAlive } from './processes.ts';

const scratch = mkdtempSync(path.join(tmpdir(), 'svc-conformance-envtest-test-'));
// The launcher makes its private folder under os.tmpdir(): point that here to see it is removed.
const privateRoot = path.join(scratch, 'tmp');
mkdirSync(privateRoot);
process.env.TMPDIR = privateRoot;
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

const privateFolders = () => readdirSync(privateRoot).filter((f) => f.startsWith('svc-conformance-envtest-'));

let n = 0;
function assetsWith(files: Record<string, string>): string {
  const dir = path.join(scratch, `assets-${++n}`);
  mkdirSync(dir);
  for (const [name, body] of Object.entries(files)) {
    writeFileSync(path.join(dir, name), body);
    chmodSync(path.join(dir, name), 0o755);
  }
  return dir;
}

// A stand-in etcd: serves /health 200 on the port of --listen-client-urls; records its pid.
const fakeEtcd = (pidFile: string) => `#!${process.execPath}
const { createServer } = require('node:http');
const { writeFileSync } = require('node:fs');
writeFileSync(${JSON.stringify(pidFile)}, String(process.pid));
const url = process.argv.find((a) => a.startsWith('--listen-client-urls=')).split('=')[1];
createServer((req, res) => res.end('{"health":"true"}')).listen(Number(new URL(url).port), '127.0.0.1');
`;
const errorOf = async (p: Promise<unknown>): Promise<Error> => {
  try {
    await p;
  } catch (e) {
    return e as Error;
  }
  throw new Error('expected the start to fail');
};

describe('resolveAssets: one line naming what is missing', () => {
  it('no folder named: says which variable to set', () => {
    expect(() => resolveAssets({ env: {} })).toThrow(AssetsError);
    expect(() => resolveAssets({ env: {} })).toThrow(
      /^no upstream binaries: set KUBEBUILDER_ASSETS to a folder with etcd, kube-apiserver .* or name one with --assets$/,
    );
  });

  it('a folder that does not exist, or a file: names it and where the name came from', () => {
    expect(() => resolveAssets({ env: { KUBEBUILDER_ASSETS: path.join(scratch, 'nope') } })).toThrow(
      `KUBEBUILDER_ASSETS ${path.join(scratch, 'nope')} does not exist`,
    );
    const file = path.join(scratch, 'a-file');
    writeFileSync(file, '');
    expect(() => resolveAssets({ dir: file })).toThrow(`the assets folder ${file} is not a folder`);
  });

  it('a folder without a required binary, or with one not executable: names the binary', () => {
    const dir = assetsWith({ etcd: '#!/bin/sh\n' });
    writeFileSync(path.join(dir, 'kube-apiserver'), '');
    const e = (() => {
      try {
        resolveAssets({ dir, required: ['etcd', 'kube-apiserver', 'kubelet-config-loader'] });
      } catch (err) {
        return err as Error;
      }
      throw new Error('expected an AssetsError');
    })();
    expect(e.message).toBe(
      `no upstream binaries: kube-apiserver, kubelet-config-loader are missing or not executable in ${dir} (the assets folder)`,
    );
    expect(e.message).not.toContain('\n');
    // What is there is found; the optional controller manager is simply absent.
    expect(resolveAssets({ dir, required: ['etcd'] }).binaries).toEqual({ etcd: path.join(dir, 'etcd') });
  });
});

describe('startControlPlane: failures name the component and stop what was started', () => {
  it('a component that exits: its name, exit code and log tail (token scrubbed); the folder is removed', async () => {
    const dir = assetsWith({
      etcd: fakeEtcd(path.join(scratch, 'etcd-1.pid')),
      // Prints its token file (as a careless component might log a credential), then fails.
      'kube-apiserver':
        '#!/bin/sh\nfor a in "$@"; do case "$a" in --token-auth-file=*) cat "${a#*=}";; esac; done\necho "E1124 run.go:74] boom: cannot serve"\nexit 7\n',
    });
    const e = await errorOf(startControlPlane({ assetsDir: dir, controllerManager: 'off', startTimeoutMs: 20_000 }));
    expect(e).toBeInstanceOf(ControlPlaneStartError);
    const err = e as ControlPlaneStartError;
    expect(err.component).toBe('kube-apiserver');
    expect(err.message).toBe('kube-apiserver exited before serving (exit code 7)');
    expect(err.logTail.at(-1)).toContain('boom: cannot serve');
    expect(err.logTail.join('\n')).toMatch(/^<redacted>,admin,admin,"system:masters"$/m);
    expect(processAlive(Number(readFileSync(path.join(scratch, 'etcd-1.pid'), 'utf8')))).toBe(false);
    expect(privateFolders()).toEqual([]);
  });

  it('a component that never serves: bounded wait, then it and the helpers it forked are stopped', async () => {
    const helperPid = path.join(scratch, 'helper.pid');
    const dir = assetsWith({
      etcd: fakeEtcd(path.join(scratch, 'etcd-2.pid')),
      'kube-apiserver': `#!/bin/sh\nsleep 600 &\necho $! > ${helperPid}\necho starting\nwait\n`,
    });
    const e = await errorOf(startControlPlane({ assetsDir: dir, controllerManager: 'off', startTimeoutMs: 1_500 }));
    expect(e).toBeInstanceOf(ControlPlaneStartError);
    expect(e.message).toMatch(/^kube-apiserver did not answer 200 at https:\/\/127\.0\.0\.1:\d+\/readyz within 2 s \(last: no answer\)$/);
    expect((e as ControlPlaneStartError).logTail).toEqual(['starting']);
    expect(processAlive(Number(readFileSync(helperPid, 'utf8'))), 'the forked helper survived').toBe(false);
    expect(processAlive(Number(readFileSync(path.join(scratch, 'etcd-2.pid'), 'utf8')))).toBe(false);
    expect(privateFolders()).toEqual([]);
  });

  it('a component that lost its port to a race is started again on fresh ports', async () => {
    const marker = path.join(scratch, 'raced');
    const dir = assetsWith({
      // First start: the port is taken (as when another process binds it between our probe and etcd).
      etcd: `#!/bin/sh\nif [ ! -e ${marker} ]; then touch ${marker}; echo "listen tcp 127.0.0.1:1: bind: address already in use"; exit 1; fi\nexec ${process.execPath} ${path.join(scratch, 'etcd.js')} "$@"\n`,
      'kube-apiserver': '#!/bin/sh\necho "no server here"\nexit 1\n',
    });
    writeFileSync(path.join(scratch, 'etcd.js'), fakeEtcd(path.join(scratch, 'etcd-3.pid')).split('\n').slice(1).join('\n'));
    const lines: string[] = [];
    const e = await errorOf(
      startControlPlane({ assetsDir: dir, controllerManager: 'off', startTimeoutMs: 20_000, log: (l) => lines.push(l) }),
    );
    // etcd came up on the second attempt; the stand-in API server then failed as designed.
    expect(lines).toContain('envtest: etcd lost a port to another process; retrying on fresh ports');
    expect(lines.some((l) => /^envtest: etcd ready on 127\.0\.0\.1:\d+/.test(l))).toBe(true);
    expect((e as ControlPlaneStartError).component).toBe('kube-apiserver');
  });
});

describe('startControlPlane: a signal during the start', () => {
  it('Ctrl-C while the API server starts: the components are killed, the folder removed, the process dies of SIGINT', async () => {
    const helperPid = path.join(scratch, 'helper-signal.pid');
    const dir = assetsWith({
      etcd: fakeEtcd(path.join(scratch, 'etcd-4.pid')),
      'kube-apiserver': `#!/bin/sh\nsleep 600 &\necho $! > ${helperPid}\nwait\n`,
    });
    // The launcher in a process of its own, as `svc-conformance envtest` runs it.
    const driver = path.join(scratch, 'driver.mts');
    const launcher = pathToFileURL(fileURLToPath(new URL('../../../harness/envtest/index.ts', import.meta.url))).href;
    writeFileSync(
      driver,
      `import { startControlPlane } from ${JSON.stringify(launcher)};\nawait startControlPlane({ assetsDir: ${JSON.stringify(dir)}, controllerManager: 'off', startTimeoutMs: 120_000 });\n`,
    );
    const tsx = fileURLToPath(import.meta.resolve('tsx'));
    const child = spawn(process.execPath, ['--import', pathToFileURL(tsx).href, driver], {
      stdio: 'ignore',
      env: { ...process.env, TMPDIR: privateRoot },
    });
    const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) =>
      child.once('exit', (code, signal) => resolve({ code, signal })),
    );
    // Bounded: the stand-in API server writes its helper's pid as soon as it runs.
    for (let i = 0; i < 600 && !(existsSync(helperPid) && readFileSync(helperPid, 'utf8').trim() !== ''); i++)
      await new Promise((r) => setTimeout(r, 100));
    expect(existsSync(helperPid), 'the stand-in API server never started').toBe(true);
    child.kill('SIGINT');
    expect(await exited).toEqual({ code: null, signal: 'SIGINT' });
    const gone = async (pid: number) => {
      for (let i = 0; i < 100 && processAlive(pid); i++) await new Promise((r) => setTimeout(r, 50));
      return !processAlive(pid);
    };
    expect(await gone(Number(readFileSync(helperPid, 'utf8'))), "the API server's helper survived").toBe(true);
    expect(await gone(Number(readFileSync(path.join(scratch, 'etcd-4.pid'), 'utf8'))), 'etcd survived').toBe(true);
    expect(privateFolders()).toEqual([]);
  });
});
