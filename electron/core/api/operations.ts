import type { OperationInput, OperationName, OperationResult } from '../../../shared/ipc.ts';
import type { AuthStatus, ServiceProfile } from '../../../shared/models.ts';
import type { AuthSession } from '../auth/index.ts';
import type { Client } from '../client/index.ts';
import type { QueueSync } from '../queue/index.ts';
import { EMBEDDED_PROFILE_ID, type SettingsStore } from '../settings/index.ts';
import { ServiceError } from '../types.ts';

/**
 * One function per operation of shared/ipc.ts, over the composed core. Inputs are already
 * validated; failures are thrown (ServiceError) and become values in dispatch.ts.
 */
export type Operations = { [N in OperationName]: (input: OperationInput<N>) => Promise<OperationResult<N>> };

export interface OperationContext {
  settings: SettingsStore;
  auth: AuthSession;
  client: Client;
  sync: QueueSync;
  /** The sign-in state now (asks the service who is signed in, once per account). */
  status(): Promise<AuthStatus>;
  /** After anything that may change who is signed in: re-points the client and queue sync, tells the app. */
  authChanged(): Promise<AuthStatus>;
  /** A signed test call with a profile's address and consumer: throws, in words, when it fails. */
  checkProfile(profile: Pick<ServiceProfile, 'baseUrl' | 'consumerKey' | 'consumerSecret'>): Promise<void>;
  /** Asks the service to revoke the active profile's access token; best effort, never throws. */
  revokeAccess(): Promise<void>;
}

const paging = (p: { start?: number | undefined; max?: number | undefined }) => ({
  ...(p.start !== undefined ? { start: p.start } : {}),
  ...(p.max !== undefined ? { max: p.max } : {}),
});

/** The operations of the rooms with their own door (import/, export/, alerts/) are composed beside these (handlers.ts). */
type RoomOperations =
  | 'import.read'
  | 'import.match'
  | 'import.search'
  | 'import.apply'
  | 'import.undo'
  | 'import.cancel'
  | 'export.save'
  | 'alerts.list'
  | 'alerts.markRead'
  | 'alerts.check'
  | 'alerts.settings'
  | 'alerts.setSettings';

export function createOperations(ctx: OperationContext): Omit<Operations, RoomOperations> {
  const { settings, auth, client, sync } = ctx;
  return {
    'auth.status': () => ctx.status(),
    'auth.signIn': async ({ mode }) => {
      try {
        await auth.signIn(mode ? { mode } : {});
      } catch (error) {
        await ctx.authChanged(); // the pending sign-in cleared: failed, cancelled or timed out
        throw error;
      }
      return ctx.authChanged();
    },
    'auth.completeWithPin': async ({ pin }) => {
      await auth.completeWithPin(pin);
      return ctx.authChanged();
    },
    'auth.signOut': async () => {
      if (auth.isSignedIn()) await ctx.revokeAccess();
      auth.signOut();
      return ctx.authChanged();
    },

    'auth.cancel': async () => {
      auth.cancel();
      return ctx.authChanged();
    },
    'catalog.browse': ({ genre, type, availableNow, ...p }) =>
      client.browse({ genre, ...(type ? { type } : {}), ...(availableNow ? { availableNow } : {}), ...paging(p) }),
    'catalog.people': ({ term, ...p }) => client.people(term, paging(p)),
    'queue.replace': ({ kind, refs }) => sync.apply({ op: 'replace', kind, refs }),
    'queue.cancelBulk': ({ kind }) => sync.cancelBulk(kind),
    'queue.refused': () => Promise.resolve(sync.refused()),
    'queue.retryRefused': ({ id }) => sync.retryRefused(id),
    'queue.discardRefused': ({ id }) => sync.discardRefused(id),
    'profiles.remove': async ({ id }) => {
      if (id === EMBEDDED_PROFILE_ID)
        throw new ServiceError({ kind: 'invalid', message: 'The built-in demo service cannot be removed.' });
      if (!settings.getProfile(id))
        throw new ServiceError({ kind: 'not_found', message: `There is no service profile "${id}".` });
      if (auth.pendingProfileId === id) auth.cancel();
      const wasActive = settings.getActiveProfileId() === id;
      settings.deleteProfile(id); // an active profile falls back to the built-in one
      if (wasActive) await ctx.authChanged();
      return { profiles: settings.listProfiles(), activeId: settings.getActiveProfileId() ?? '' };
    },
    'catalog.search': ({ term, ...p }) => client.search(term, paging(p)),
    'catalog.autocomplete': ({ term }) => client.autocomplete(term),
    'catalog.title': ({ ref }) => client.title(ref),
    'catalog.similars': ({ ref }) => client.similars(ref),
    'catalog.person': ({ ref }) => client.person(ref),
    'catalog.categories': ({ scheme }) => client.categories(scheme),

    'user.current': () => client.currentUser(),
    'queue.list': ({ kind, view, ...p }) => sync.read(kind, { ...(view ? { view } : {}), ...paging(p) }),
    'queue.add': ({ kind, ref, position, format }) =>
      sync.apply({
        op: 'add',
        kind,
        ref,
        ...(position !== undefined ? { position } : {}),
        ...(format ? { format } : {}),
      }),
    'queue.move': ({ kind, ref, position }) => sync.apply({ op: 'move', kind, ref, position }),
    'queue.remove': ({ kind, ref }) => sync.apply({ op: 'remove', kind, ref }),
    'titles.states': ({ refs }) => client.titleStates(refs),
    'ratings.get': ({ refs }) => client.ratings(refs),
    'ratings.set': async ({ ref, rating }) => (await client.setRating(ref, rating)).rating,
    'ratings.list': (p) => client.ratedTitles(paging(p)),
    'recommendations.list': (p) => client.recommendations(paging(p)),
    'history.list': ({ view, ...p }) => client.rentalHistory(view ?? 'all', paging(p)),

    'preferences.get': () => Promise.resolve(settings.getPreferences()),
    'preferences.set': (patch) => Promise.resolve(settings.setPreferences(patch)),

    'profiles.list': () =>
      Promise.resolve({ profiles: settings.listProfiles(), activeId: settings.getActiveProfileId() ?? '' }),
    'profiles.save': async (input) => {
      const stored = input.id === undefined ? null : settings.getProfile(input.id);
      const connectionChanged =
        !stored ||
        stored.baseUrl !== input.baseUrl.replace(/\/+$/, '') ||
        stored.consumerKey !== input.consumerKey ||
        stored.consumerSecret !== input.consumerSecret;
      if (connectionChanged) await ctx.checkProfile(input);
      const profile = settings.saveProfile(input);
      // Changing the active profile's URL or consumer forgets its tokens: the app must hear of it.
      if (profile.id === settings.getActiveProfileId()) await ctx.authChanged();
      return profile;
    },
    'profiles.activate': async ({ id }) => {
      if (!settings.getProfile(id))
        throw new ServiceError({ kind: 'not_found', message: `There is no service profile "${id}".` });
      if (auth.pendingProfileId !== null && auth.pendingProfileId !== id) auth.cancel();
      settings.setActiveProfile(id);
      return ctx.authChanged();
    },
  };
}
