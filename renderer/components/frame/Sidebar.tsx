import { useQuery } from '@tanstack/react-query';
import type { AuthStatus, QueueKind } from '../../../shared/models.ts';
import { useSignOut } from '../../queries/auth.ts';
import { alertQueries } from '../../queries/alerts.ts';
import { queueQueries } from '../../queries/queue.ts';
import { useConnectivity } from '../../queries/status.ts';
import { useNavigation, type Screen } from '../../router.ts';
import { countOf } from '../../words.ts';

interface Item {
  label: string;
  screen: Screen;
  queue?: QueueKind;
  /** Shows the number of unread alerts. */
  unread?: boolean;
}

const ITEMS: Item[] = [
  { label: 'Browse', screen: { name: 'browse' } },
  { label: 'Search', screen: { name: 'search' } },
  { label: 'Instant Queue', screen: { name: 'queue', kind: 'instant' }, queue: 'instant' },
  { label: 'Disc Queue', screen: { name: 'queue', kind: 'disc' }, queue: 'disc' },
  { label: 'Ratings', screen: { name: 'ratings' } },
  { label: 'Recommendations', screen: { name: 'recommendations' } },
  { label: 'History', screen: { name: 'history' } },
  { label: 'Alerts', screen: { name: 'alerts' }, unread: true },
];
const SETTINGS: Item = { label: 'Settings', screen: { name: 'settings' } };

function sameScreen(a: Screen, b: Screen): boolean {
  return a.name === b.name && (a.name !== 'queue' || b.name !== 'queue' || a.kind === b.kind);
}

/** The app's fixed left column: where to go, queue counts, who is signed in, the connection dot. */
export function Sidebar({ auth }: { auth: AuthStatus }) {
  return (
    <aside className="sidebar">
      <div className="brand" aria-hidden="true">
        Marquee
      </div>
      <nav aria-label="Main">
        <ul className="nav-list">
          {ITEMS.map((item) => (
            <NavItem key={item.label} item={item} />
          ))}
        </ul>
        <ul className="nav-list nav-bottom">
          <NavItem item={SETTINGS} />
        </ul>
      </nav>
      <Account auth={auth} />
    </aside>
  );
}

function NavItem({ item }: { item: Item }) {
  const nav = useNavigation();
  const current = sameScreen(nav.location.screen, item.screen);
  return (
    <li>
      <button
        type="button"
        className="nav-item"
        aria-current={current ? 'page' : undefined}
        onClick={() => nav.go(item.screen)}
      >
        <span className="nav-label">{item.label}</span>
        {item.queue && <QueueCount kind={item.queue} />}
        {item.unread && <UnreadCount />}
      </button>
    </li>
  );
}

/** The number of titles in a queue, once known (nothing while loading or when the service has no such queue). */
function QueueCount({ kind }: { kind: QueueKind }) {
  const { data } = useQuery(queueQueries.list(kind));
  if (!data) return null;
  return (
    <span className="nav-count" aria-label={countOf(data.total, 'title')}>
      {data.total}
    </span>
  );
}

/** Unread alerts, in the button's accessible name too ("Alerts, 2 unread"); nothing when none. */
function UnreadCount() {
  const { data } = useQuery(alertQueries.list());
  if (!data || data.unread === 0) return null;
  return (
    <>
      <span className="nav-count nav-unread" aria-hidden="true">
        {data.unread}
      </span>
      <span className="visually-hidden">, {data.unread} unread</span>
    </>
  );
}

function Account({ auth }: { auth: AuthStatus }) {
  const signOut = useSignOut();
  const connectivity = useConnectivity();
  const state = !connectivity.online ? 'offline' : connectivity.pendingEdits > 0 ? 'pending' : 'online';
  const words = {
    online: 'Online',
    pending: `${countOf(connectivity.pendingEdits, 'edit')} waiting to be sent`,
    offline: 'Offline',
  }[state];
  const name = auth.user ? `${auth.user.firstName} ${auth.user.lastName}`.trim() || auth.user.nickname : 'Signed in';
  return (
    <div className="account">
      <div className="account-who">
        <span className={`connection-dot ${state}`} role="img" aria-label={words} title={words} />
        <span className="account-name" title={name}>
          {name}
        </span>
      </div>
      <button
        type="button"
        className="button subtle small"
        onClick={() => signOut.mutate()}
        disabled={signOut.isPending}
      >
        Sign out
      </button>
    </div>
  );
}
