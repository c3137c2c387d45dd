import type { FastifyReply, FastifyRequest } from 'fastify';
import type { XmlElement } from '../xml/node.ts';
import { toXml } from '../xml/xml.ts';
import { toJson } from '../xml/json.ts';
import { outputOf } from './params.ts';

export const CONTENT_TYPE = {
  xml: 'application/xml; charset=utf-8',
  json: 'application/json; charset=utf-8',
  atom: 'application/atom+xml; charset=utf-8',
} as const;

/** Atom rendering of a feed, when the resource has one (see xml/atom.ts). */
export type AtomRenderer = () => string;

/**
 * Sends a representation in the format the client asked for: POX by default, `output=json` as the
 * historical JSON mapping, Atom for feeds that provide `atom`.
 */
export function represent(req: FastifyRequest, reply: FastifyReply, root: XmlElement, atom?: AtomRenderer): FastifyReply {
  const output = outputOf(req);
  if (output === 'atom' && atom) return reply.type(CONTENT_TYPE.atom).send(atom());
  if (output === 'json') return reply.type(CONTENT_TYPE.json).send(toJson(root));
  return reply.type(CONTENT_TYPE.xml).send(toXml(root));
}
