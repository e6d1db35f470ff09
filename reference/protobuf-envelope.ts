/**
 * rest:2.7 protobuf envelope: the 4-byte magic prefix and the `Unknown` message around a serialized
 * object. The types are declared here (no npm package ships the upstream .proto files).
 *
 *   encodeEnvelope({ typeMeta: { apiVersion: 'v1', kind: 'ConfigMap' }, raw, contentEncoding: '', contentType: '' })
 *     -> 6b 38 73 00 | 0a 13 0a 02 76 31 12 09 ... (field 1 typeMeta, field 2 raw, ...)
 *
 * What the suite checks is the envelope, the typeMeta and the round trip. The inner schema of `raw`
 * (each kind's own protobuf message) is not shown by the spec (rest:4.1 "Request and response
 * schemas ... not shown"), so raw is treated as opaque bytes here.
 */
import protobuf from 'protobufjs';
import { fail, pass, rule, unspecified, type Judgement } from './judgement.ts';

export const MAGIC = Uint8Array.of(0x6b, 0x38, 0x73, 0x00);

// Parsed on first use, not when the module is imported (the CLI's start-up).
let unknownType: protobuf.Type | undefined;
const unknownMessageType = (): protobuf.Type =>
  (unknownType ??= protobuf
    .parse(
      `
syntax = "proto2";
package envelope;
message TypeMeta { optional string apiVersion = 1; optional string kind = 2; }
message Unknown {
  optional TypeMeta typeMeta = 1;
  optional bytes raw = 2;
  optional string contentEncoding = 3;
  optional string contentType = 4;
}
`,
      { keepCase: true },
    )
    .root.lookupType('envelope.Unknown'));

export interface Envelope {
  readonly typeMeta: { readonly apiVersion: string; readonly kind: string };
  readonly raw: Uint8Array;
  /** '' means no encoding (rest:2.7.2). */
  readonly contentEncoding: string;
  /** '' means the protobuf media type (rest:2.7.2). */
  readonly contentType: string;
}

export function hasMagic(bytes: Uint8Array): boolean {
  return bytes.length >= MAGIC.length && MAGIC.every((b, i) => bytes[i] === b);
}

/** Prefix + Unknown. Empty strings are omitted, as protobufjs does; Go writes them: both decode. */
export function encodeEnvelope(e: Envelope, opts: { writeEmptyStrings?: boolean } = {}): Uint8Array {
  const msg: Record<string, unknown> = { typeMeta: { apiVersion: e.typeMeta.apiVersion, kind: e.typeMeta.kind }, raw: e.raw };
  if (e.contentEncoding !== '' || opts.writeEmptyStrings) msg['contentEncoding'] = e.contentEncoding;
  if (e.contentType !== '' || opts.writeEmptyStrings) msg['contentType'] = e.contentType;
  const type = unknownMessageType();
  const body = type.encode(type.fromObject(msg)).finish();
  const out = new Uint8Array(MAGIC.length + body.length);
  out.set(MAGIC, 0);
  out.set(body, MAGIC.length);
  return out;
}

export type Decoded =
  | { readonly ok: true; readonly envelope: Envelope }
  | { readonly ok: false; readonly clause: 'rest:2.7.1' | 'rest:2.7.2'; readonly why: string };

export function decodeEnvelope(bytes: Uint8Array): Decoded {
  if (!hasMagic(bytes))
    return { ok: false, clause: 'rest:2.7.1', why: `the body starts with ${hex(bytes.subarray(0, 4))}, not 6b 38 73 00` };
  try {
    const type = unknownMessageType();
    const m = type.toObject(type.decode(bytes.subarray(MAGIC.length)), { defaults: true, bytes: Array }) as {
      typeMeta?: { apiVersion?: string; kind?: string };
      raw: number[];
      contentEncoding: string;
      contentType: string;
    };
    return {
      ok: true,
      envelope: {
        typeMeta: { apiVersion: m.typeMeta?.apiVersion ?? '', kind: m.typeMeta?.kind ?? '' },
        raw: Uint8Array.from(m.raw),
        contentEncoding: m.contentEncoding,
        contentType: m.contentType,
      },
    };
  } catch (e) {
    return { ok: false, clause: 'rest:2.7.2', why: `the bytes after the prefix are not an Unknown message: ${(e as Error).message}` };
  }
}

export function hex(b: Uint8Array): string {
  return [...b].map((x) => x.toString(16).padStart(2, '0')).join(' ');
}

/**
 * rest:2.7.1 and rest:2.7.2 on a protobuf body: the prefix, an Unknown message whose typeMeta names
 * the expected kind and raw bytes present (other encodings or inner types are recorded).
 */
export function judgeEnvelope(
  bytes: Uint8Array,
  want: { apiVersion: string; kind: string; protobufMediaType: string },
): { judgements: Judgement[]; envelope?: Envelope } {
  const d = decodeEnvelope(bytes);
  if (!d.ok) {
    const js = [
      rule(d.clause, false, d.clause === 'rest:2.7.1' ? 'the magic prefix 6b 38 73 00' : 'an Unknown message after the prefix', d.why),
    ];
    if (d.clause === 'rest:2.7.1') js.push(fail('rest:8/protobuf-prefix', 'a 4-byte magic prefix', d.why));
    return { judgements: js };
  }
  const e = d.envelope;
  const ct = e.contentType === '' || e.contentType === want.protobufMediaType;
  return {
    envelope: e,
    judgements: [
      rule('rest:2.7.1', true, 'the magic prefix 6b 38 73 00', 'present'),
      pass('rest:8/protobuf-prefix', 'a 4-byte magic prefix'),
      rule(
        'rest:2.7.2',
        e.typeMeta.apiVersion === want.apiVersion && e.typeMeta.kind === want.kind,
        `typeMeta ${want.apiVersion} ${want.kind}`,
        `typeMeta ${JSON.stringify(e.typeMeta)}`,
      ),
      rule('rest:2.7.2', e.raw.length > 0, 'raw holds the serialized object', `${e.raw.length} raw bytes`),
      // Other encodings or inner types are not forbidden, only undescribed: recorded.
      ...(e.contentEncoding === '' && ct
        ? []
        : [
            unspecified(
              'rest:2.7.2',
              `contentEncoding absent, contentType absent or ${want.protobufMediaType}`,
              `contentEncoding ${JSON.stringify(e.contentEncoding)}, contentType ${JSON.stringify(e.contentType)}`,
            ),
          ]),
    ],
  };
}
