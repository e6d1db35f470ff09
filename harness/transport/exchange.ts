/**
 * One HTTP request and what came back: the unit of the transcript, of curl reproductions and of the
 * target interface. Plain data, so generators, the model and the report writers can share it without
 * importing the HTTP client.
 */
export type QueryPair = readonly [name: string, value: string | null];

/** Where the exchange of a request is recorded, in place of the run's transcript (see RECORD_TO). */
export interface ExchangeRecorder {
  record(e: Exchange): void;
}

/**
 * A request's recorder (the check that sends it: runner/run-check.ts), carried by the request itself
 * down every layer to the client, so checks running at once keep their exchanges apart without an
 * async context (AsyncLocalStorage's promise hooks cost every promise of the process, the embedded
 * server's included). A symbol: the layers' spreads keep it, JSON and the recorded request leave it out.
 */
export const RECORD_TO: unique symbol = Symbol('svc-conformance.recordTo');

export interface TargetRequest {
  readonly method: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';
  /** Path without query, already percent-encoded where needed (built by reference/resources.ts). */
  readonly path: string;
  /** Query in the order sent; `null` value is a bare flag (`?dryRun`). */
  readonly query?: readonly QueryPair[];
  readonly headers?: Readonly<Record<string, string>>;
  /** JSON body; serialised by the client. */
  readonly body?: unknown;
  /** What a binary body (protobuf) holds, as JSON: the safety guard reads labels from it. */
  readonly bodyView?: unknown;
  /** Watch and other streams: do not buffer the body to the end. Not used in this slice. */
  readonly stream?: boolean;
  /**
   * Who sends it (rest:5): absent, the run's own identity; `anonymous` no credentials at all;
   * `unknown` a bearer token nobody issued; `restricted` the credentials of `--restricted-kubeconfig`.
   * Impersonation needs none of these: it is the run's identity with Impersonate-* headers.
   */
  readonly identity?: 'anonymous' | 'unknown' | 'restricted';
  readonly [RECORD_TO]?: ExchangeRecorder;
}

/** `req` with its exchange recorded by `to` (unchanged without one). */
export const recordedBy = (req: TargetRequest, to: ExchangeRecorder | undefined): TargetRequest =>
  to === undefined ? req : { ...req, [RECORD_TO]: to };

/**
 * Headers of a request whose answer may be large (a document of megabytes, an echo of a large object):
 * a server may send it gzipped (upstream does past 128 KiB), and the client decodes it.
 */
export const ACCEPT_GZIP: Readonly<Record<string, string>> = { 'accept-encoding': 'gzip' };

export interface TargetResponse {
  readonly status: number;
  /** Header names lower-cased. */
  readonly headers: Readonly<Record<string, string>>;
  readonly bodyText: string;
  /** Parsed body when it was JSON, else undefined. */
  readonly json: unknown;
  /** The raw body, kept only for binary media types (protobuf): bodyText is lossy there. */
  readonly bodyBytes?: Uint8Array;
  /** Bytes of the body as it came, when it came compressed (content-encoding gzip); the fields above are decoded. */
  readonly wireBytes?: number;
}

export interface Exchange {
  readonly seq: number;
  readonly request: TargetRequest;
  /** Absent when the request failed at transport level. */
  readonly response?: TargetResponse;
  readonly transportError?: string;
  readonly startedAtMs: number;
  readonly durationMs: number;
  /** The request body's size as sent, when the client knew it (the footprint need not serialise it again). */
  readonly sentBodyBytes?: number;
}

/** A response whose body is read as it arrives (watch). */
export interface StreamResponse {
  readonly status: number;
  readonly headers: Readonly<Record<string, string>>;
  /** The body as it comes; ends when the server ends it or `close()` is called. */
  readonly chunks: AsyncIterable<Uint8Array>;
  /** Stops reading and records the exchange with what was received. */
  close(): void;
}

/** What every suite talks to. Implementations: the undici client (harness/transport/client.ts). */
export interface Target {
  /** Base URL, for reports (never contains credentials). */
  readonly server: string;
  send(req: TargetRequest): Promise<TargetResponse>;
  /** GET whose body is streamed (watch). Optional: a target without it cannot run watch checks. */
  openStream?(req: TargetRequest): Promise<StreamResponse>;
  close(): Promise<void>;
}

/** Transport-level failure after bounded retries: reported as *error*, never as nonconformance. */
export class InfrastructureError extends Error {
  constructor(
    message: string,
    readonly detail?: string,
  ) {
    super(message);
    this.name = 'InfrastructureError';
  }
}

export function queryToString(query: readonly QueryPair[] | undefined): string {
  if (!query || query.length === 0) return '';
  return '?' + query.map(([k, v]) => (v === null ? encodeURIComponent(k) : `${encodeURIComponent(k)}=${encodeURIComponent(v)}`)).join('&');
}
