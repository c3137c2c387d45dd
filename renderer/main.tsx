import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { App } from './app/App.tsx';
import { createQueryClient } from './queries/client.ts';
import { loadPreferencesBeforeRender } from './queries/preferences.ts';
import './styles.css';

const client = createQueryClient();
// The person's theme before the first render, so the app never shows in the other one once loaded.
void loadPreferencesBeforeRender(client).then(() =>
  createRoot(document.getElementById('root')!).render(
    <StrictMode>
      <App client={client} />
    </StrictMode>,
  ),
);
