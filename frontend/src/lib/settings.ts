// Checking the settings in the page (the same bounds as Go's
// SettingsData.valid), and placing Go's own error at its field.
import type { SettingsData } from '../api/types';
import { i18n } from '../i18n/index.svelte';

export type SettingsErrors = Partial<Record<keyof SettingsData | 'other', string>>;

export function validateSettings(s: SettingsData): SettingsErrors {
  const e: SettingsErrors = {};
  if (!Number.isInteger(s.max_rows) || s.max_rows < 1 || s.max_rows > 1_000_000) {
    e.max_rows = i18n.m.settings.errMaxRows;
  }
  if (!Number.isInteger(s.timeout_s) || s.timeout_s < 1 || s.timeout_s > 600) {
    e.timeout_s = i18n.m.settings.errTimeout;
  }
  if (s.ollama_host && /\s/.test(s.ollama_host)) {
    e.ollama_host = i18n.m.settings.errHost;
  }
  if (s.llm_url !== undefined && s.llm_url !== '' && (/\s/.test(s.llm_url) || !/^(https?:\/\/)?[^/\s]+/i.test(s.llm_url))) {
    e.llm_url = i18n.m.settings.errLlmUrl;
  }
  if (!['system', 'light', 'dark'].includes(s.theme)) e.theme = i18n.m.settings.errTheme;
  return e;
}

/** fieldOfError guesses which field a Go validation message is about. */
export function fieldOfError(message: string): keyof SettingsData | 'other' {
  const m = message.toLowerCase();
  if (m.includes('row')) return 'max_rows';
  if (m.includes('timeout')) return 'timeout_s';
  if (m.includes('theme')) return 'theme';
  if (m.includes('language')) return 'language';
  if (m.includes('openai') || m.includes('llm-url') || m.includes('server url')) return 'llm_url';
  if (m.includes('host') || m.includes('ollama') || m.includes('address')) return 'ollama_host';
  if (m.includes('model')) return 'model';
  return 'other';
}
