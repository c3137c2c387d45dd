import { rel } from '../../shared/protocol/index.ts';
import type { Person } from '../model/person.ts';
import { el, textEl, type XmlElement } from './node.ts';
import { link, personUrl } from './links.ts';

/** A `person`: id, name, bio, and links to the filmography and the person's web page. */
export function personElement(base: string, p: Person, filmography?: XmlElement | false): XmlElement {
  const id = personUrl(base, p.id);
  return el(
    'person',
    null,
    textEl('id', id),
    textEl('name', p.name),
    textEl('bio', p.bio),
    link(`${id}/filmography`, rel.filmography, 'filmography', filmography),
    link(`${base}/web/people/${p.id}`, rel.webPage, 'web page'),
  );
}

/** A list of `person`s, after what precedes them (a search's pager). */
export function peopleElement(base: string, people: readonly Person[], before: XmlElement[] = []): XmlElement {
  return el(
    'people',
    null,
    before,
    people.map((p) => personElement(base, p)),
  );
}
