// Checking the settings in the page (the same bounds as Go's
// SettingsData.valid), and placing Go's own error at its field.
import type { SettingsData } from '../api/types';

export type SettingsErrors = Partial<Record<keyof SettingsData | 'other', string>>;

export function validateSettings(s: SettingsData): SettingsErrors {
  const e: SettingsErrors = {};
  if (!Number.isInteger(s.max_rows) || s.max_rows < 1 || s.max_rows > 1_000_000) {
    e.max_rows = 'Enter a whole number of rows between 1 and 1,000,000.';
  }
  if (!Number.isInteger(s.timeout_s) || s.timeout_s < 1 || s.timeout_s > 600) {
    e.timeout_s = 'Enter a whole number of seconds between 1 and 600 (10 minutes).';
  }
  if (s.ollama_host && /\s/.test(s.ollama_host)) {
    e.ollama_host = 'An address has no spaces, e.g. 127.0.0.1:11434.';
  }
  if (!['system', 'light', 'dark'].includes(s.theme)) e.theme = 'Choose a theme.';
  return e;
}

/** fieldOfError guesses which field a Go validation message is about. */
export function fieldOfError(message: string): keyof SettingsData | 'other' {
  const m = message.toLowerCase();
  if (m.includes('row')) return 'max_rows';
  if (m.includes('timeout')) return 'timeout_s';
  if (m.includes('theme')) return 'theme';
  if (m.includes('host') || m.includes('ollama') || m.includes('address')) return 'ollama_host';
  if (m.includes('model')) return 'model';
  return 'other';
}
