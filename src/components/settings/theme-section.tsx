// Theme: System, Light or Dark for this device (src/app/theme.ts), as three radio buttons.
import { Monitor, Moon, Sun } from 'lucide-react';
import { useSyncExternalStore } from 'react';
import { setTheme, storedTheme, subscribeTheme, THEME_CHOICES, type ThemeChoice } from '../../app/theme.ts';

const LOOKS: Record<ThemeChoice, { label: string; icon: typeof Sun }> = {
  system: { label: 'System', icon: Monitor },
  light: { label: 'Light', icon: Sun },
  dark: { label: 'Dark', icon: Moon },
};

export function ThemeSection() {
  const theme = useSyncExternalStore(subscribeTheme, storedTheme, () => 'system' as const);
  return (
    <section aria-label="Appearance">
      <h2 className="mb-1 text-xs font-semibold tracking-wide text-muted uppercase">Appearance</h2>
      <div className="flex flex-col gap-3 rounded-lg border border-line bg-surface px-4 py-3 sm:flex-row sm:items-center">
        <div className="min-w-0 flex-1">
          <p className="text-sm font-medium">Theme</p>
          <p className="text-[13px] text-muted">System follows this device's light or dark setting.</p>
        </div>
        <fieldset className="relative inline-flex w-fit rounded-md border border-line bg-surface-2 p-0.5">
          <legend className="sr-only">Theme</legend>
          {THEME_CHOICES.map((choice) => {
            const { label, icon: Icon } = LOOKS[choice];
            return (
              <label
                key={choice}
                className="relative inline-flex h-7 cursor-pointer items-center gap-1.5 rounded px-2.5 text-[13px] text-muted hover:text-fg has-checked:bg-surface has-checked:font-medium has-checked:text-fg has-checked:shadow-xs has-focus-visible:ring-2 has-focus-visible:ring-ring [&_svg]:size-3.5"
              >
                {/* Positioned within its label: focusing a hidden input elsewhere scrolled the whole page. */}
                <input
                  type="radio"
                  name="theme"
                  value={choice}
                  checked={theme === choice}
                  onChange={() => setTheme(choice)}
                  className="sr-only"
                />
                <Icon aria-hidden />
                {label}
              </label>
            );
          })}
        </fieldset>
      </div>
    </section>
  );
}
