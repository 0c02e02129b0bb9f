// Errors in the user's language: each error type becomes a short plain
// sentence and the next step. The engine's own message and hint stay
// behind the banner's "Details" toggle, except where they are the point
// (the model's clarifying question, the closest column names).
import type { ErrorDoc } from '../api/types';
import { sentence } from './format';

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

/** friendly maps an error document to what the page shows. */
export function friendly(e: Pick<ErrorDoc, 'type' | 'message' | 'hint'>, ctx: Context = {}): Friendly {
  const hint = sentence(e.hint ?? '');
  switch (e.type) {
    case 'refused':
      return {
        title: 'That query would change the database.',
        body: '',
        next: 'Querent only reads: ask for the data instead.',
        tone: 'warning',
        actions: ['fix-sql'],
      };
    case 'syntax':
      return {
        title: "The SQL has a mistake SQLite can't read.",
        body: '',
        next: 'Fix it in the editor and press Run, or ask the question again in other words.',
        tone: 'error',
        actions: ['fix-sql'],
      };
    case 'unknown_table':
      return {
        title: "The query names a table that doesn't exist.",
        body: hint,
        next: 'Check the table names in the sidebar, fix the SQL and press Run.',
        tone: 'error',
        actions: ['fix-sql'],
      };
    case 'unknown_column':
      return {
        title: "The query names a column that doesn't exist.",
        body: hint,
        next: 'Fix the column name in the editor and press Run.',
        tone: 'error',
        actions: ['fix-sql'],
      };
    case 'timeout': {
      const s = ctx.timeoutS ?? 30;
      return {
        title: `The query took longer than ${s} s and was stopped.`,
        body: '',
        next: 'Narrow it down (a WHERE filter, fewer joins, a LIMIT), or allow more time in Settings.',
        tone: 'warning',
        actions: ['fix-sql', 'open-settings'],
      };
    }
    case 'too_big':
      return {
        title: 'The result is too big to show here.',
        body: '',
        next: 'Ask for fewer rows or columns, or export it to get everything.',
        tone: 'warning',
        actions: ['fix-sql'],
      };
    case 'clarification_needed':
      return {
        title: 'The model needs one more detail:',
        body: sentence(e.message),
        next: 'Answer below and Querent will ask again.',
        tone: 'info',
        actions: ['ask-again'],
        prominent: true,
      };
    case 'unanswerable':
      return {
        title: `This database doesn't hold that data: ${e.message.trim().replace(/\.$/, '')}.`,
        body: '',
        next: 'Ask about what the tables hold: the sidebar lists them.',
        tone: 'info',
        actions: [],
      };
    case 'model_error':
      return {
        title: "The model's answer couldn't be used.",
        body: '',
        next: 'Ask again, perhaps in other words, or choose another model in Settings.',
        tone: 'error',
        actions: ['ask-again', 'open-settings'],
      };
    case 'llm_unavailable':
      return {
        title: "Ollama isn't running.",
        body: '',
        next: 'Start it: open the Ollama app, or run `ollama serve`. Direct SQL still works.',
        tone: 'warning',
        actions: ['check-ollama'],
      };
    case 'model_missing':
      return {
        title: "The model isn't installed yet.",
        body: '',
        next: 'Download it (a few GB, once), or choose an installed model in Settings.',
        tone: 'warning',
        actions: ['pull-model', 'open-settings'],
      };
    case 'database':
      if (ctx.postgres && /read-only role is required/.test(e.message))
        return {
          title: 'This role may do more than read, and Settings ask for a read-only role.',
          body: sentence(e.message),
          next: 'Connect as a SELECT-only role (Details has the SQL that makes one), or clear “Refuse PostgreSQL roles that may write” in Settings.',
          tone: 'warning',
          actions: ['open-settings'],
        };
      if (ctx.postgres)
        return {
          title: "Querent couldn't connect to the PostgreSQL server.",
          body: sentence(e.message),
          next: hint || 'Check the host, port, database, user and password, then press Test connection again.',
          tone: 'error',
          actions: [],
        };
      return {
        title: "The database couldn't be read.",
        body: sentence(e.message),
        next: hint || 'Check that the file is a SQLite database and that it can be read.',
        tone: 'error',
        actions: [],
      };
    case 'import':
      return {
        title: 'The import failed; nothing was written.',
        body: sentence(e.message),
        next: hint || 'Fix the file or the options and import again.',
        tone: 'error',
        actions: [],
      };
    case 'export':
      return {
        title: 'The export failed.',
        body: sentence(e.message),
        next: hint || 'Choose another place to save it and try again.',
        tone: 'error',
        actions: [],
      };
    case 'usage': {
      // A file with several mistakes (a gold set) lists one a line.
      const lines = e.message.split('\n').filter((l) => l.trim());
      if (lines.length > 1) return { title: 'There are mistakes to fix:', body: lines.join('\n'), next: hint, tone: 'warning', actions: [] };
      return { title: sentence(e.message) || "That didn't work.", body: '', next: hint, tone: 'warning', actions: [] };
    }
    case 'cancelled':
      return { title: 'Stopped.', body: '', next: '', tone: 'info', actions: [] };
    case 'connection':
      return {
        title: 'Querent is not answering.',
        body: '',
        next: 'The program that served this page may have stopped: start `querent serve` again and open the address it prints.',
        tone: 'error',
        actions: ['reload'],
      };
    case 'unauthorized':
      return { title: 'This page needs its access address.', body: '', next: 'Open the address that `querent serve` printed.', tone: 'error', actions: [] };
    case 'internal':
    default:
      return {
        title: 'Something went wrong inside Querent.',
        body: '',
        next: 'This is a bug: please report it with the details below.',
        tone: 'error',
        actions: [],
      };
  }
}

/** hasDetails tells whether the Details toggle has anything to show. */
export function hasDetails(e: Pick<ErrorDoc, 'message' | 'hint' | 'query'>): boolean {
  return !!(e.message || e.hint || e.query);
}
