import type { AppCore, CoreEnvironment } from './core/app-core.ts';
import { createCore } from './core/compose.ts';

/** Composes the app's core for a host (Electron main or the web host): electron/core/compose.ts's `createCore(env)`. */
export function loadCore(env: CoreEnvironment): Promise<AppCore> {
  return createCore(env);
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
