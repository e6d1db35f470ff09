/**
 * `npm run report [-- DIR]`: renders DIR/allure-results (default results/) into DIR/allure-report with
 * the allure 3 package from npm: offline, no Java. The HTML report of `run` needs none of this.
 */
import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import path from 'node:path';
import { packageRoot } from './dist-state.mjs';

const dir = path.resolve(process.argv[2] ?? 'results');
const results = path.join(dir, 'allure-results');
if (!existsSync(results)) {
  process.stderr.write(`svc-conformance report: ${results}: no Allure results (run \`npm start\` or \`svc-conformance run --reports ${dir}\` first)\n`);
  process.exit(2);
}
const bin = path.join(packageRoot, 'node_modules', '.bin', 'allure');
const r = spawnSync(bin, ['generate', results, '--output', path.join(dir, 'allure-report'), '--report-name', 'svc-conformance'], { stdio: 'inherit' });
if (r.error) {
  process.stderr.write(`svc-conformance report: cannot start allure (${r.error.message}); run \`npm ci\` first\n`);
  process.exit(2);
}
process.stdout.write(`Allure report: ${path.join(dir, 'allure-report', 'index.html')}\n`);
process.exit(r.status ?? 1);
