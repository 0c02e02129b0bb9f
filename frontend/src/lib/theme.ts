// The theme applies at once: light, dark, or the system's choice. "system"
// resolves to light or dark here (and follows the system when it changes),
// so the CSS has one dark palette, under [data-theme='dark']. The last
// choice is cached in localStorage so that the next start has no flash.
export type Theme = 'system' | 'light' | 'dark';

const KEY = 'querent.theme';

let chosen: string = 'system';
let watching = false;

function systemDark(): boolean {
  return typeof matchMedia === 'function' && matchMedia('(prefers-color-scheme: dark)').matches;
}

function resolve(): void {
  const dark = chosen === 'dark' || (chosen !== 'light' && systemDark());
  document.documentElement.dataset.theme = dark ? 'dark' : 'light';
}

export function applyTheme(theme: Theme | string | undefined): void {
  if (typeof document === 'undefined') return;
  chosen = theme === 'light' || theme === 'dark' ? theme : 'system';
  resolve();
  if (!watching && typeof matchMedia === 'function') {
    watching = true;
    // The system's choice may change while the app is open.
    matchMedia('(prefers-color-scheme: dark)').addEventListener?.('change', () => {
      if (chosen === 'system') resolve();
    });
  }
  try {
    localStorage.setItem(KEY, chosen);
  } catch {
    /* storage may be off: the theme still applies */
  }
}

/** applyCachedTheme applies the theme saved by the previous run (the system's on the first), before the settings arrive. */
export function applyCachedTheme(): void {
  let t: string | null = null;
  try {
    t = localStorage.getItem(KEY);
  } catch {
    /* ignore */
  }
  applyTheme(t ?? 'system');
}

/** isDark tells whether the page is dark now. */
export function isDark(): boolean {
  if (typeof document === 'undefined') return false;
  const t = document.documentElement.dataset.theme;
  if (t) return t === 'dark';
  return systemDark();
}
