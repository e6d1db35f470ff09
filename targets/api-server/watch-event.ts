/** One event of a watch stream as the server writes it (watch.ts) and frames it for Table clients (watch-table.ts). */
export interface WatchEvent {
  readonly type: string;
  readonly object: unknown;
}
