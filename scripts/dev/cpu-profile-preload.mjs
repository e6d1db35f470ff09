// Loaded into every node process of a profiled run (`npm run bench`: NODE_OPTIONS=--import=<this file>,
// since node 20 refuses --cpu-prof there): samples the process's JavaScript stacks, and when the process
// ends writes them with its exact CPU time (process.cpuUsage, all threads) and argv into
// $SVC_CONFORMANCE_CPU_PROFILE_DIR/<pid>.json. Plain JavaScript: it runs before any TypeScript loader.
import { Session } from 'node:inspector';
import { writeFileSync } from 'node:fs';
import path from 'node:path';

const dir = process.env['SVC_CONFORMANCE_CPU_PROFILE_DIR'];
if (dir) {
  const session = new Session();
  session.connect();
  session.post('Profiler.enable');
  // 5 ms: 200 samples per CPU-second, tens of thousands over a run, and a fifth of the
  // default's cost in processes that live half a second.
  session.post('Profiler.setSamplingInterval', { interval: 5000 });
  session.post('Profiler.start');
  let written = false;
  const write = () => {
    if (written) return;
    written = true;
    const cpuUsage = process.cpuUsage();
    // A session on the process's own thread answers synchronously, so this works in an exit handler.
    session.post('Profiler.stop', (err, r) => {
      if (err) return;
      writeFileSync(
        path.join(dir, `${process.pid}.json`),
        JSON.stringify({ pid: process.pid, ppid: process.ppid, argv: process.argv, cpuUsage, profile: r.profile }),
      );
    });
  };
  process.once('exit', write);
  // A process stopped by SIGTERM without a handler of its own never reaches 'exit': write, then let the
  // signal do what it would have done.
  process.once('SIGTERM', () => {
    write();
    if (process.listenerCount('SIGTERM') === 0) process.kill(process.pid, 'SIGTERM');
  });
}
