// The two ways the page talks to Go: Wails' injected bindings on the
// desktop, HTTP + Server-Sent Events in the browser mode (`querent serve`,
// app/web). Everything else in the page goes through src/api/index.ts.
import { ApiError } from './error';

export type Handler = (data: unknown) => void;

export interface Transport {
  readonly kind: 'desktop' | 'browser';
  /** call runs Service.Method with the arguments. */
  call<T>(service: string, method: string, args: unknown[]): Promise<T>;
  /** on subscribes to a named event and returns the unsubscribe function. */
  on(name: string, handler: Handler): () => void;
  /** fileURL is where the browser downloads an export ("" on the desktop). */
  fileURL(download: string, name: string): string;
}

type WailsMethod = (...args: unknown[]) => Promise<unknown>;

interface WailsWindow {
  go?: Record<string, Record<string, Record<string, WailsMethod>>>;
  runtime?: {
    EventsOn?: (name: string, cb: (...data: unknown[]) => void) => (() => void) | void;
    EventsOff?: (name: string, ...more: string[]) => void;
    WindowSetTitle?: (title: string) => void;
  };
}

/** The Go package of the bound structs (app/page). */
export const WAILS_PACKAGE = 'page';

/** WailsTransport calls window.go.page.<Service>.<Method>. */
export class WailsTransport implements Transport {
  readonly kind = 'desktop';
  constructor(private readonly w: WailsWindow) {}

  async call<T>(service: string, method: string, args: unknown[]): Promise<T> {
    const fn = this.w.go?.[WAILS_PACKAGE]?.[service]?.[method];
    if (typeof fn !== 'function') {
      throw new ApiError({ type: 'internal', message: `${service}.${method} is not bound in this build`, hint: 'rebuild the app' });
    }
    try {
      return (await fn(...args)) as T;
    } catch (e) {
      throw ApiError.from(e);
    }
  }

  on(name: string, handler: Handler): () => void {
    const rt = this.w.runtime;
    if (!rt?.EventsOn) return () => {};
    const off = rt.EventsOn(name, (data: unknown) => handler(data));
    if (typeof off === 'function') return off;
    return () => rt.EventsOff?.(name);
  }

  fileURL(): string {
    return '';
  }
}

export interface HttpDeps {
  fetch: typeof fetch;
  EventSource?: new (url: string) => EventSourceLike;
  /** origin prefix for URLs, "" for the page's own server. */
  base?: string;
}

export interface EventSourceLike {
  addEventListener(name: string, cb: (e: { data: string }) => void): void;
  removeEventListener(name: string, cb: (e: { data: string }) => void): void;
  close(): void;
  onerror: ((e: unknown) => void) | null;
}

/** HttpTransport speaks app/web's protocol: POST /call/Service.Method with
 * a JSON array, {"result"} or {"error"} back; events over /events (SSE). */
export class HttpTransport implements Transport {
  readonly kind = 'browser';
  private es: EventSourceLike | null = null;
  private readonly handlers = new Map<string, Set<Handler>>();
  private readonly listeners = new Map<string, (e: { data: string }) => void>();
  /** onUnauthorized is told when the server refuses the token. */
  onUnauthorized: (() => void) | null = null;

  constructor(
    private readonly token: string,
    private readonly deps: HttpDeps,
  ) {}

  async call<T>(service: string, method: string, args: unknown[]): Promise<T> {
    if (!this.token) throw this.unauthorized();
    let res: Response;
    try {
      res = await this.deps.fetch(`${this.deps.base ?? ''}/call/${service}.${method}`, {
        method: 'POST',
        headers: { 'X-Querent-Token': this.token, 'Content-Type': 'application/json' },
        body: JSON.stringify(args),
      });
    } catch {
      throw new ApiError({
        type: 'connection',
        message: 'Querent is not answering',
        hint: 'the `querent serve` that served this page may have stopped: start it again and open the address it prints',
      });
    }
    if (res.status === 401) throw this.unauthorized();
    let body: { result?: unknown; error?: unknown };
    try {
      body = await res.json();
    } catch {
      throw new ApiError({ type: 'internal', message: `${service}.${method} answered HTTP ${res.status} without JSON` });
    }
    if (body && body.error) throw ApiError.from(body.error);
    if (!res.ok) throw new ApiError({ type: 'internal', message: `${service}.${method} answered HTTP ${res.status}` });
    return body.result as T;
  }

  private unauthorized(): ApiError {
    this.close(); // an EventSource with a refused token would retry forever
    this.onUnauthorized?.();
    return new ApiError({
      type: 'unauthorized',
      message: 'This page has no valid access token',
      hint: 'open the address that `querent serve` printed',
    });
  }

  on(name: string, handler: Handler): () => void {
    let set = this.handlers.get(name);
    if (!set) {
      set = new Set();
      this.handlers.set(name, set);
    }
    set.add(handler);
    const es = this.source();
    if (es && !this.listeners.has(name)) {
      const l = (e: { data: string }) => {
        let data: unknown;
        try {
          data = JSON.parse(e.data);
        } catch {
          data = e.data;
        }
        for (const h of this.handlers.get(name) ?? []) h(data);
      };
      this.listeners.set(name, l);
      es.addEventListener(name, l);
    }
    return () => {
      set.delete(handler);
    };
  }

  private source(): EventSourceLike | null {
    if (this.es || !this.deps.EventSource || !this.token) return this.es;
    this.es = new this.deps.EventSource(`${this.deps.base ?? ''}/events?token=${encodeURIComponent(this.token)}`);
    return this.es;
  }

  /** close stops the event stream. */
  close(): void {
    this.es?.close();
    this.es = null;
    this.listeners.clear();
  }

  fileURL(download: string, name: string): string {
    const sep = download.includes('?') ? '&' : '?';
    return `${this.deps.base ?? ''}${download}${sep}token=${encodeURIComponent(this.token)}&name=${encodeURIComponent(name)}`;
  }
}

/** TOKEN_KEY keeps the token in the tab's session storage, so that a reload
 * of the tab keeps its access (and its thread); another tab, or the browser
 * started again, needs the address `querent serve` printed. */
const TOKEN_KEY = 'querent.token';

/** takeToken reads ?token= from the page's address and removes it from the
 * address bar (history.replaceState), so that it is neither bookmarked nor
 * visible in screenshots; the token is kept for this tab only (session
 * storage), so that a reload keeps working. Without ?token=, the tab's
 * kept token. */
export function takeToken(
  loc: { href: string },
  history?: { replaceState(data: unknown, unused: string, url?: string): void },
  session?: Pick<Storage, 'getItem' | 'setItem'> | null,
): string {
  const url = new URL(loc.href);
  const token = url.searchParams.get('token') ?? '';
  if (token && history) {
    url.searchParams.delete('token');
    history.replaceState(null, '', url.pathname + url.search + url.hash);
  }
  try {
    if (token) session?.setItem(TOKEN_KEY, token);
    else return session?.getItem(TOKEN_KEY) ?? '';
  } catch {
    // no session storage: the token lasts the page
  }
  return token;
}

function sessionStore(w: Window): Storage | null {
  try {
    return w.sessionStorage ?? null;
  } catch {
    return null;
  }
}

/** isDesktop tells whether the page runs inside the Wails window. */
export function isDesktop(w: WailsWindow & { location?: { protocol: string; host: string } }): boolean {
  if (w.go?.[WAILS_PACKAGE]) return true;
  const loc = w.location;
  return !!loc && (loc.protocol === 'wails:' || loc.host === 'wails.localhost' || loc.host === 'wails');
}

/** detect picks the transport at startup. On the desktop the bindings may be
 * injected a moment after the page's first script: wait for them. */
export async function detect(w: Window & WailsWindow = window as Window & WailsWindow): Promise<Transport> {
  if (isDesktop(w)) {
    for (let i = 0; i < 100 && !w.go?.[WAILS_PACKAGE]; i++) {
      await new Promise((r) => setTimeout(r, 20));
    }
    return new WailsTransport(w);
  }
  const token = takeToken(w.location, w.history, sessionStore(w));
  return new HttpTransport(token, {
    fetch: w.fetch.bind(w),
    EventSource: (w as unknown as { EventSource: HttpDeps['EventSource'] }).EventSource,
  });
}
