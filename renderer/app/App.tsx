import { QueryClientProvider, useQuery, useQueryClient, type QueryClient } from '@tanstack/react-query';
import { useEffect } from 'react';
import { api } from '../api.ts';
import { ErrorMessage } from '../components/ErrorMessage.tsx';
import { ArtPacerProvider } from '../components/frame/art-pacer.ts';
import { Frame } from './Frame.tsx';
import { NavigationProvider } from '../components/frame/NavigationProvider.tsx';
import { Loading, SkeletonLines } from '../components/Skeleton.tsx';
import { appErrorOf } from '../queries/call.ts';
import { accountOf, authQueries } from '../queries/auth.ts';
import { connectEvents } from '../queries/events.ts';
import { applyTheme, preferenceQueries } from '../queries/preferences.ts';
import { QueueHistoryProvider } from '../queries/queue-history.ts';
import { SignInScreen } from '../screens/SignIn.tsx';

/** The app: one query cache (made by main.tsx) fed by the core's events, the theme, and sign-in before the frame. */
export function App({ client }: { client: QueryClient }) {
  useEffect(() => connectEvents(api, client), [client]);
  return (
    <QueryClientProvider client={client}>
      <Theme />
      <ArtPacerProvider>
        <AuthGate />
      </ArtPacerProvider>
    </QueryClientProvider>
  );
}

/** The theme the person chose, on <html>, whenever it changes (until the core answers, the page's own stays). */
function Theme() {
  const theme = useQuery(preferenceQueries.current()).data?.theme;
  useEffect(() => {
    if (theme) applyTheme(theme);
  }, [theme]);
  return null;
}

/**
 * Signed in: the frame. Signed out (or signing in): the sign-in card. `data-app-ready` marks the
 * first real screen (tests wait for it).
 */
function AuthGate() {
  const auth = useQuery(authQueries.status());
  const client = useQueryClient();
  if (auth.isPending) {
    return (
      <div className="centred-page">
        <Loading label="Starting Marquee…">
          <div className="card">
            <SkeletonLines lines={3} />
          </div>
        </Loading>
      </div>
    );
  }
  if (auth.isError) {
    return (
      <div className="centred-page" data-app-ready="">
        <main className="card">
          <h1 className="card-title">Marquee</h1>
          <ErrorMessage
            error={appErrorOf(auth.error)}
            onRetry={() => void client.invalidateQueries({ queryKey: authQueries.status().queryKey })}
          />
        </main>
      </div>
    );
  }
  if (!auth.data.signedIn) {
    return (
      <div className="app-root" data-app-ready="">
        <SignInScreen auth={auth.data} />
      </div>
    );
  }
  // Keyed by the account: another person's sign-in starts every per-person state afresh (undo, screens' own state).
  // Navigation stays outside the key: a switch of service made in Settings leaves the person in Settings.
  return (
    <NavigationProvider>
      <div className="app-root" data-app-ready="" key={accountOf(auth.data)}>
        <QueueHistoryProvider>
          <Frame auth={auth.data} />
        </QueueHistoryProvider>
      </div>
    </NavigationProvider>
  );
}
