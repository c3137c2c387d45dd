import { useMutation } from '@tanstack/react-query';
import type { ExportFile, ExportFormat, ExportResult, ExportWhat } from '../../shared/import-export.ts';
import { call } from './call.ts';

/**
 * An export: the core writes the file; the desktop app saves it through its save dialog, the web
 * host hands it back and the browser downloads it here (a Blob behind a link with `download`).
 */
export function useExport() {
  return useMutation({
    mutationFn: async (input: { what: ExportWhat; format: ExportFormat }): Promise<ExportResult> => {
      const result = await call('export.save', input);
      if (result.delivery === 'download' && result.file) download(result.file);
      return result;
    },
  });
}

/** Hands a file to the browser's downloads. */
function download(file: ExportFile): void {
  const url = URL.createObjectURL(new Blob([file.content], { type: `${file.mediaType};charset=utf-8` }));
  const link = document.createElement('a');
  link.href = url;
  link.download = file.fileName;
  link.hidden = true;
  document.body.append(link);
  link.click();
  link.remove();
  // The download has started from the link; the object URL is no longer needed after this turn.
  setTimeout(() => URL.revokeObjectURL(url), 1000);
}
