// A small process that starts the run's child processes for it (harness/processes/spawner.ts). Forking copies the
// parent's page tables, so a spawn costs CPU in proportion to the spawner's memory: from the run's
// process (hundreds of MB) a daemon start cost tens of ms of CPU; from this one, about a millisecond.
// Plain JavaScript, no imports of ours: it boots in node's own time.
//
// Messages (node IPC, JSON): in ['s', id, file, args, capChars] spawn, ['k', id, signal] kill;
// out ['o', id, text] output (stdout and stderr in arrival order, each chunk decoded as it comes),
// ['e', id, message] could not start, ['c', id, code, signal] closed.
// When the run goes away (its channel closes), every child still running is killed and reaped first.
import { spawn } from 'node:child_process';

const children = new Map();

function send(msg) {
  if (process.connected) process.send(msg);
}

process.on('message', (msg) => {
  if (!Array.isArray(msg)) return;
  const [op, id] = msg;
  if (op === 's') {
    const [, , file, args, capChars] = msg;
    let forwarded = 0;
    let child;
    try {
      child = spawn(file, args, { stdio: ['ignore', 'pipe', 'pipe'] });
    } catch (e) {
      send(['e', id, e instanceof Error ? e.message : String(e)]);
      send(['c', id, 127, null]);
      return;
    }
    children.set(id, child);
    // The run keeps output up to its cap (a chunk that starts below it is kept whole): past it, nothing is read.
    const add = (b) => {
      if (forwarded >= capChars) return;
      const text = b.toString('utf8');
      forwarded += text.length;
      send(['o', id, text]);
    };
    child.stdout.on('data', add);
    child.stderr.on('data', add);
    child.once('error', (e) => send(['e', id, e.message]));
    child.once('close', (code, signal) => {
      children.delete(id);
      send(['c', id, code, signal]);
      if (!process.connected && children.size === 0) process.exit(0);
    });
  } else if (op === 'k') {
    children.get(id)?.kill(msg[2]);
  }
});

process.on('disconnect', () => {
  if (children.size === 0) process.exit(0);
  for (const c of children.values()) c.kill('SIGKILL');
});
