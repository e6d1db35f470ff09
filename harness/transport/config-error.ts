/** The one error of a usage or configuration problem, for every part of the suite that reads one. */
/** Usage or configuration problem (exit code 2). The message is one line, fit to print as is. */
export class ConfigError extends Error {
  constructor(message: string) {
    super(message.split('\n', 1)[0] ?? message);
    this.name = 'ConfigError';
  }
}
