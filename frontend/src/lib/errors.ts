// Errors in the user's language: each error type becomes a short plain
// sentence and the next step. The engine's message and hint, as the
// services say them in the page's language and words (lib/said.ts), are
// shown where they are the point (the model's clarifying question, the
// closest column names, what went wrong with a file); as the engine wrote
// them, they stay behind the banner's "Details" toggle. An error is told
// apart by its type, and by its message's key where the type is not enough.
import type { ErrorDoc } from '../api/types';
import { sentence } from './format';
import { hintOf, messageOf } from './said';
import { i18n } from '../i18n/index.svelte';

export type Tone = 'error' | 'warning' | 'info';

/** Action is a button the banner offers. */
export type Action = 'check-ollama' | 'pull-model' | 'fix-sql' | 'ask-again' | 'open-settings' | 'export' | 'reload';

export interface Friendly {
  /** title is the short plain sentence. */
  title: string;
  /** body is a plain detail worth showing at once (may be ""). */
  body: string;
  /** next is the next step. */
  next: string;
  tone: Tone;
  actions: Action[];
  /** prominent: body is the model's own question, shown large. */
  prominent?: boolean;
}

export interface Context {
  /** timeoutS is the query timeout from the settings. */
  timeoutS?: number;
  /** postgres: the database is (or is being connected to) a PostgreSQL server. */
  postgres?: boolean;
}

/** The error document friendly reads. */
export type Doc = Pick<ErrorDoc, 'type' | 'message' | 'hint'> & Partial<Pick<ErrorDoc, 'key' | 'message_said' | 'hint_said'>>;

/** friendly maps an error document to what the page shows. */
export function friendly(e: Doc, ctx: Context = {}): Friendly {
  const E = i18n.m.errors;
  const hint = sentence(hintOf(e));
  const message = messageOf(e);
  const f = (k: keyof typeof E.kinds, tone: Tone, actions: Action[], body = '', next?: string): Friendly => ({
    title: E.kinds[k].title,
    body,
    next: next ?? E.kinds[k].next,
    tone,
    actions,
  });
  // A glossary entry's SQL (saved or stale): the engine's sentence says
  // which term, the hint the closest names; the next step is the panel's.
  if (e.key === 'glossary.sql_refused') return { title: sentence(message), body: hint, next: E.glossarySQL, tone: 'error', actions: [] };
  switch (e.type) {
    case 'refused':
      return f('refused', 'warning', ['fix-sql']);
    case 'syntax':
      return { ...f('syntax', 'error', ['fix-sql']), title: ctx.postgres ? E.syntaxPostgres : E.kinds.syntax.title };
    case 'unknown_table':
      return f('unknown_table', 'error', ['fix-sql'], hint);
    case 'unknown_column':
      return f('unknown_column', 'error', ['fix-sql'], hint);
    case 'timeout':
      return { ...f('timeout', 'warning', ['fix-sql', 'open-settings']), title: E.timeout(ctx.timeoutS ?? 30) };
    case 'too_big':
      return f('too_big', 'warning', ['fix-sql']);
    case 'clarification_needed':
      return { ...f('clarification_needed', 'info', ['ask-again'], sentence(message)), prominent: true };
    case 'unanswerable':
      return { ...f('unanswerable', 'info', []), title: E.unanswerable(message.trim().replace(/\.$/, '')) };
    case 'model_error':
      return f('model_error', 'error', ['ask-again', 'open-settings']);
    case 'llm_unavailable':
      return f('llm_unavailable', 'warning', ['check-ollama']);
    case 'model_missing':
      return f('model_missing', 'warning', ['pull-model', 'open-settings']);
    case 'database':
      if (e.key === 'role.readonly_required') return { ...f('readonly_role', 'warning', ['open-settings'], sentence(message)) };
      // A superuser is refused unless Settings allow it: the engine's
      // message says why, the next step where to allow it.
      if (e.key === 'role.superuser_refused') return { ...f('superuser', 'warning', ['open-settings'], sentence(message)) };
      if (ctx.postgres) return f('connect', 'error', [], sentence(message), hint || E.kinds.connect.next);
      return f('database', 'error', [], sentence(message), hint || E.kinds.database.next);
    case 'import':
      return f('import', 'error', [], sentence(message), hint || E.kinds.import.next);
    case 'export':
      return f('export', 'error', [], sentence(message), hint || E.kinds.export.next);
    case 'usage': {
      // A file with several mistakes (a gold set) lists one a line.
      const lines = message.split('\n').filter((l) => l.trim());
      if (lines.length > 1) return { title: E.mistakes, body: lines.join('\n'), next: hint, tone: 'warning', actions: [] };
      return { title: sentence(message) || E.didntWork, body: '', next: hint, tone: 'warning', actions: [] };
    }
    case 'cancelled':
      return { title: E.stopped, body: '', next: '', tone: 'info', actions: [] };
    case 'connection':
      return f('connection', 'error', ['reload']);
    case 'unauthorized':
      return f('unauthorized', 'error', []);
    case 'internal':
    default:
      return f('internal', 'error', []);
  }
}

/** hasDetails tells whether the Details toggle has anything to show. */
export function hasDetails(e: Pick<ErrorDoc, 'message' | 'hint' | 'query'>): boolean {
  return !!(e.message || e.hint || e.query);
}

/** serverBack reports an error of the model server (down, or without the
 * model) that the server no longer has: "Check again" found it running with
 * a model, so the way on is to ask again. */
export function serverBack(doc: Pick<ErrorDoc, 'type'>, status: { running: boolean; model: string } | null | undefined): boolean {
  return (doc.type === 'llm_unavailable' || doc.type === 'model_missing') && !!status?.running && !!status?.model;
}
