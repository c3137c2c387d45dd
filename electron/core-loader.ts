import type { AppCore, CoreEnvironment } from './core/app-core.ts';
import { createCore } from './core/compose.ts';
import { httpOrigins } from './window-options.ts';

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

/**
 * The origins of every profile's service, the active one first (the CSP's img-src: a page keeps
 * its policy while Settings switches between them).
 */
export async function knownServiceOrigins(core: AppCore, fallback: string | null): Promise<string[]> {
  try {
    const result = await core.dispatch('profiles.list', {});
    if (!result.ok) return httpOrigins([fallback]);
    const { profiles, activeId } = result.value;
    const active = profiles.find((p) => p.id === activeId);
    return httpOrigins([active?.baseUrl, ...profiles.map((p) => p.baseUrl), fallback]);
  } catch {
    return httpOrigins([fallback]);
  }
}
