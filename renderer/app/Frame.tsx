import type { AuthStatus } from '../../shared/models.ts';
import { useEffect, useState } from 'react';
import { useNavigation, type Screen } from '../router.ts';
import { BrowseScreen } from '../screens/Browse.tsx';
import { ExportScreen } from '../screens/export/ExportScreen.tsx';
import { ImportScreen } from '../screens/import/ImportScreen.tsx';
import { useImportEntryPoints } from '../screens/import/useImportEntryPoints.ts';
import { HistoryScreen } from '../screens/History.tsx';
import { QueueScreen } from '../screens/queue/QueueScreen.tsx';
import { RatingsScreen } from '../screens/Ratings.tsx';
import { RecommendationsScreen } from '../screens/Recommendations.tsx';
import { SearchScreen } from '../screens/Search.tsx';
import { SettingsScreen } from '../screens/Settings.tsx';
import { DetailPanel } from './DetailPanel.tsx';
import { createScrollSignal, ScrollSignalContext } from '../components/frame/scroll-signal.ts';
import { Sidebar } from '../components/frame/Sidebar.tsx';
import { StatusLine } from '../components/frame/StatusLine.tsx';
import { useShortcuts } from '../components/frame/useShortcuts.ts';
import { useAlertWatch } from '../components/frame/useAlertWatch.ts';
import { AlertsScreen } from '../screens/alerts/AlertsScreen.tsx';

/** The signed-in app: sidebar, the current screen, the detail panel when open, the status line. */
export function Frame({ auth }: { auth: AuthStatus }) {
  const { location } = useNavigation();
  const [scroll] = useState(createScrollSignal);
  useShortcuts();
  useImportEntryPoints();
  useAlertWatch();
  useWindowTitle(location.screen);
  return (
    <div className={location.panel ? 'app-frame with-panel' : 'app-frame'}>
      <Sidebar auth={auth} />
      <div className="content-column">
        <main className="content" id="content" onScroll={scroll.onScroll}>
          <ScrollSignalContext.Provider value={scroll}>
            <CurrentScreen screen={location.screen} />
          </ScrollSignalContext.Provider>
        </main>
        <StatusLine />
      </div>
      {location.panel && <DetailPanel panel={location.panel} />}
    </div>
  );
}

function CurrentScreen({ screen }: { screen: Screen }) {
  switch (screen.name) {
    case 'browse':
      return <BrowseScreen />;
    case 'search':
      return <SearchScreen />;
    case 'queue':
      return <QueueScreen key={screen.kind} kind={screen.kind} />;
    case 'ratings':
      return <RatingsScreen />;
    case 'recommendations':
      return <RecommendationsScreen />;
    case 'history':
      return <HistoryScreen />;
    case 'alerts':
      return <AlertsScreen />;
    case 'settings':
      return <SettingsScreen />;
    case 'import':
      return <ImportScreen kind={screen.kind} />;
    case 'export':
      return <ExportScreen what={screen.what} />;
  }
}

const SCREEN_NAMES: Record<Screen['name'], string> = {
  browse: 'Browse',
  search: 'Search',
  queue: 'Queue',
  ratings: 'Ratings',
  recommendations: 'Recommendations',
  history: 'History',
  alerts: 'Alerts',
  settings: 'Settings',
  import: 'Import',
  export: 'Export',
};

/** The window's title names the screen ("Instant queue — Marquee"), for the task switcher and screen readers. */
function useWindowTitle(screen: Screen): void {
  const name =
    screen.name === 'queue' ? (screen.kind === 'instant' ? 'Instant queue' : 'Disc queue') : SCREEN_NAMES[screen.name];
  useEffect(() => {
    document.title = `${name} — Marquee`;
  }, [name]);
}
