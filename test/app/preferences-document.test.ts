import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, expect, it } from 'vitest';
import { DEFAULT_PREFERENCES, openNodeSettings } from '../../electron/core/settings/index.ts';

/**
 * The preferences the renderer reads through the core (theme, page size, density, the timeline
 * folded): kept in the settings file across a reopen, and a file from before density and the
 * timeline existed opens with their defaults, its other choices kept and nothing reported broken.
 */
let dir: string;
const warnings: string[] = [];
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'marquee-preferences-'));
  warnings.length = 0;
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

const open = () => openNodeSettings({ dir, onWarning: (m) => warnings.push(m) });

it('density and the folded timeline are kept across a reopen', () => {
  open().setPreferences({ density: 'compact', timelineCollapsed: true, theme: 'dark' });
  expect(open().getPreferences()).toEqual({
    ...DEFAULT_PREFERENCES,
    density: 'compact',
    timelineCollapsed: true,
    theme: 'dark',
  });
  expect(warnings).toEqual([]);
});

it('a file written before density and the timeline existed keeps its choices and takes their defaults', () => {
  const older = { theme: 'light', defaultQueue: 'disc', pageSize: 25, confirmRemove: false };
  writeFileSync(join(dir, 'settings.json'), JSON.stringify({ version: 1, preferences: older }));
  expect(open().getPreferences()).toEqual({ ...older, density: 'comfortable', timelineCollapsed: false });
  expect(warnings).toEqual([]);
});

it('a density it does not know is refused in words, and what was kept stays', () => {
  const s = open();
  expect(() => s.setPreferences({ density: 'roomy' as 'compact' })).toThrow(/density/);
  expect(open().getPreferences()).toEqual(DEFAULT_PREFERENCES);
});
