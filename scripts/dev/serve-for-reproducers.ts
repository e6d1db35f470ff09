/**
 * `tsx scripts/dev/serve-for-reproducers.ts [FAULT]`: an embedded server as the reproducer measurement
 * starts it (scripts/dev/reproducer-outcomes.ts), kept running; prints `SERVER=... TOKEN=...` to run a
 * kept reproducer against by hand.
 */
import { faults, type Fault } from '../../targets/api-server/faults.ts';
import { serveForReproducers } from './reproducer-outcomes.ts';

const name = process.argv[2];
const f = faults.find((x) => x.name === name) as Fault | undefined;
if (name !== undefined && f === undefined) {
  process.stderr.write(`no planted fault ${name}\n`);
  process.exit(2);
}
const s = await serveForReproducers(
  f ?? ({ name: 'none', clause: 'rest:2.2.1', description: '', checks: [], alsoReportedAs: [] } as Fault),
  f !== undefined,
);
process.stdout.write(`SERVER=${s.server.url} TOKEN=${s.token}\n`);
// The server's socket does not keep the process alive on its own.
setInterval(() => undefined, 1 << 30);
