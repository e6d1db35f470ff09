/** How test:upstream speaks: progress lines on stdout, one-line errors on stderr, and its exit codes. */
export const EXIT = { ok: 0, failed: 1, usage: 2, startFailed: 3 } as const;
export const say = (line: string) => process.stdout.write(`${line}\n`);
export const fail = (line: string) => process.stderr.write(`test:upstream: ${line}\n`);
