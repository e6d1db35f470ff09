/**
 * Field paths the structured-merge-diff way (rest:2.6 fieldsV1, rest:4.7.7): a path is a list of
 * path elements, each kept in its serialized form so a path is plain, comparable data:
 *   `f:<name>`    a field of a struct or an entry of a map
 *   `k:<json>`    an item of a list of type map, by its key fields (names sorted): `k:{"name":"a"}`
 *   `v:<json>`    an item of a list of type set, by its value: `v:"x"`, `v:3`
 *   `i:<n>`       an item by index (read from other servers' encodings; this model never makes one)
 * The empty path is the object itself.
 */
export type PathElement = string;
export type Path = readonly PathElement[];

export const fieldElement = (name: string): PathElement => `f:${name}`;
export const valueElement = (v: unknown): PathElement => `v:${JSON.stringify(v)}`;
export const indexElement = (i: number): PathElement => `i:${i}`;

/** Key fields are written in name order, whatever order the schema lists them in (as upstream). */
export function keyElement(fields: Readonly<Record<string, unknown>>): PathElement {
  const names = Object.keys(fields).sort();
  return `k:{${names.map((n) => `${JSON.stringify(n)}:${JSON.stringify(fields[n])}`).join(',')}}`;
}

/** True when the string is a well-formed path element (used when decoding a target's fieldsV1). */
export function isPathElement(s: string): boolean {
  if (s.startsWith('f:')) return true;
  if (s.startsWith('i:')) return /^i:(0|[1-9][0-9]*)$/.test(s);
  if (s.startsWith('k:') || s.startsWith('v:')) {
    try {
      const v: unknown = JSON.parse(s.slice(2));
      return s.startsWith('v:') || (typeof v === 'object' && v !== null && !Array.isArray(v));
    } catch {
      return false;
    }
  }
  return false;
}

/** Readable form for reports: `.spec.ports[k:{"port":80}].name`. */
export function showPath(p: Path): string {
  if (p.length === 0) return '<object>';
  return p.map((e) => (e.startsWith('f:') ? `.${e.slice(2)}` : `[${e}]`)).join('');
}

/** The flat key of a path inside a set (JSON of the element list: unambiguous for any name). */
export const pathKey = (p: Path): string => JSON.stringify(p);
export const pathOfKey = (k: string): Path => JSON.parse(k) as string[];
