/**
 * `--reports DIR` of every command that writes reports: never empty (an empty path would be the
 * current folder by accident), and never a folder where the reports would replace a user's files
 * (reports/reports-ownership.ts). Both are usage errors: one line, exit 2.
 */
import { InvalidArgumentError } from '@commander-js/extra-typings';
import { ConfigError } from '../harness/transport/index.ts';
import { ownedReportFiles, ReportsDirError, writeOwnedFiles, type Claim } from '../reports/reports-ownership.ts';

export const reportsDirArg = (v: string): string => {
  if (v.trim() === '') throw new InvalidArgumentError('an empty path; give a folder (use --reports . for the current one)');
  return v;
};

export function checkOwned(dir: string, claim: Claim): void {
  try {
    ownedReportFiles(dir, claim);
  } catch (e) {
    if (e instanceof ReportsDirError) throw new ConfigError(`--reports: ${e.message}`);
    throw e;
  }
}

export function writeOwned(dir: string, claim: Claim, files: readonly (readonly [string, string])[]): void {
  try {
    writeOwnedFiles(dir, claim, files);
  } catch (e) {
    if (e instanceof ReportsDirError) throw new ConfigError(`--reports: ${e.message}`);
    throw e;
  }
}
