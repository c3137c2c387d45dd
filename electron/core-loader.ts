import type { AppCore, CoreEnvironment, CreateCore } from './core/app-core.ts';
import type { OperationName } from '../shared/ipc.ts';
import type { AuthStatus, Result, ServiceProfile } from '../shared/models.ts';

/**
 * Composes the app's core for a host (Electron main or the web host). The core proper is
 * electron/core/handlers.ts's `createCore(env)`; until it exists, a stand-in answers the status
 * operations for the embedded profile and reports every other operation as not available.
 */
export async function loadCore(env: CoreEnvironment): Promise<AppCore> {
  let handlers: Record<string, unknown>;
  try {
    // @ts-ignore -- handlers.ts is written separately; this import is checked at runtime below.
    handlers = (await import('./core/handlers.ts')) as Record<string, unknown>;
  } catch (error) {
    if (!isMissingHandlers(error)) throw error;
    return standInCore(env);
  }
  if (typeof handlers.createCore !== 'function') throw new Error('electron/core/handlers.ts does not export createCore(env)');
  return (handlers.createCore as CreateCore)(env);
}

function isMissingHandlers(error: unknown): boolean {
  const e = error as NodeJS.ErrnoException | null;
  return (e?.code === 'ERR_MODULE_NOT_FOUND' || e?.code === 'MODULE_NOT_FOUND') && /handlers/.test(e.message);
}

export const EMBEDDED_PROFILE_ID = 'embedded';

/** The profile of the embedded service, registered consumer included: a first launch needs nothing. */
export function embeddedProfile(env: Pick<CoreEnvironment, 'embeddedService'>): ServiceProfile {
  return {
    id: EMBEDDED_PROFILE_ID,
    label: 'Marquee (on this computer)',
    baseUrl: env.embeddedService.url,
    consumerKey: env.embeddedService.consumer.key,
    consumerSecret: env.embeddedService.consumer.secret,
  };
}

/** A core that knows only the embedded profile; every service operation reports itself unavailable. */
export function standInCore(env: CoreEnvironment): AppCore {
  const status: AuthStatus = { signedIn: false, profileId: EMBEDDED_PROFILE_ID, user: null, secureStorage: env.secretCipher?.isEncryptionAvailable() ?? false };
  const answers: Partial<Record<OperationName, () => Result<unknown>>> = {
    'auth.status': () => ({ ok: true, value: status }),
    'profiles.list': () => ({ ok: true, value: { profiles: [embeddedProfile(env)], activeId: EMBEDDED_PROFILE_ID } }),
  };
  return {
    async dispatch(name) {
      const answer = answers[name];
      if (answer) return answer() as never;
      return { ok: false, error: { kind: 'server', message: `${name} is not available yet: the app core (electron/core/handlers.ts) is not built.` } };
    },
    on: () => () => {},
    close: async () => {},
  };
}

/** The active profile's base URL (for the sign-in URL allowlist and the CSP's img-src). */
export async function activeBaseUrl(core: AppCore, fallback: string | null): Promise<string | null> {
  try {
    const result = await core.dispatch('profiles.list', {});
    if (!result.ok) return fallback;
    const { profiles, activeId } = result.value;
    return profiles.find((p) => p.id === activeId)?.baseUrl ?? fallback;
  } catch {
    return fallback;
  }
}
