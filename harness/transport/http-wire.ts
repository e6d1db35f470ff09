/**
 * Bodies and headers as the client (client.ts) puts them on the wire and reads them back: a request
 * body serialised, header names in lower case, an answer's JSON parsed when its type says JSON.
 */
import type { Dispatcher } from 'undici';
import { gunzipSync } from 'node:zlib';
import type { TargetResponse } from './exchange.ts';

/** Response headers with lower-case names and repeated values joined, as TargetResponse carries them. */
export function flattenHeaders(
  headers: Dispatcher.ResponseData['headers'] | Record<string, string | string[] | undefined>,
): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [name, value] of Object.entries(headers)) {
    if (value !== undefined) out[name.toLowerCase()] = Array.isArray(value) ? value.join(', ') : value;
  }
  return out;
}

export function serialiseBody(body: unknown): string | Uint8Array | undefined {
  if (body === undefined) return undefined;
  // Raw bodies let suites send YAML apply patches and deliberately malformed JSON.
  if (typeof body === 'string' || body instanceof Uint8Array) return body;
  return JSON.stringify(body);
}

export function parseJsonBody(contentType: string | undefined, text: string): unknown {
  const looksJson = contentType === undefined ? /^\s*[[{]/.test(text) : /[/+]json\b/i.test(contentType);
  if (!looksJson || text.trim() === '') return undefined;
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return undefined;
  }
}

export function lowerCaseKeys(h: Readonly<Record<string, string>>): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [k, v] of Object.entries(h)) out[k.toLowerCase()] = v;
  return out;
}

/** An answer as TargetResponse carries it: text, JSON when it is JSON, bytes when it is binary. */
export function responseOf(status: number, responseHeaders: Record<string, string>, wire: Buffer): TargetResponse {
  // Only a request that asked for gzip (accept-encoding) gets it: a check that reads a document of
  // megabytes (/metrics, /openapi/v2) asks, and judges the decoded body.
  const gzipped = /^\s*gzip\s*$/i.test(responseHeaders['content-encoding'] ?? '');
  const bytes = gzipped ? gunzipOrSame(wire) : wire;
  const bodyText = bytes.toString('utf8');
  const binary = /protobuf|octet-stream/i.test(responseHeaders['content-type'] ?? '');
  return {
    status,
    headers: responseHeaders,
    bodyText,
    json: parseJsonBody(responseHeaders['content-type'], bodyText),
    bodyBytes: binary ? new Uint8Array(bytes) : undefined,
    wireBytes: gzipped ? wire.byteLength : undefined,
  };
}

/** A body that says gzip and is not: kept as it came, so the check judges what the target sent. */
function gunzipOrSame(wire: Buffer): Buffer {
  try {
    return gunzipSync(wire);
  } catch {
    return wire;
  }
}
