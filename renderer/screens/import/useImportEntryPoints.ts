import { useQueryClient } from '@tanstack/react-query';
import { useEffect } from 'react';
import { api } from '../../api.ts';
import { importKeys, type HandedFile } from '../../queries/import.ts';
import { useNavigation } from '../../router.ts';
import { readChosenFile } from './FileChooser.tsx';

/**
 * The ways into Import and Export besides the Queue screen's buttons: a file dropped anywhere on
 * the window, and the desktop app's File menu (Import… opens a file, Export…), which main sends as
 * 'app.command'. A file is handed to the Import screen through the query cache.
 */
export function useImportEntryPoints(): void {
  const client = useQueryClient();
  const nav = useNavigation();
  useEffect(() => {
    const hand = (file: HandedFile) => {
      client.setQueryData(importKeys.handedFile(), file);
      nav.go({ name: 'import' });
    };
    const carriesFiles = (e: DragEvent) => [...(e.dataTransfer?.types ?? [])].includes('Files');
    const onDragOver = (e: DragEvent) => {
      if (!carriesFiles(e)) return;
      e.preventDefault(); // without it the browser (or Electron) would open the file instead
      if (e.dataTransfer) e.dataTransfer.dropEffect = 'copy';
    };
    const onDrop = (e: DragEvent) => {
      if (!carriesFiles(e)) return;
      e.preventDefault();
      const file = e.dataTransfer?.files[0];
      if (!file) return;
      void readChosenFile(file).then((read) =>
        hand(typeof read === 'string' ? { name: file.name, text: '', problem: read } : read),
      );
    };
    window.addEventListener('dragover', onDragOver);
    window.addEventListener('drop', onDrop);
    const off = api.on('app.command', ({ command, file }) => {
      if (command === 'import' && file) hand(file);
      else if (command === 'import' || command === 'export') nav.go({ name: command });
    });
    return () => {
      window.removeEventListener('dragover', onDragOver);
      window.removeEventListener('drop', onDrop);
      off();
    };
  }, [client, nav]);
}
