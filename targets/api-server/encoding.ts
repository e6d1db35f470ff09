/**
 * How revisions and continue tokens look on the wire. Upstream writes revisions as decimal strings;
 * the `opaque-rv` and `opaque-continue` variations use other, equally valid, formats.
 */
import { createHash } from 'node:crypto';

export interface Codec {
  rv(rev: number): string;
  /** undefined when the text is not a revision this server could have issued. */
  parseRv(text: string): number | undefined;
  token(t: ContinueToken): string;
  parseToken(text: string): ContinueToken | undefined;
}

export interface ContinueToken {
  /** Snapshot revision of the first page. */
  readonly rev: number;
  /** Last key returned; the next page starts after it. */
  readonly after: string;
  /** When the first page was served (lifetime starts there). */
  readonly issuedAt: number;
}

const check = (n: number) => createHash('sha256').update(`rv:${n}`).digest('hex').slice(0, 4);

function isToken(v: unknown): v is ContinueToken {
  const t = v as ContinueToken;
  return typeof t === 'object' && t !== null && Number.isInteger(t.rev) && typeof t.after === 'string' && typeof t.issuedAt === 'number';
}

/** `point`: told when a varied format is chosen or not (ReferenceServerOptions.onVariationPoint). */
export function makeCodec(opts: {
  opaqueRv: boolean;
  opaqueContinue: boolean;
  point?: (v: 'opaque-rv' | 'opaque-continue') => void;
}): Codec {
  const point = opts.point ?? (() => undefined);
  return {
    rv: (rev) => (point('opaque-rv'), opts.opaqueRv ? `r${rev.toString(36)}.${check(rev)}` : String(rev)),
    parseRv: (text) => {
      point('opaque-rv');
      if (opts.opaqueRv) {
        const m = /^r([0-9a-z]+)\.([0-9a-f]{4})$/.exec(text);
        if (!m) return undefined;
        const n = parseInt(m[1]!, 36);
        return check(n) === m[2] ? n : undefined;
      }
      return /^[0-9]{1,15}$/.test(text) ? Number(text) : undefined;
    },
    token: (t) => {
      point('opaque-continue');
      const json = JSON.stringify({ rev: t.rev, after: t.after, issuedAt: t.issuedAt });
      return opts.opaqueContinue ? Buffer.from(json).toString('hex').split('').reverse().join('') : Buffer.from(json).toString('base64url');
    },
    parseToken: (text) => {
      point('opaque-continue');
      try {
        const json = opts.opaqueContinue
          ? Buffer.from(text.split('').reverse().join(''), 'hex').toString('utf8')
          : Buffer.from(text, 'base64url').toString('utf8');
        const v: unknown = JSON.parse(json);
        return isToken(v) ? v : undefined;
      } catch {
        return undefined;
      }
    },
  };
}
