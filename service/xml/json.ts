import type { XmlElement } from './node.ts';

/**
 * The historical `output=json` mapping (CONTRACT.md §1): the root element is the single top-level
 * key; attributes become keys; text becomes a string; repeated children become an array, a single
 * child stays an object; an element with attributes (or children) and text puts the text under
 * `content`.
 */
export function toJson(root: XmlElement): string {
  return JSON.stringify({ [root.name]: toJsonValue(root) });
}

export type JsonValue = string | { [key: string]: JsonValue | JsonValue[] };

/** The JSON value of one element without its name (also used to stream list members). */
export function toJsonValue(node: XmlElement): JsonValue {
  const hasAttrs = node.attrs !== undefined && Object.values(node.attrs).some((v) => v !== undefined && v !== null);
  if (!hasAttrs && !node.children) return node.text ?? '';
  const obj: { [key: string]: JsonValue | JsonValue[] } = {};
  if (node.attrs) {
    for (const key in node.attrs) {
      const value = node.attrs[key];
      if (value !== undefined && value !== null) obj[key] = String(value);
    }
  }
  if (node.children) {
    const counts = new Map<string, number>();
    for (const child of node.children) counts.set(child.name, (counts.get(child.name) ?? 0) + 1);
    for (const child of node.children) {
      const value = toJsonValue(child);
      if (counts.get(child.name)! === 1) obj[child.name] = value;
      else ((obj[child.name] ??= []) as JsonValue[]).push(value);
    }
  }
  if (node.text !== undefined && node.text !== '') obj.content = node.text;
  return obj;
}
