import { useState } from 'react';
import type { ExportFormat, ExportWhat } from '../../../shared/import-export.ts';
import { ErrorMessage } from '../../components/ErrorMessage.tsx';
import { appErrorOf } from '../../queries/call.ts';
import { useExport } from '../../queries/export.ts';
import '../../styles/import.css';
import { ScreenFrame } from '../../components/ScreenFrame.tsx';

const WHATS: Array<{ what: ExportWhat; label: string }> = [
  { what: 'instant', label: 'Instant queue' },
  { what: 'disc', label: 'Disc queue' },
  { what: 'ratings', label: 'Ratings' },
  { what: 'history', label: 'History' },
  { what: 'all', label: 'Everything' },
];

const FORMATS: Array<{ format: ExportFormat; label: string; hint: string }> = [
  {
    format: 'csv',
    label: 'CSV for Letterboxd',
    hint: 'Title, Year, Rating, WatchedDate: Letterboxd’s import reads it, and so does any spreadsheet.',
  },
  {
    format: 'json',
    label: 'Marquee JSON',
    hint: 'Everything Marquee knows about each title, to import here again or keep.',
  },
  {
    format: 'atom',
    label: 'Atom feed',
    hint: 'The service’s own feed of a queue, as feed readers and the historical service know it.',
  },
];

/** Which formats fit what is exported: a feed holds a queue; everything at once is JSON. */
function fits(what: ExportWhat, format: ExportFormat): boolean {
  if (format === 'atom') return what === 'instant' || what === 'disc';
  if (what === 'all') return format === 'json';
  return true;
}

/**
 * Export: a queue, the ratings, the history or everything, as CSV for Letterboxd, Marquee's JSON
 * or (a queue) the service's Atom feed. The desktop app asks where to save it; in a browser it
 * downloads.
 */
export function ExportScreen({ what: initial }: { what?: ExportWhat | undefined }) {
  const [what, setWhat] = useState<ExportWhat>(initial ?? 'instant');
  const [format, setFormat] = useState<ExportFormat>('csv');
  const exporting = useExport();
  const chosenFormat = fits(what, format) ? format : what === 'all' ? 'json' : 'csv';
  const result = exporting.data;
  return (
    <ScreenFrame
      title="Export"
      className="export-screen"
      lede="Take your lists with you: a file you can keep, import into Letterboxd, or bring back into Marquee."
    >
      <form
        className="export-form"
        onSubmit={(e) => {
          e.preventDefault();
          exporting.mutate({ what, format: chosenFormat });
        }}
      >
        <fieldset className="import-radios">
          <legend className="field-label">What</legend>
          {WHATS.map((w) => (
            <label key={w.what}>
              <input type="radio" name="export-what" checked={what === w.what} onChange={() => setWhat(w.what)} />
              {w.label}
            </label>
          ))}
        </fieldset>
        <fieldset className="import-radios stacked">
          <legend className="field-label">Format</legend>
          {FORMATS.map((f) => (
            <div key={f.format} className="export-format">
              <label className={fits(what, f.format) ? undefined : 'disabled'}>
                <input
                  type="radio"
                  name="export-format"
                  checked={chosenFormat === f.format}
                  disabled={!fits(what, f.format)}
                  onChange={() => setFormat(f.format)}
                  aria-describedby={`export-hint-${f.format}`}
                />
                {f.label}
              </label>
              <span id={`export-hint-${f.format}`} className="field-hint">
                {f.hint}
              </span>
            </div>
          ))}
        </fieldset>
        <div className="import-actions">
          <button type="submit" className="button primary" disabled={exporting.isPending}>
            {exporting.isPending ? 'Exporting…' : 'Export'}
          </button>
        </div>
      </form>
      {exporting.error && <ErrorMessage error={appErrorOf(exporting.error)} compact />}
      <p className="import-plan" role="status">
        {result &&
          result.delivery === 'saved' &&
          `Saved ${result.fileName} (${result.count} ${result.count === 1 ? 'item' : 'items'}).`}
        {result &&
          result.delivery === 'download' &&
          `Downloaded ${result.fileName} (${result.count} ${result.count === 1 ? 'item' : 'items'}).`}
        {result && result.delivery === 'cancelled' && 'Nothing was saved.'}
      </p>
    </ScreenFrame>
  );
}
