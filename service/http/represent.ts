import type { FastifyReply, FastifyRequest } from 'fastify';
import type { XmlElement } from '../xml/node.ts';
import { toXml } from '../xml/xml.ts';
import { toJson } from '../xml/json.ts';
import { outputOf } from './params.ts';
import { keepRendered } from './represent-cache.ts';

export const CONTENT_TYPE = {
  xml: 'application/xml; charset=utf-8',
  json: 'application/json; charset=utf-8',
  atom: 'application/atom+xml; charset=utf-8',
} as const;

/** Atom rendering of a feed, when the resource has one (see xml/atom.ts). */
export type AtomRenderer = () => string;

/**
 * Sends a representation in the format the client asked for: POX by default, `output=json` as the
 * historical JSON mapping, Atom for feeds that provide `atom`. A catalog resource wrapped in
 * `cachedCatalog` keeps the bytes (represent-cache.ts).
 */
export function represent(
  req: FastifyRequest,
  reply: FastifyReply,
  root: XmlElement,
  atom?: AtomRenderer,
): FastifyReply {
  const { type, body } = render(req, root, atom);
  return keepRendered(reply, type, body) ?? reply.type(type).send(body);
}

/** The body and its content type, without sending it. */
export function render(req: FastifyRequest, root: XmlElement, atom?: AtomRenderer): { type: string; body: string } {
  const output = outputOf(req);
  if (output === 'atom' && atom) return { type: CONTENT_TYPE.atom, body: atom() };
  if (output === 'json') return { type: CONTENT_TYPE.json, body: toJson(root) };
  return { type: CONTENT_TYPE.xml, body: toXml(root) };
}
