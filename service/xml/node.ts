/**
 * A representation is a small element tree, built once by the resource and serialised to POX, JSON
 * or Atom. Attribute values that are undefined or null are left out; so are children that are.
 */
export type Attrs = Record<string, string | number | boolean | null | undefined>;

export interface XmlElement {
  name: string;
  attrs?: Attrs;
  children?: XmlElement[];
  text?: string;
  /** Text written as CDATA in XML (synopses hold HTML). */
  cdata?: boolean;
}

type Child = XmlElement | null | undefined | false | Child[];

/** An element with attributes and children. */
export function el(name: string, attrs?: Attrs | null, ...children: Child[]): XmlElement {
  const node: XmlElement = { name };
  if (attrs) node.attrs = attrs;
  const flat = flatten(children);
  if (flat.length > 0) node.children = flat;
  return node;
}

/** An element holding only text (numbers are written in decimal). */
export function textEl(name: string, value: string | number | boolean, attrs?: Attrs): XmlElement {
  const node: XmlElement = { name, text: String(value) };
  if (attrs) node.attrs = attrs;
  return node;
}

export function cdataEl(name: string, value: string): XmlElement {
  return { name, text: value, cdata: true };
}

function flatten(children: Child[]): XmlElement[] {
  const out: XmlElement[] = [];
  for (const child of children) {
    if (!child) continue;
    if (Array.isArray(child)) out.push(...flatten(child));
    else out.push(child);
  }
  return out;
}
