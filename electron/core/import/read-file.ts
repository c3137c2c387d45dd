import type { ExportDocument, ImportFile } from '../../../shared/import-export.ts';
import { ServiceError } from '../types.ts';
import { readCsvList } from './read-csv.ts';
import { readExportDocument, readQueueAtom, readQueueXml, serviceXmlRoot } from './read-service.ts';
import { readTextList } from './read-text.ts';

/** Entries one import takes (a queue holds QUEUE_LIMIT; a ratings export may hold more). */
export const IMPORT_ENTRIES_MAX = 1000;

/**
 * Reads a list from a file's content (never its name): XML is a service's queue or its feed, JSON
 * is Marquee's export, a CSV with a title column is one of the CSV lists, anything else is a
 * plain list of titles. A file Marquee cannot use is refused in words ('invalid'), nothing changed.
 */
export function readImportFile(text: string): ImportFile {
  const body = text.replace(/^\uFEFF/, '');
  const start = body.trimStart();
  if (start === '') throw unreadable('The file is empty.');
  const file = start.startsWith('<')
    ? readXml(body)
    : start.startsWith('{')
      ? readJson(body)
      : (readCsvList(body) ?? readTextList(body));
  if (file.entries.length === 0)
    throw unreadable(`Marquee read this file as a ${file.label} but found no titles in it.`);
  if (file.entries.length > IMPORT_ENTRIES_MAX) {
    throw unreadable(
      `This file lists ${file.entries.length.toLocaleString('en')} titles; Marquee imports up to ${IMPORT_ENTRIES_MAX.toLocaleString('en')} at a time. Split it into smaller files and import each.`,
    );
  }
  return file;
}

function readXml(body: string): ImportFile {
  const root = serviceXmlRoot(body);
  try {
    if (root === 'queue') return readQueueXml(body);
    if (root === 'feed') return readQueueAtom(body);
  } catch {
    throw unreadable('This XML file looks like a queue but could not be read. Export it from the service again.');
  }
  throw unreadable(
    root === undefined
      ? 'This file starts like XML but is not well formed.'
      : `This XML file is a <${root}>, not a queue or a queue feed, which is what Marquee imports from XML.`,
  );
}

function readJson(body: string): ImportFile {
  let doc: unknown;
  try {
    doc = JSON.parse(body);
  } catch {
    throw unreadable('This file starts like JSON but is not well formed.');
  }
  if ((doc as ExportDocument | null)?.format !== 'marquee-export')
    throw unreadable('This JSON file is not a Marquee export, the one JSON list Marquee imports.');
  return readExportDocument(doc as ExportDocument);
}

function unreadable(message: string): ServiceError {
  return new ServiceError({ kind: 'invalid', message });
}
