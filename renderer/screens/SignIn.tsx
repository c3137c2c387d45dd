import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import type { AuthStatus, SignInPending } from '../../shared/models.ts';
import { ErrorMessage } from '../components/ErrorMessage.tsx';
import { useCancelSignIn, useSignIn } from '../queries/auth.ts';
import { appErrorOf } from '../queries/call.ts';
import { profileName, profileQueries } from '../queries/profiles.ts';
import { SettingsScreen } from './Settings.tsx';
import { PinForm, SignInLink } from './SignInWaiting.tsx';

/**
 * First run: a centred card saying what Marquee is, which service it will use, and Sign in. While
 * the sign-in waits (AuthStatus.pending): the address as a link to open or copy, a PIN field for
 * the code the page may show instead, and Cancel.
 */
export function SignInScreen({ auth }: { auth: AuthStatus }) {
  const [changingService, setChangingService] = useState(false);
  if (changingService) {
    return (
      <div className="centred-page wide">
        <div className="card">
          <SettingsScreen onDone={() => setChangingService(false)} />
        </div>
      </div>
    );
  }
  return (
    <div className="centred-page">
      <main className="card sign-in-card" aria-labelledby="sign-in-heading">
        <h1 id="sign-in-heading" className="card-title">
          Marquee
        </h1>
        <p className="lede">Browse the catalog and keep your queue in order, on your desktop.</p>
        <SignInFlow auth={auth} onChangeService={() => setChangingService(true)} />
      </main>
    </div>
  );
}

function SignInFlow({ auth, onChangeService }: { auth: AuthStatus; onChangeService: () => void }) {
  const signIn = useSignIn();
  const cancel = useCancelSignIn();
  const [cancelled, setCancelled] = useState(false);
  const start = (mode?: 'oob') => {
    setCancelled(false);
    signIn.mutate(mode);
  };
  const stop = () => {
    setCancelled(true);
    cancel.mutate();
  };
  const waiting = auth.pending !== null || signIn.isPending;
  const error = signIn.isError && !cancelled ? appErrorOf(signIn.error) : null;
  if (waiting) return <Waiting pending={auth.pending} onCancel={stop} onUseCode={() => start('oob')} />;
  return (
    <>
      <ServiceLine onChange={onChangeService} />
      {error && <ErrorMessage error={error} compact />}
      <button type="button" className="button primary large" onClick={() => start()}>
        Sign in
      </button>
      <p className="fine-print">
        You sign in on the service’s own page, in your browser. Marquee never sees your password.
      </p>
    </>
  );
}

/** The service Marquee will sign in to, with a way to pick another. */
function ServiceLine({ onChange }: { onChange: () => void }) {
  const { data } = useQuery(profileQueries.list());
  const active = data?.profiles.find((p) => p.id === data.activeId);
  return (
    <p className="service-line">
      <span className="muted">Service:</span> <strong>{active ? profileName(active) : '…'}</strong>{' '}
      <button type="button" className="link-button" onClick={onChange} aria-label="Change service">
        Change
      </button>
    </p>
  );
}

function Waiting({
  pending,
  onCancel,
  onUseCode,
}: {
  pending: SignInPending | null;
  onCancel: () => void;
  onUseCode: () => void;
}) {
  return (
    <div className="sign-in-waiting">
      <p className="waiting-headline" role="status">
        <span className="pulse" aria-hidden="true" /> Finish signing in in your browser
      </p>
      {pending ? (
        <SignInLink url={pending.loginUrl} browserOpened={pending.browserOpened} />
      ) : (
        <p className="muted">Opening the service’s sign-in page…</p>
      )}
      {pending?.mode === 'oob' ? (
        <PinForm />
      ) : (
        <p className="muted small">
          Got a code instead?{' '}
          <button type="button" className="link-button" onClick={onUseCode} disabled={!pending}>
            Use a code
          </button>
        </p>
      )}
      <button type="button" className="button" onClick={onCancel}>
        Cancel
      </button>
    </div>
  );
}
