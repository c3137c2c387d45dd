import { useEffect, useState, type FormEvent } from 'react';
import type { AppError, AuthStatus, TitleSummary } from '../shared/models.ts';
import { api } from './api.ts';

/** First screen: who is signed in, a Sign in button, and catalog search with box art. */
export function App() {
  const [auth, setAuth] = useState<AuthStatus | null>(null);
  const [error, setError] = useState<AppError | null>(null);
  const [signingIn, setSigningIn] = useState(false);

  useEffect(() => {
    let live = true;
    void api['auth.status']({}).then((r) => {
      if (!live) return;
      if (r.ok) setAuth(r.value);
      else setError(r.error);
    });
    const off = api.on('auth.changed', setAuth);
    return () => {
      live = false;
      off();
    };
  }, []);

  async function signIn() {
    setSigningIn(true);
    setError(null);
    const r = await api['auth.signIn']({});
    setSigningIn(false);
    if (r.ok) setAuth(r.value);
    else setError(r.error);
  }

  return (
    <div className="app">
      <header className="bar">
        <h1>Marquee</h1>
        <AuthBadge auth={auth} />
        {auth && !auth.signedIn && (
          <button type="button" onClick={() => void signIn()} disabled={signingIn}>
            {signingIn ? 'Waiting for the browser…' : 'Sign in'}
          </button>
        )}
      </header>
      {error && <ErrorNote error={error} />}
      <Search />
    </div>
  );
}

function AuthBadge({ auth }: { auth: AuthStatus | null }) {
  if (!auth) return <span className="status">Checking…</span>;
  if (!auth.signedIn || !auth.user) return <span className="status">Not signed in</span>;
  return (
    <span className="status">
      Signed in as {auth.user.firstName} {auth.user.lastName}
      {!auth.secureStorage && <em> (no system keychain here: your sign-in is less protected on this machine)</em>}
    </span>
  );
}

function ErrorNote({ error }: { error: AppError }) {
  const hint = error.status === 401 && error.kind === 'auth' ? ' Open the address npm start printed: it carries this launch’s access token.' : '';
  return (
    <p className="error" role="alert">
      {error.message}
      {hint}
    </p>
  );
}

function Search() {
  const [term, setTerm] = useState('');
  const [results, setResults] = useState<TitleSummary[] | null>(null);
  const [total, setTotal] = useState(0);
  const [error, setError] = useState<AppError | null>(null);

  useEffect(() => {
    const trimmed = term.trim();
    if (!trimmed) {
      setResults(null);
      return;
    }
    let live = true;
    const timer = setTimeout(() => {
      void api['catalog.search']({ term: trimmed, max: 24 }).then((r) => {
        if (!live) return;
        if (r.ok) {
          setResults(r.value.items);
          setTotal(r.value.total);
          setError(null);
        } else setError(r.error);
      });
    }, 250);
    return () => {
      live = false;
      clearTimeout(timer);
    };
  }, [term]);

  return (
    <main>
      <form role="search" onSubmit={(e: FormEvent) => e.preventDefault()}>
        <input type="search" placeholder="Search titles" aria-label="Search titles" value={term} onChange={(e) => setTerm(e.target.value)} autoFocus />
      </form>
      {error && <ErrorNote error={error} />}
      {results && <p className="count">{total === 1 ? '1 title' : `${total} titles`}</p>}
      <ul className="results">
        {results?.map((t) => (
          <li key={t.ref}>
            <img src={t.boxArt.medium} alt="" loading="lazy" />
            <span className="title">{t.title}</span>
            {t.year !== null && <span className="year">{t.year}</span>}
          </li>
        ))}
      </ul>
    </main>
  );
}
