import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useEffect, useRef, useState } from 'react';
import { importKeys, importQueries, type HandedFile } from '../../queries/import.ts';
import type { ImportControls } from './useImportState.ts';

export interface HandedFileState {
  /** Why the handed file could not be read, in words. */
  problem: string | null;
  /** A file handed over while a review is open: it replaces the review only if the person says so. */
  waiting: HandedFile | null;
  replace: () => void;
  keep: () => void;
}

/**
 * A file handed over (dropped on the window, opened from the desktop menu): its problem shown at
 * once, or it is taken from the cache once and read. While a file is matched or imported it waits
 * in the cache; over an open review it asks first, so a stray drop never discards the person's
 * choices. Once means once per file, whatever runs the effect again (StrictMode runs it twice on
 * mount in a development build): the core runs one import at a time, so a second match of the
 * same file would stop the first.
 */
export function useHandedFile(controls: ImportControls): HandedFileState {
  const client = useQueryClient();
  const handed = useQuery(importQueries.handedFile()).data;
  const [problem, setProblem] = useState<string | null>(null);
  const [lastHanded, setLastHanded] = useState<HandedFile | null>(null);
  if (handed && handed !== lastHanded) {
    setLastHanded(handed);
    setProblem(handed.problem ?? null);
  }
  const taken = useRef<HandedFile | null>(null);
  const { read } = controls;
  const { phase } = controls.state;
  // Over a review the file stays in the cache until the person answers; while a run is under way, until it ends.
  const holds = phase === 'review' || phase === 'matching' || phase === 'applying';
  useEffect(() => {
    if (!handed || handed === taken.current || (holds && !handed.problem)) return;
    taken.current = handed;
    client.setQueryData(importKeys.handedFile(), null);
    if (!handed.problem) read(handed);
  }, [handed, client, read, holds]);
  // Once another file is being read, a handed file's problem is old news.
  if (phase !== 'choose' && problem !== null) setProblem(null);
  const waiting = phase === 'review' && handed && !handed.problem ? handed : null;
  const drop = () => client.setQueryData(importKeys.handedFile(), null);
  return {
    problem,
    waiting,
    replace: () => {
      drop();
      if (waiting) read(waiting);
    },
    keep: drop,
  };
}
