import { afterEach, describe, expect, it, vi } from 'vitest';

// A stand-in for the bits of the browser the theme uses.
function browser(systemDark: boolean) {
  const root = { dataset: {} as Record<string, string> };
  const listeners: (() => void)[] = [];
  const mq = { matches: systemDark, addEventListener: (_: string, f: () => void) => listeners.push(f) };
  const store = new Map<string, string>();
  vi.stubGlobal('document', { documentElement: root });
  vi.stubGlobal('matchMedia', () => mq);
  vi.stubGlobal('localStorage', { getItem: (k: string) => store.get(k) ?? null, setItem: (k: string, v: string) => store.set(k, v) });
  return {
    root,
    store,
    flipSystem(dark: boolean) {
      mq.matches = dark;
      listeners.forEach((f) => f());
    },
  };
}

describe('the theme', () => {
  afterEach(() => {
    vi.unstubAllGlobals();
    vi.resetModules();
  });

  it("resolves the system's choice into data-theme and follows it", async () => {
    const b = browser(true);
    const { applyTheme, isDark } = await import('./theme');
    applyTheme('system');
    expect(b.root.dataset.theme).toBe('dark');
    expect(isDark()).toBe(true);
    b.flipSystem(false);
    expect(b.root.dataset.theme).toBe('light');
    applyTheme('dark');
    b.flipSystem(false);
    expect(b.root.dataset.theme).toBe('dark'); // an explicit choice ignores the system
    expect(b.store.get('querent.theme')).toBe('dark');
  });

  it('starts from the cached choice, else the system', async () => {
    const b = browser(true);
    const { applyCachedTheme } = await import('./theme');
    applyCachedTheme();
    expect(b.root.dataset.theme).toBe('dark');
    b.store.set('querent.theme', 'light');
    applyCachedTheme();
    expect(b.root.dataset.theme).toBe('light');
  });
});
