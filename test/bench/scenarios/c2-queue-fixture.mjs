// The C2 fixture page: the queue manager alone (no frame), its 500-entry queue already in the
// query cache, with hooks the benchmark calls: mount (time to the first rows on screen) and scroll.
import { benchQueue } from './c2-queue-stub.mjs';
import { createElement as h } from 'react';
import { createRoot } from 'react-dom/client';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { NavigationContext } from '../../../renderer/router.ts';
import { queueKeys } from '../../../renderer/queries/queue.ts';
import { QueueHistoryProvider } from '../../../renderer/queries/queue-history.ts';
import { QueueManager } from '../../../renderer/screens/queue/QueueManager.tsx';
import '../../../renderer/styles/tokens.css';
import '../../../renderer/styles/base.css';
import '../../../renderer/styles/queue.css';

const nav = {
  location: { screen: { name: 'queue', kind: 'instant' }, panel: null },
  go() {},
  openTitle() {},
  openPerson() {},
  closePanel() {},
  back() {},
  forward() {},
  canGoBack: false,
  canGoForward: false,
};
const frame = () => new Promise((resolve) => requestAnimationFrame(() => resolve()));
let root = null;
const MOUNT_LIMIT_MS = 10_000;

async function mount() {
  const client = new QueryClient({ defaultOptions: { queries: { staleTime: Infinity, retry: false } } });
  client.setQueryData(queueKeys.list('instant'), benchQueue);
  const host = document.getElementById('root');
  const started = performance.now();
  root = createRoot(host);
  root.render(
    h(
      QueryClientProvider,
      { client },
      // The app gives each account its own Undo history; the queue manager refuses to render without one.
      h(
        QueueHistoryProvider,
        null,
        h(NavigationContext.Provider, { value: nav }, h(QueueManager, { kind: 'instant' })),
      ),
    ),
  );
  while (!host.querySelector('[role="listitem"]')) {
    // A queue manager that cannot render (an error thrown, a provider missing) fails the run, not hangs it.
    if (performance.now() - started > MOUNT_LIMIT_MS)
      throw new Error(`no queue row on screen after ${MOUNT_LIMIT_MS} ms`);
    await frame();
  }
  await frame();
  return performance.now() - started;
}

function unmount() {
  root?.unmount();
  root = null;
}

/** Scrolls the list at a steady `pxPerFrame` for `ms`, counting frames and the ones over 20 ms. */
async function scroll(ms, pxPerFrame) {
  const box = document.querySelector('.queue-scroll');
  let frames = 0;
  let long = 0;
  let down = true;
  const started = performance.now();
  let last = started;
  while (performance.now() - started < ms) {
    const max = box.scrollHeight - box.clientHeight;
    if (box.scrollTop >= max) down = false;
    if (box.scrollTop <= 0) down = true;
    box.scrollTop += down ? pxPerFrame : -pxPerFrame;
    await frame();
    const now = performance.now();
    if (now - last > 20) long++;
    last = now;
    frames++;
  }
  const seconds = (performance.now() - started) / 1000;
  return { frames, seconds, longFrames: long };
}

window.__c2 = { mount, unmount, scroll };
