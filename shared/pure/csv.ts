/**
 * A small RFC 4180 reader for the lists people export: quoted fields with doubled quotes, commas
 * and line breaks inside quotes, CRLF / LF / CR line ends, a byte-order mark, and comma, semicolon
 * or tab as the separator (the one the first line uses most, outside quotes); and the writer of
 * one line. In shared/pure so the core's import/ and export/ rooms both use it without one
 * leaning on the other.
 */
export type CsvRow = string[];

/** Every row of `text`, each a list of fields; rows that are wholly empty are kept as `['']`. */
export function parseCsv(text: string, separator: string = separatorOf(text)): CsvRow[] {
  const rows: CsvRow[] = [];
  let row: string[] = [];
  let field = '';
  let quoted = false;
  const src = text.charCodeAt(0) === 0xfeff ? text.slice(1) : text;
  for (let i = 0; i < src.length; i++) {
    const c = src[i]!;
    if (quoted) {
      if (c !== '"') field += c;
      else if (src[i + 1] === '"') {
        field += '"';
        i++;
      } else quoted = false;
    } else if (c === '"' && field.trim() === '') {
      quoted = true;
      field = '';
    } else if (c === separator) {
      row.push(field);
      field = '';
    } else if (c === '\n' || c === '\r') {
      if (c === '\r' && src[i + 1] === '\n') i++;
      row.push(field);
      rows.push(row);
      row = [];
      field = '';
    } else {
      field += c;
    }
  }
  if (field !== '' || row.length > 0) {
    row.push(field);
    rows.push(row);
  }
  return rows;
}

/** The separator the first line uses most outside quotes: ',' (the default), ';' or a tab. */
export function separatorOf(text: string): string {
  const counts = new Map<string, number>([
    [',', 0],
    [';', 0],
    ['\t', 0],
  ]);
  let quoted = false;
  for (const c of text) {
    if (c === '"') quoted = !quoted;
    else if (!quoted && (c === '\n' || c === '\r')) break;
    else if (!quoted && counts.has(c)) counts.set(c, counts.get(c)! + 1);
  }
  const [best, n] = [...counts].sort((a, b) => b[1] - a[1])[0]!;
  return n > 0 ? best : ',';
}

/** Whether a row holds nothing but empty fields (a blank line). */
export function isBlankRow(row: CsvRow): boolean {
  return row.every((f) => f.trim() === '');
}

/** Fields to a CSV line: quoted when they hold a separator, a quote or a line break. */
export function csvLine(fields: ReadonlyArray<string | number | null>): string {
  return fields
    .map((f) => {
      const s = f === null ? '' : String(f);
      return /[",\r\n;\t]/.test(s) || s !== s.trim() ? `"${s.replace(/"/g, '""')}"` : s;
    })
    .join(',');
}
