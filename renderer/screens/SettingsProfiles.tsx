import { useQuery } from '@tanstack/react-query';
import { useState, type FormEvent } from 'react';
import type { ServiceProfile } from '../../shared/models.ts';
import { ErrorMessage } from '../components/ErrorMessage.tsx';
import { describeError } from '../components/error-words.ts';
import { Loading, SkeletonLines } from '../components/Skeleton.tsx';
import { appErrorOf } from '../queries/call.ts';
import {
  BUILT_IN_PROFILE,
  profileName,
  profileQueries,
  useActivateProfile,
  useRemoveProfile,
  useSaveProfile,
} from '../queries/profiles.ts';

/** The services Marquee knows: pick one (radio), remove one you added, add another after a test call. */
export function ServiceProfiles() {
  const profiles = useQuery(profileQueries.list());
  const activate = useActivateProfile();
  const remove = useRemoveProfile();
  const [adding, setAdding] = useState(false);
  if (profiles.isPending) {
    return (
      <Loading label="Loading services…">
        <SkeletonLines lines={2} />
      </Loading>
    );
  }
  if (profiles.isError)
    return <ErrorMessage error={appErrorOf(profiles.error)} onRetry={() => void profiles.refetch()} />;
  const { profiles: list, activeId } = profiles.data;
  const failure = activate.error ?? remove.error;
  return (
    <div className="profiles">
      <fieldset className="profile-list">
        <legend className="visually-hidden">Service to use</legend>
        {list.map((p) => (
          <div key={p.id} className="profile-row">
            <label className="profile-choice">
              <input
                type="radio"
                name="profile"
                checked={p.id === activeId}
                disabled={activate.isPending}
                onChange={() => activate.mutate(p.id)}
              />
              <span className="profile-text">
                <span className="profile-label">{profileName(p)}</span>
                <span className="profile-url">{p.baseUrl}</span>
              </span>
            </label>
            {p.id !== BUILT_IN_PROFILE && (
              <button
                type="button"
                className="button small subtle danger"
                aria-label={`Remove ${p.label}`}
                disabled={remove.isPending}
                onClick={() => remove.mutate(p.id)}
              >
                Remove
              </button>
            )}
          </div>
        ))}
      </fieldset>
      {failure && <ErrorMessage error={appErrorOf(failure)} compact />}
      {adding ? (
        <ProfileForm onClose={() => setAdding(false)} />
      ) : (
        <button type="button" className="button" onClick={() => setAdding(true)}>
          Add a service…
        </button>
      )}
    </div>
  );
}

type Draft = Pick<ServiceProfile, 'label' | 'baseUrl' | 'consumerKey' | 'consumerSecret'>;
const EMPTY: Draft = { label: '', baseUrl: '', consumerKey: '', consumerSecret: '' };

/** Name, address, key and secret; Marquee tests them with a signed call before saving. */
function ProfileForm({ onClose }: { onClose: () => void }) {
  const [draft, setDraft] = useState<Draft>(EMPTY);
  const save = useSaveProfile();
  const activate = useActivateProfile({ added: true });
  const field = (name: keyof Draft) => ({
    id: `profile-${name}`,
    className: 'input',
    value: draft[name],
    required: true,
    onChange: (e: { target: { value: string } }) => setDraft((d) => ({ ...d, [name]: e.target.value })),
  });
  const submit = (e: FormEvent) => {
    e.preventDefault();
    const trimmed = {
      label: draft.label.trim(),
      baseUrl: draft.baseUrl.trim(),
      consumerKey: draft.consumerKey.trim(),
      consumerSecret: draft.consumerSecret.trim(),
    };
    save.mutate(trimmed, {
      onSuccess: (profile) => {
        activate.mutate(profile.id);
        onClose();
      },
    });
  };
  const error = save.isError ? saveErrorWords(save.error) : null;
  return (
    <form className="profile-form" onSubmit={submit} aria-labelledby="profile-form-title">
      <h3 id="profile-form-title" className="subsection-title">
        Add a service
      </h3>
      <div className="field">
        <label htmlFor="profile-label">Name</label>
        <input {...field('label')} placeholder="My catalog" maxLength={100} />
      </div>
      <div className="field">
        <label htmlFor="profile-baseUrl">Address</label>
        <input
          {...field('baseUrl')}
          type="url"
          placeholder="https://catalog.example.com"
          inputMode="url"
          spellCheck={false}
        />
      </div>
      <div className="field-pair">
        <div className="field">
          <label htmlFor="profile-consumerKey">Consumer key</label>
          <input {...field('consumerKey')} spellCheck={false} autoComplete="off" />
        </div>
        <div className="field">
          <label htmlFor="profile-consumerSecret">Consumer secret</label>
          <input {...field('consumerSecret')} type="password" autoComplete="off" />
        </div>
      </div>
      {error && (
        <div className="error-message compact" role="alert">
          <p className="error-headline">Couldn’t add this service.</p>
          <p className="error-advice">{error}</p>
        </div>
      )}
      <div className="toolbar">
        <button type="submit" className="button primary" disabled={save.isPending}>
          {save.isPending ? 'Testing the service…' : 'Test and save'}
        </button>
        <button type="button" className="button subtle" onClick={onClose}>
          Cancel
        </button>
      </div>
    </form>
  );
}

/** The core says what to fix for a refused profile ('invalid'); other failures get the usual words. */
function saveErrorWords(failure: unknown): string {
  const appError = appErrorOf(failure);
  const words = describeError(appError);
  return appError.kind === 'invalid' ? words.advice : `${words.headline} ${words.advice}`;
}
