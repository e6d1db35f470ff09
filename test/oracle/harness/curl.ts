import { execFileSync } from 'node:child_process';

/** Whether a curl binary is on PATH: the reproducer scripts the replay tests run call it. */
export const hasCurl: boolean = (() => {
  try {
    execFileSync('curl', ['--version'], { stdio: 'ignore' });
    return true;
  } catch {
    return false;
  }
})();
