import { QueryClientProvider, type QueryClient } from '@tanstack/react-query';
import { createElement, type ReactElement } from 'react';

/**
 * The instant queue's Import screen inside what the app's frame gives it (the query cache, the
 * queue's history, navigation). Its modules are imported when called, so a file that mocks the
 * api and resets its modules first gets them against its own api.
 */
export async function importScreenOf(client: QueryClient): Promise<() => ReactElement> {
  const { ImportScreen } = await import('../../renderer/screens/import/ImportScreen.tsx');
  const { NavigationProvider } = await import('../../renderer/components/frame/NavigationProvider.tsx');
  const { QueueHistoryProvider } = await import('../../renderer/queries/queue-history.ts');
  return () =>
    createElement(
      QueryClientProvider,
      { client },
      createElement(
        QueueHistoryProvider,
        null,
        createElement(NavigationProvider, null, createElement(ImportScreen, { kind: 'instant' })),
      ),
    );
}
