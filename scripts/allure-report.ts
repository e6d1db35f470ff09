/**
 * `npm run report [-- DIR]`: renders DIR/allure-results (default results/) into DIR/allure-report with
 * the allure 3 package from npm: offline, no Java. The HTML report of `run` needs none of this.
 *
 * One self-contained index.html (the awesome plugin's singleFile): the multi-file report loads its data
 * with fetch, which browsers refuse for file:// pages, so opened from disk it only spun. Our own
 * config file is passed so an allurerc in the caller's folder does not change the output.
 */
import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { packageRoot } from './dist-state.mjs';

const dir = path.resolve(process.argv[2] ?? 'results');
const results = path.join(dir, 'allure-results');
if (!existsSync(results)) {
  process.stderr.write(
    `svc-conformance report: ${results}: no Allure results (run \`npm start\` or \`svc-conformance run --reports ${dir}\` first)\n`,
  );
  process.exit(2);
}
const bin = path.join(packageRoot, 'node_modules', '.bin', 'allure');
const output = path.join(dir, 'allure-report');
const configDir = mkdtempSync(path.join(tmpdir(), 'svc-allure-'));
const config = path.join(configDir, 'allurerc.json');
writeFileSync(
  config,
  JSON.stringify({ name: 'svc-conformance', plugins: { awesome: { options: { singleFile: true, reportName: 'svc-conformance' } } } }),
);
// A report left from an earlier render (multi-file) would sit beside the new single file; a folder of
// that name this command did not render (its index.html names the report) is the user's, and kept.
if (existsSync(output) && !renderedHere(output)) {
  process.stderr.write(
    `svc-conformance report: ${output} exists and is not a report this command rendered; move it away or render elsewhere (nothing was deleted)\n`,
  );
  process.exit(2);
}
rmSync(output, { recursive: true, force: true });
const r = spawnSync(bin, ['generate', results, '--config', config, '--output', output], { stdio: 'inherit' });
rmSync(configDir, { recursive: true, force: true });
if (r.error) {
  process.stderr.write(`svc-conformance report: cannot start allure (${r.error.message}); run \`npm ci\` first\n`);
  process.exit(2);
}
process.stdout.write(`Allure report (one file, opens from disk): ${path.join(output, 'index.html')}\n`);
process.exit(r.status ?? 1);

/** An earlier render (its page names the report), or only empty folders: nothing of the user's to lose. */
function renderedHere(folder: string): boolean {
  try {
    return readFileSync(path.join(folder, 'index.html'), 'utf8').includes('svc-conformance');
  } catch {
    return holdsNoFile(folder);
  }
}

function holdsNoFile(p: string): boolean {
  return statSync(p).isDirectory() && readdirSync(p).every((name) => holdsNoFile(path.join(p, name)));
}
