import { execFileSync } from 'node:child_process';

/** The headless browser the report tests render in, by the names Debian and others install it under; undefined when none is on PATH. */
export const chromium: string | undefined = ['chromium', 'chromium-browser', 'google-chrome'].find((b) => {
  try {
    execFileSync(b, ['--version'], { stdio: 'ignore' });
    return true;
  } catch {
    return false;
  }
});
