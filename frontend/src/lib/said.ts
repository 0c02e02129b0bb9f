// The engine's words in the page's language. The services hand over each
// error's message and hint and each warning already said in every language
// of the page, in the page's words (Go's engine/words with the Page face: a
// flag as its field in Settings, a command as the SQL editor or the
// sidebar), beside the engine's own text (kept for the Details): the page
// picks the language on screen, with no pattern over English. Text the
// engine wrote in English only comes in English; a document without them
// (made by the page itself, or a test's) says its own text.
import type { ErrorDoc } from '../api/types';
import { i18n } from '../i18n/index.svelte';

/** Said is one sentence in each of the page's languages (words.Said). */
export type Said = Record<string, string> | null | undefined;

/** said is s in the page's language, else in English, else fallback. */
export function said(s: Said, fallback = ''): string {
  return s?.[i18n.lang] || s?.en || fallback;
}

/** messageOf is an error's message in the page's language and words. */
export function messageOf(e: Pick<ErrorDoc, 'message' | 'message_said'>): string {
  return said(e.message_said, e.message ?? '');
}

/** hintOf is an error's hint (its next step) in the page's language and words. */
export function hintOf(e: Pick<ErrorDoc, 'hint' | 'hint_said'>): string {
  return said(e.hint_said, e.hint ?? '');
}

/** A document with warnings: an answer, a dataset, a connection test, an export. */
export interface Warned {
  warnings?: string[] | null;
  warnings_said?: Said[] | null;
}

/** warningsOf is a document's warnings in the page's language and words. */
export function warningsOf(doc: Warned): string[] {
  return (doc.warnings ?? []).map((w, i) => said(doc.warnings_said?.[i], w));
}
