import { ScreenFrame } from '../components/ScreenFrame.tsx';
import { SegmentedControl, type Segment } from '../components/SegmentedControl.tsx';
import { appErrorOf } from '../queries/call.ts';
import { PAGE_SIZES, usePreferences, useSetPreferences, type Theme } from '../queries/preferences.ts';
import { ServiceProfiles } from './SettingsProfiles.tsx';
import { AlertSettingsSection } from './SettingsAlerts.tsx';
import { SettingsSection } from './SettingsSection.tsx';

const THEMES: Segment<Theme>[] = [
  { value: 'system', label: 'System' },
  { value: 'light', label: 'Light' },
  { value: 'dark', label: 'Dark' },
];

/**
 * Settings: the service Marquee talks to (the built-in demo service, or another with its
 * address and consumer key), the theme, and how many results a page shows. `onDone` (from the
 * sign-in card) adds a way back.
 */
export function SettingsScreen({ onDone }: { onDone?: () => void }) {
  const prefs = usePreferences();
  const { set: setPreferences, error } = useSetPreferences();
  // A size kept from elsewhere (the core allows 5–500) stays selectable rather than shown as another.
  const pageSizes = [...new Set<number>([...PAGE_SIZES, prefs.pageSize])].sort((a, b) => a - b);
  return (
    <ScreenFrame
      title="Settings"
      className="settings"
      actions={
        onDone && (
          <button type="button" className="button small" onClick={onDone}>
            Back to sign in
          </button>
        )
      }
    >
      <SettingsSection id="settings-service" title="Service">
        <p className="muted small">
          Marquee works with any catalog service that speaks its API. The built-in demo service runs on this computer.
        </p>
        <ServiceProfiles />
      </SettingsSection>

      <SettingsSection id="settings-appearance" title="Appearance">
        <div className="field">
          <span className="field-label" id="theme-label">
            Theme
          </span>
          <SegmentedControl
            labelledBy="theme-label"
            segments={THEMES}
            value={prefs.theme}
            onChange={(theme) => setPreferences({ theme })}
          />
        </div>
        <div className="field">
          <label htmlFor="page-size">Results per page</label>
          <select
            id="page-size"
            className="select narrow"
            value={prefs.pageSize}
            onChange={(e) => setPreferences({ pageSize: Number(e.target.value) })}
          >
            {pageSizes.map((n) => (
              <option key={n} value={n}>
                {n}
              </option>
            ))}
          </select>
          <span className="field-hint">For search results and genres.</span>
        </div>
        {error && (
          <div className="error-message compact" role="alert">
            <p className="error-headline">Couldn’t keep that choice; your earlier one is still in use.</p>
            <p className="error-advice">{appErrorOf(error).message}</p>
          </div>
        )}
      </SettingsSection>

      {!onDone && <AlertSettingsSection />}
    </ScreenFrame>
  );
}
