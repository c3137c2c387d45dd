import { useState, type FormEvent } from 'react';
import { ErrorMessage } from '../components/ErrorMessage.tsx';
import { appErrorOf } from '../queries/call.ts';
import { useCompleteWithPin } from '../queries/auth.ts';

/** The service's sign-in address as a link, with Copy (for when no browser opened, or another one is wanted). */
export function SignInLink({ url, browserOpened }: { url: string; browserOpened: boolean }) {
  const [copied, setCopied] = useState<'yes' | 'no' | null>(null);
  const copy = async () => {
    try {
      await navigator.clipboard.writeText(url);
      setCopied('yes');
    } catch {
      setCopied('no');
    }
  };
  return (
    <div className="sign-in-link">
      <p className="muted small">
        {browserOpened ? 'If the page didn’t open, use this address:' : 'Open this address in your browser:'}
      </p>
      <div className="link-row">
        <a href={url} target="_blank" rel="noreferrer noopener" className="login-url">
          {url}
        </a>
        <button type="button" className="button small" onClick={() => void copy()} aria-label="Copy sign-in address">
          Copy
        </button>
      </div>
      <p className="visually-hidden" role="status">
        {copied === 'yes'
          ? 'Address copied.'
          : copied === 'no'
            ? 'Couldn’t copy: select the address and copy it yourself.'
            : ''}
      </p>
      {copied === 'no' && <p className="muted small">Couldn’t copy here: select the address and copy it yourself.</p>}
    </div>
  );
}

/** "Got a code instead? Enter it here": the PIN the service's page shows in code mode. */
export function PinForm() {
  const [pin, setPin] = useState('');
  const complete = useCompleteWithPin();
  const submit = (e: FormEvent) => {
    e.preventDefault();
    if (pin.trim()) complete.mutate(pin.trim());
  };
  return (
    <form className="pin-form" onSubmit={submit}>
      <label htmlFor="sign-in-pin">Got a code instead? Enter it here</label>
      <div className="link-row">
        <input
          id="sign-in-pin"
          className="input"
          value={pin}
          onChange={(e) => setPin(e.target.value)}
          autoComplete="one-time-code"
          inputMode="text"
          maxLength={64}
          spellCheck={false}
        />
        <button type="submit" className="button primary" disabled={!pin.trim() || complete.isPending}>
          {complete.isPending ? 'Checking…' : 'Continue'}
        </button>
      </div>
      {complete.isError && <ErrorMessage error={pinError(complete.error)} compact />}
    </form>
  );
}

function pinError(error: unknown) {
  const e = appErrorOf(error);
  return e.kind === 'auth'
    ? { ...e, kind: 'invalid' as const, message: 'That code didn’t work: check it against the page and try again.' }
    : e;
}
