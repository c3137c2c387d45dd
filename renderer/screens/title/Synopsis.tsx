import type { ReactNode } from 'react';
import type { Ref } from '../../../shared/models.ts';
import { useNavigation } from '../../router.ts';

/** A piece of a sanitised synopsis: text, or a link to a person by ref. */
export type SynopsisPart = { text: string } | { person: Ref };

/**
 * The service's synopsis HTML reduced to text and person links: parsed inert (DOMParser runs no
 * script and loads nothing), then only text nodes and `<a href>` to a person are kept. A link is a
 * person's when its address is one of the title's people or lies on the service's own origin;
 * any other element gives only its text.
 */
export function sanitiseSynopsis(html: string, people: readonly Ref[], serviceOrigin: string): SynopsisPart[] {
  const doc = new DOMParser().parseFromString(html, 'text/html');
  const known = new Set(people.map((p) => p.ref));
  const parts: SynopsisPart[] = [];
  const pushText = (text: string) => {
    const last = parts[parts.length - 1];
    if (last && 'text' in last) last.text += text;
    else if (text) parts.push({ text });
  };
  const walk = (node: Node) => {
    for (const child of Array.from(node.childNodes)) {
      if (child.nodeType === Node.TEXT_NODE) pushText(child.textContent ?? '');
      else if (
        child instanceof Element &&
        child.tagName === 'A' &&
        isPersonLink(child.getAttribute('href'), known, serviceOrigin)
      ) {
        parts.push({ person: { ref: child.getAttribute('href')!, name: child.textContent ?? '' } });
      } else if (child instanceof Element && !['SCRIPT', 'STYLE', 'TEMPLATE'].includes(child.tagName)) walk(child);
    }
  };
  walk(doc.body);
  return parts;
}

function isPersonLink(href: string | null, known: ReadonlySet<string>, serviceOrigin: string): boolean {
  if (!href) return false;
  if (known.has(href)) return true;
  try {
    const url = new URL(href);
    return (url.protocol === 'http:' || url.protocol === 'https:') && url.origin === serviceOrigin;
  } catch {
    return false;
  }
}

/** The synopsis as text with person links that open the person in the app. */
export function Synopsis({ html, people, titleRef }: { html: string; people: readonly Ref[]; titleRef: string }) {
  const nav = useNavigation();
  let origin = '';
  try {
    origin = new URL(titleRef).origin;
  } catch {
    // a ref that is no URL: only the title's own people become links
  }
  const parts = sanitiseSynopsis(html, people, origin);
  if (!parts.length) return null;
  const nodes: ReactNode[] = parts.map((part, i) =>
    'text' in part ? (
      part.text
    ) : (
      <button key={i} type="button" className="link-button inline" onClick={() => nav.openPerson(part.person.ref)}>
        {part.person.name}
      </button>
    ),
  );
  return <p className="synopsis">{nodes}</p>;
}
