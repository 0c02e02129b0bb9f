import type { ErrorDoc } from './types';

/** ApiError is every failure of a call to Go: an engine error document
 * ({type, message, hint}) from either transport, an unauthorized browser
 * page (type "unauthorized"), or a lost connection (type "connection"). */
export class ApiError extends Error {
  readonly type: string;
  readonly hint: string;
  readonly query: string;
  readonly position?: number;
  /** key is the message's sentence key; messageSaid and hintSaid the
   * message and hint in each of the page's languages (ErrorDoc). */
  readonly key?: string;
  readonly messageSaid?: Record<string, string>;
  readonly hintSaid?: Record<string, string>;

  constructor(doc: Partial<ErrorDoc> & { type: string; message: string }) {
    super(doc.message);
    this.name = 'ApiError';
    this.type = doc.type;
    this.hint = doc.hint ?? '';
    this.query = doc.query ?? '';
    this.position = doc.position;
    this.key = doc.key;
    this.messageSaid = doc.message_said;
    this.hintSaid = doc.hint_said;
  }

  /** The error as an engine error document (for the error banner). */
  toDoc(): ErrorDoc {
    const d: ErrorDoc = { type: this.type, message: this.message, hint: this.hint, query: this.query };
    if (this.position !== undefined) d.position = this.position;
    if (this.key) d.key = this.key;
    if (this.messageSaid) d.message_said = this.messageSaid;
    if (this.hintSaid) d.hint_said = this.hintSaid;
    return d;
  }

  /** from turns whatever a call rejected with into an ApiError: an error
   * document object, its JSON text, a plain string, or an Error. */
  static from(e: unknown): ApiError {
    if (e instanceof ApiError) return e;
    if (typeof e === 'string') {
      const s = e.trim();
      if (s.startsWith('{')) {
        try {
          return ApiError.from(JSON.parse(s));
        } catch {
          /* not JSON: the text is the message */
        }
      }
      return new ApiError({ type: 'internal', message: s || 'unknown error' });
    }
    if (e && typeof e === 'object') {
      const o = e as Record<string, unknown>;
      if (o.error && typeof o.error === 'object') return ApiError.from(o.error);
      if (typeof o.message === 'string' || typeof o.type === 'string') {
        return new ApiError({
          type: typeof o.type === 'string' && o.type ? o.type : 'internal',
          message: typeof o.message === 'string' ? o.message : String(o.type),
          hint: typeof o.hint === 'string' ? o.hint : '',
          query: typeof o.query === 'string' ? o.query : '',
          position: typeof o.position === 'number' ? o.position : undefined,
          key: typeof o.key === 'string' ? o.key : undefined,
          message_said: saidOf(o.message_said),
          hint_said: saidOf(o.hint_said),
        });
      }
    }
    return new ApiError({ type: 'internal', message: String(e) });
  }
}

/** saidOf is a sentence said in each language, as JSON sent it. */
function saidOf(v: unknown): Record<string, string> | undefined {
  if (!v || typeof v !== 'object') return undefined;
  const out: Record<string, string> = {};
  for (const [k, s] of Object.entries(v)) if (typeof s === 'string') out[k] = s;
  return out;
}

/** isUnauthorized tells the 401 of a browser page without its token. */
export function isUnauthorized(e: unknown): boolean {
  return e instanceof ApiError && e.type === 'unauthorized';
}
