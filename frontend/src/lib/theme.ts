// The theme applies at once: light, dark, or the system's choice (the
// CSS follows prefers-color-scheme when no data-theme is set). The last
// choice is cached in localStorage so that the next start has no flash.
export type Theme = 'system' | 'light' | 'dark';

const KEY = 'querent.theme';

export function applyTheme(theme: Theme | string | undefined): void {
  if (typeof document === 'undefined') return;
  const root = document.documentElement;
  if (theme === 'light' || theme === 'dark') root.dataset.theme = theme;
  else delete root.dataset.theme;
  try {
    localStorage.setItem(KEY, theme || 'system');
  } catch {
    /* storage may be off: the theme still applies */
  }
}

/** cachedTheme applies the theme saved by the previous run, before the settings arrive. */
export function applyCachedTheme(): void {
  try {
    const t = localStorage.getItem(KEY);
    if (t) applyTheme(t);
  } catch {
    /* ignore */
  }
}

/** isDark tells whether the page is dark now. */
export function isDark(): boolean {
  if (typeof document === 'undefined') return false;
  const t = document.documentElement.dataset.theme;
  if (t) return t === 'dark';
  return typeof matchMedia === 'function' && matchMedia('(prefers-color-scheme: dark)').matches;
}
