import { z } from 'zod';

/**
 * A person's preferences for how the app looks and behaves: kept by the core's settings store
 * (never in a page's storage, whose origin the web host changes every launch), read and written
 * through `preferences.get` / `preferences.set` (shared/ipc.ts).
 */
export const THEMES = ['system', 'light', 'dark'] as const;
export type Theme = (typeof THEMES)[number];

/** The page sizes Settings offers for search and browse lists. */
export const PAGE_SIZES = [24, 48, 96] as const;

export const preferencesSchema = z.object({
  theme: z.enum(THEMES, 'Choose the System, Light or Dark theme.'),
  /** The queue shown first. */
  defaultQueue: z.enum(['instant', 'disc'], 'Choose the instant or the disc queue.'),
  /** Results per page in search and lists. */
  pageSize: z
    .number('Results per page must be a number.')
    .int('Results per page must be a whole number.')
    .min(5, 'Show at least 5 results per page.')
    .max(500, 'Show at most 500 results per page.'),
  /** Ask before removing a title from a queue. */
  confirmRemove: z.boolean('Ask before removing is on or off.'),
  /** How tightly lists are laid out. */
  density: z.enum(['comfortable', 'compact'], 'Choose the comfortable or the compact layout.'),
  /** The queue's leaving timeline folded away. */
  timelineCollapsed: z.boolean('The timeline is either collapsed or not.'),
});

export type Preferences = z.infer<typeof preferencesSchema>;

export const DEFAULT_PREFERENCES: Readonly<Preferences> = Object.freeze({
  theme: 'system',
  defaultQueue: 'instant',
  pageSize: 24,
  confirmRemove: true,
  density: 'comfortable',
  timelineCollapsed: false,
});
