// What the model picker says of each model (issue 24 §1): its size in
// parameters and on disk, its context window and what it can do beyond
// writing text (think, see images, call tools), from Ollama's /api/show.
import type { ModelInfo } from '../api/types.gen';
import type { Messages } from '../i18n/en';
import { formatBytes, formatCount } from './format';

/** modelDetails is the line the picker shows after a model's name:
 * "7.6B · 4.7 GB · 32,768-token window · thinks". */
export function modelDetails(m: ModelInfo, L: Messages['ollama']): string {
  const parts: string[] = [];
  if (m.parameter_size) parts.push(m.parameter_size);
  if (m.size_bytes) parts.push(formatBytes(m.size_bytes));
  if (m.context_length) parts.push(L.window(formatCount(m.context_length)));
  const caps = m.capabilities ?? [];
  if (caps.includes('thinking')) parts.push(L.thinks);
  if (caps.includes('vision')) parts.push(L.vision);
  return parts.join(' · ');
}

/** thinks reports whether the model has the thinking capability. */
export function thinks(m: ModelInfo | undefined): boolean {
  return (m?.capabilities ?? []).includes('thinking');
}
