import { QueryClientProvider, useQuery, useQueryClient } from '@tanstack/react-query';
import { useEffect, useState } from 'react';
import { api } from '../api.ts';
import { ErrorMessage } from '../components/ErrorMessage.tsx';
import { Frame } from './Frame.tsx';
import { NavigationProvider } from '../components/frame/NavigationProvider.tsx';
import { Loading, SkeletonLines } from '../components/Skeleton.tsx';
import { appErrorOf } from '../queries/call.ts';
import { authQueries } from '../queries/auth.ts';
import { createQueryClient } from '../queries/client.ts';
import { connectEvents } from '../queries/events.ts';
import { applyTheme, usePreferences } from '../preferences.ts';
import { SignInScreen } from '../screens/SignIn.tsx';

/** The app: one query cache fed by the core's events, the theme, and sign-in before the frame. */
export function App() {
  const [client] = useState(createQueryClient);
  useEffect(() => connectEvents(api, client), [client]);
  const { theme } = usePreferences();
  useEffect(() => applyTheme(theme), [theme]);
  return (
    <QueryClientProvider client={client}>
      <AuthGate />
    </QueryClientProvider>
  );
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
  return (
    <div className="app-root" data-app-ready="">
      <NavigationProvider>
        <Frame auth={auth.data} />
      </NavigationProvider>
    </div>
  );
}
