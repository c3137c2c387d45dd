import type { XmlElement } from './node.ts';

export const XML_PROLOG = '<?xml version="1.0" standalone="yes"?>';

/** Serialises a tree as a POX document with the contract's prolog. */
export function toXml(root: XmlElement): string {
  return XML_PROLOG + writeElement(root);
}

export function writeElement(node: XmlElement): string {
  let out = '<' + node.name;
  if (node.attrs) {
    for (const key in node.attrs) {
      const value = node.attrs[key];
      if (value === undefined || value === null) continue;
      out += ' ' + key + '="' + escapeAttr(String(value)) + '"';
    }
  }
  const hasText = node.text !== undefined && node.text !== '';
  if (!hasText && !node.children) return out + '/>';
  out += '>';
  if (hasText) out += node.cdata ? cdata(node.text!) : escapeText(node.text!);
  if (node.children) for (const child of node.children) out += writeElement(child);
  return out + '</' + node.name + '>';
}

const TEXT_RE = /[&<>]/g;
const ATTR_RE = /[&<>"]/g;
const ENTITIES: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;' };

export function escapeText(value: string): string {
  return TEXT_RE.test(value) ? value.replace(TEXT_RE, (c) => ENTITIES[c]!) : value;
}

export function escapeAttr(value: string): string {
  return ATTR_RE.test(value) ? value.replace(ATTR_RE, (c) => ENTITIES[c]!) : value;
}

function cdata(value: string): string {
  return '<![CDATA[' + value.split(']]>').join(']]]]><![CDATA[>') + ']]>';
}
