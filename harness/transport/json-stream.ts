/**
 * Splits a watch body into JSON documents however the bytes arrive: several documents in one chunk,
 * one document across many, with or without whitespace between them (rest:4.8 watch response).
 *
 * Hand-written on purpose: @streamparser/json builds objects by assignment and so turns a
 * `"__proto__"` key (a valid ConfigMap data key) into a prototype change. Here the scanner only
 * finds where each top-level document ends and JSON.parse builds it, own properties and all.
 */
const STRUCTURE = /["{}[\]]/g;

export class JsonDocumentStream {
  private readonly decoder = new TextDecoder('utf-8', { fatal: false });
  private buffer = '';
  /** Scan state, kept across chunks. */
  private depth = 0;
  private inString = false;
  private escaped = false;
  private scanned = 0;
  private failure: string | undefined;

  /** Feeds bytes; returns the documents completed by them. */
  push(chunk: string | Uint8Array): unknown[] {
    if (this.failure !== undefined) return [];
    this.buffer += typeof chunk === 'string' ? chunk : this.decoder.decode(chunk, { stream: true });
    const docs: unknown[] = [];
    let start = 0;
    const buffer = this.buffer;
    // Where the next backslash at or after the scan position is (-1: none left; -2: not looked up yet).
    let backslash = -2;
    for (let i = this.scanned; i < buffer.length; i++) {
      if (this.inString) {
        if (this.escaped) {
          this.escaped = false;
          continue;
        }
        // Long string values (a watch event of a large object) are skipped by indexOf, not char by
        // char: only a quote or a backslash changes the state. The next backslash is looked up again
        // only once passed (most strings have none, and each lookup may scan to the buffer's end).
        if (backslash !== -1 && backslash < i) backslash = buffer.indexOf('\\', i);
        const quote = buffer.indexOf('"', i);
        const stop = quote === -1 ? backslash : backslash === -1 ? quote : Math.min(quote, backslash);
        if (stop === -1) break;
        i = stop;
        if (stop === backslash) this.escaped = true;
        else this.inString = false;
        continue;
      }
      if (this.depth > 0) {
        // Inside a document only quotes and brackets change the state.
        STRUCTURE.lastIndex = i;
        const next = STRUCTURE.exec(buffer);
        if (next === null) break;
        i = next.index;
      }
      const ch = buffer[i]!;
      if (this.depth === 0 && /\s/.test(ch)) {
        if (i === start) start = i + 1;
        continue;
      }
      if (ch === '"') this.inString = true;
      else if (ch === '{' || ch === '[') this.depth++;
      else if (ch === '}' || ch === ']') this.depth--;
      else if (this.depth === 0) {
        this.failure = `unexpected ${JSON.stringify(ch)} between JSON documents`;
        return docs;
      }
      if (this.depth < 0) {
        this.failure = 'unbalanced brackets in the stream';
        return docs;
      }
      if (this.depth === 0) {
        try {
          docs.push(JSON.parse(buffer.slice(start, i + 1)));
        } catch (e) {
          this.failure = (e as Error).message;
          return docs;
        }
        start = i + 1;
      }
    }
    this.buffer = buffer.slice(start);
    this.scanned = this.buffer.length;
    return docs;
  }

  /** Set once the body stops being a sequence of JSON documents. */
  get error(): string | undefined {
    return this.failure;
  }

  /** Text of an unfinished document at the end of the stream, if any. */
  get pending(): string {
    return this.buffer.trim();
  }
}
