/**
 * Escaping for the markup formatters. Target-supplied strings (observed bodies, header values) reach
 * the reports verbatim, so every one of them is hostile until escaped.
 */

// XML 1.0 cannot carry these at all, not even as character references; HTML renders them as junk.
// Lone surrogates are included: they make the file invalid UTF-8 once written.
const INVALID_CHARS =
  /[\u0000-\u0008\u000B\u000C\u000E-\u001F\u007F\uFFFE\uFFFF]|[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/g;

/** Control characters shown as `\u0001`, so a reader still sees that the target sent one. */
export function visibleControls(s: string): string {
  return s.replace(INVALID_CHARS, (ch) => `\\u${ch.charCodeAt(0).toString(16).padStart(4, '0')}`);
}

/** Element content. Escaping `>` too means `]]>` can never appear. */
export function xmlText(s: string): string {
  return visibleControls(s).replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
}

/** Attribute values: also quotes, and whitespace as references so parsers do not normalise it away. */
export function xmlAttr(s: string): string {
  return xmlText(s).replace(/"/g, '&quot;').replace(/'/g, '&apos;').replace(/\n/g, '&#10;').replace(/\r/g, '&#13;').replace(/\t/g, '&#9;');
}

/** Safe in HTML text and in quoted attribute values alike. */
export function html(s: string): string {
  return visibleControls(s)
    .replace(/&/g, '&amp;')
    .replace(/</g, '&lt;')
    .replace(/>/g, '&gt;')
    .replace(/"/g, '&quot;')
    .replace(/'/g, '&#39;');
}
