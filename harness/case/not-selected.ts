/**
 * A component of the product the run was not given (a node-agent config loader, a controller daemon,
 * beside an external API server): its checks are not checked, and every report says so in one line
 * per component, not one line per check or clause. The note of each of its records is one of these.
 */
export const NOT_SELECTED = 'not selected:';

export const LOADER_NOT_SELECTED = `${NOT_SELECTED} pass --nodeagent-loader CMD to test a node-agent config loader`;
export const DAEMON_NOT_SELECTED = `${NOT_SELECTED} pass --controller-daemon CMD to test a controller daemon`;

export function isNotSelected(note: string | undefined): boolean {
  return note !== undefined && note.startsWith(NOT_SELECTED);
}
