import { useId, useState } from 'react';
import { applyTheme, readTheme, themeSchema, type Theme } from './theme-preference';

const labels: Record<Theme, string> = { system: 'System', light: 'Light', dark: 'Dark' };

/** Light, dark or the system's colours; remembered in this browser. */
export function ThemeSwitch() {
  const id = useId();
  const [theme, setTheme] = useState<Theme>(readTheme);
  return (
    <div className="switcher">
      <label htmlFor={id}>Theme</label>
      <select
        id={id}
        value={theme}
        onChange={(event) => {
          const next = themeSchema.catch('system').parse(event.target.value);
          setTheme(next);
          applyTheme(next);
        }}
      >
        {themeSchema.options.map((option) => (
          <option key={option} value={option}>
            {labels[option]}
          </option>
        ))}
      </select>
    </div>
  );
}
