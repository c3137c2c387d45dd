import type { ServiceProfile } from '../../../shared/models.ts';
import { EMBEDDED_PROFILE_ID, type SettingsStore } from './types.ts';

/**
 * Creates or updates the profile of the embedded service so a first launch works with nothing
 * configured, and makes it active when no (valid) profile is. The embedded service may listen on
 * another port at each launch, so a new base URL keeps the tokens (same database); a new consumer
 * key forgets them.
 */
export function ensureDefaultProfile(
  store: SettingsStore,
  embedded: { baseUrl: string; consumerKey: string; consumerSecret: string; label?: string },
): ServiceProfile {
  const existing = store.getProfile(EMBEDDED_PROFILE_ID);
  const label = embedded.label ?? existing?.label ?? 'This computer';
  const wanted = {
    id: EMBEDDED_PROFILE_ID,
    label,
    baseUrl: embedded.baseUrl,
    consumerKey: embedded.consumerKey,
    consumerSecret: embedded.consumerSecret,
  };
  let profile: ServiceProfile;
  if (
    existing &&
    existing.label === wanted.label &&
    existing.baseUrl === wanted.baseUrl.replace(/\/+$/, '') &&
    existing.consumerKey === wanted.consumerKey &&
    existing.consumerSecret === wanted.consumerSecret
  ) {
    profile = existing;
  } else {
    const keep = existing && existing.consumerKey === wanted.consumerKey ? store.getTokens(EMBEDDED_PROFILE_ID) : null;
    profile = store.saveProfile(wanted);
    if (keep && !store.getTokens(EMBEDDED_PROFILE_ID)) store.setTokens(EMBEDDED_PROFILE_ID, keep);
  }
  const active = store.getActiveProfileId();
  if (active === null || store.getProfile(active) === null) store.setActiveProfile(EMBEDDED_PROFILE_ID);
  return profile;
}
