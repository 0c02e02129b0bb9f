import { describe, expect, it, vi } from 'vitest';
import { ApiError } from './error';
import { HttpTransport, WailsTransport, detect, isDesktop, takeToken, type EventSourceLike } from './transport';

function jsonResponse(status: number, body: unknown): Response {
  return new Response(JSON.stringify(body), { status, headers: { 'Content-Type': 'application/json' } });
}

class FakeEventSource implements EventSourceLike {
  static last: FakeEventSource | null = null;
  listeners = new Map<string, ((e: { data: string }) => void)[]>();
  onerror = null;
  closed = false;
  constructor(public url: string) {
    FakeEventSource.last = this;
  }
  addEventListener(name: string, cb: (e: { data: string }) => void) {
    this.listeners.set(name, [...(this.listeners.get(name) ?? []), cb]);
  }
  removeEventListener() {}
  close() {
    this.closed = true;
  }
  emit(name: string, data: unknown) {
    for (const cb of this.listeners.get(name) ?? []) cb({ data: JSON.stringify(data) });
  }
}

describe('HttpTransport', () => {
  it('posts the arguments as a JSON array with the token and returns the result', async () => {
    const fetch = vi.fn(async () => jsonResponse(200, { result: { name: 'x.db' } }));
    const t = new HttpTransport('T0K', { fetch: fetch as unknown as typeof globalThis.fetch });
    const got = await t.call('Datasets', 'Open', ['/tmp/x.db']);
    expect(got).toEqual({ name: 'x.db' });
    const [url, init] = fetch.mock.calls[0] as unknown as [string, RequestInit];
    expect(url).toBe('/call/Datasets.Open');
    expect(init.method).toBe('POST');
    expect((init.headers as Record<string, string>)['X-Querent-Token']).toBe('T0K');
    expect((init.headers as Record<string, string>)['Content-Type']).toBe('application/json');
    expect(init.body).toBe('["/tmp/x.db"]');
  });

  it('turns {"error"} into an ApiError with type, message and hint', async () => {
    const fetch = vi.fn(async () => jsonResponse(200, { error: { type: 'usage', message: 'no file was given', hint: 'choose a .sqlite or .db file' } }));
    const t = new HttpTransport('t', { fetch: fetch as unknown as typeof globalThis.fetch });
    const err = (await t.call('Datasets', 'Open', ['']).catch((e) => e)) as ApiError;
    expect(err).toBeInstanceOf(ApiError);
    expect(err.type).toBe('usage');
    expect(err.message).toBe('no file was given');
    expect(err.hint).toBe('choose a .sqlite or .db file');
  });

  it('reads an error document on a non-200 status too', async () => {
    const fetch = vi.fn(async () => jsonResponse(404, { error: { type: 'usage', message: 'no method X.Y', hint: '' } }));
    const t = new HttpTransport('t', { fetch: fetch as unknown as typeof globalThis.fetch });
    await expect(t.call('X', 'Y', [])).rejects.toMatchObject({ type: 'usage', message: 'no method X.Y' });
  });

  it('reports a 401 as unauthorized and tells its listener', async () => {
    const fetch = vi.fn(async () => new Response('missing or wrong token', { status: 401 }));
    const t = new HttpTransport('bad', { fetch: fetch as unknown as typeof globalThis.fetch });
    const seen = vi.fn();
    t.onUnauthorized = seen;
    await expect(t.call('Datasets', 'Current', [])).rejects.toMatchObject({ type: 'unauthorized' });
    expect(seen).toHaveBeenCalledOnce();
  });

  it('is unauthorized without calling when there is no token', async () => {
    const fetch = vi.fn();
    const t = new HttpTransport('', { fetch: fetch as unknown as typeof globalThis.fetch });
    await expect(t.call('Datasets', 'Current', [])).rejects.toMatchObject({ type: 'unauthorized' });
    expect(fetch).not.toHaveBeenCalled();
  });

  it('reports a dead server as a connection error', async () => {
    const fetch = vi.fn(async () => {
      throw new TypeError('Failed to fetch');
    });
    const t = new HttpTransport('t', { fetch: fetch as unknown as typeof globalThis.fetch });
    await expect(t.call('Ask', 'Status', [])).rejects.toMatchObject({ type: 'connection' });
  });

  it('reports an answer that is not JSON', async () => {
    const fetch = vi.fn(async () => new Response('<html>', { status: 500 }));
    const t = new HttpTransport('t', { fetch: fetch as unknown as typeof globalThis.fetch });
    await expect(t.call('Ask', 'Status', [])).rejects.toMatchObject({ type: 'internal' });
  });

  it('streams named events from one EventSource with the token', () => {
    const t = new HttpTransport('t k', { fetch: vi.fn() as unknown as typeof fetch, EventSource: FakeEventSource });
    const a = vi.fn();
    const b = vi.fn();
    const offA = t.on('ask:progress', a);
    t.on('ask:progress', b);
    t.on('window:title', b);
    const es = FakeEventSource.last!;
    expect(es.url).toBe('/events?token=t%20k');
    expect(es.listeners.get('ask:progress')).toHaveLength(1);
    es.emit('ask:progress', { Stage: 'checking' });
    expect(a).toHaveBeenCalledWith({ Stage: 'checking' });
    expect(b).toHaveBeenCalledWith({ Stage: 'checking' });
    offA();
    es.emit('ask:progress', { Stage: 'done' });
    expect(a).toHaveBeenCalledTimes(1);
    expect(b).toHaveBeenCalledTimes(2);
    es.emit('window:title', 'x.db (read-only) — Querent');
    expect(b).toHaveBeenLastCalledWith('x.db (read-only) — Querent');
    t.close();
    expect(es.closed).toBe(true);
  });

  it('builds download addresses with the token and the file name', () => {
    const t = new HttpTransport('abc', { fetch: vi.fn() as unknown as typeof fetch });
    expect(t.fileURL('/files/42', 'sales 2024.xlsx')).toBe('/files/42?token=abc&name=sales%202024.xlsx');
  });
});

describe('WailsTransport', () => {
  it('calls window.go.page.Service.Method with the arguments', async () => {
    const Open = vi.fn(async (p: string) => ({ name: p }));
    const t = new WailsTransport({ go: { page: { Datasets: { Open } } } } as never);
    expect(await t.call('Datasets', 'Open', ['/x.db'])).toEqual({ name: '/x.db' });
    expect(Open).toHaveBeenCalledWith('/x.db');
  });

  it('turns a rejected error document into an ApiError', async () => {
    const Run = vi.fn(async () => {
      throw { type: 'timeout', message: 'too slow', hint: 'narrow it' };
    });
    const t = new WailsTransport({ go: { page: { Results: { Run } } } } as never);
    await expect(t.call('Results', 'Run', ['x'])).rejects.toMatchObject({ type: 'timeout', message: 'too slow', hint: 'narrow it' });
  });

  it('handles a plain string rejection, and one holding JSON', async () => {
    const plain = new WailsTransport({ go: { page: { A: { B: async () => Promise.reject('boom') } } } } as never);
    await expect(plain.call('A', 'B', [])).rejects.toMatchObject({ type: 'internal', message: 'boom' });
    const json = new WailsTransport({
      go: { page: { A: { B: async () => Promise.reject('{"type":"usage","message":"no file","hint":"pick one"}') } } },
    } as never);
    await expect(json.call('A', 'B', [])).rejects.toMatchObject({ type: 'usage', message: 'no file', hint: 'pick one' });
  });

  it('says when a method is not bound', async () => {
    const t = new WailsTransport({ go: { page: {} } } as never);
    await expect(t.call('Nope', 'X', [])).rejects.toMatchObject({ type: 'internal' });
  });

  it('subscribes with runtime.EventsOn and unsubscribes', () => {
    const off = vi.fn();
    const handlers: Record<string, (d: unknown) => void> = {};
    const EventsOn = vi.fn((name: string, cb: (d: unknown) => void) => {
      handlers[name] = cb;
      return off;
    });
    const t = new WailsTransport({ runtime: { EventsOn } } as never);
    const h = vi.fn();
    const unsubscribe = t.on('model:pull', h);
    handlers['model:pull']({ Status: 'pulling', Completed: 1, Total: 2 });
    expect(h).toHaveBeenCalledWith({ Status: 'pulling', Completed: 1, Total: 2 });
    unsubscribe();
    expect(off).toHaveBeenCalled();
  });

  it('falls back to EventsOff when EventsOn returns nothing', () => {
    const EventsOff = vi.fn();
    const t = new WailsTransport({ runtime: { EventsOn: vi.fn(), EventsOff } } as never);
    t.on('dataset:changed', () => {})();
    expect(EventsOff).toHaveBeenCalledWith('dataset:changed');
  });
});

describe('startup', () => {
  it('takes the token from the address and removes it', () => {
    const replaceState = vi.fn();
    const tok = takeToken({ href: 'http://127.0.0.1:5000/?token=s3cret&x=1#top' }, { replaceState });
    expect(tok).toBe('s3cret');
    expect(replaceState).toHaveBeenCalledWith(null, '', '/?x=1#top');
  });

  it('leaves an address without a token alone', () => {
    const replaceState = vi.fn();
    expect(takeToken({ href: 'http://127.0.0.1:5000/' }, { replaceState })).toBe('');
    // The tab keeps the token for a reload, and a refused one is replaced.
    const kept = new Map<string, string>();
    const session = { getItem: (k: string) => kept.get(k) ?? null, setItem: (k: string, v: string) => void kept.set(k, v) };
    expect(takeToken({ href: 'http://127.0.0.1:5000/?token=abc' }, { replaceState: () => {} }, session)).toBe('abc');
    expect(takeToken({ href: 'http://127.0.0.1:5000/' }, { replaceState: () => {} }, session)).toBe('abc');
    expect(takeToken({ href: 'http://127.0.0.1:5000/?token=new' }, { replaceState: () => {} }, session)).toBe('new');
    expect(takeToken({ href: 'http://127.0.0.1:5000/' }, { replaceState: () => {} }, session)).toBe('new');
    expect(replaceState).not.toHaveBeenCalled();
  });

  it('tells the desktop from the browser', () => {
    expect(isDesktop({ go: { page: {} } } as never)).toBe(true);
    expect(isDesktop({ location: { protocol: 'wails:', host: 'wails' } } as never)).toBe(true);
    expect(isDesktop({ location: { protocol: 'http:', host: 'wails.localhost' } } as never)).toBe(true);
    expect(isDesktop({ location: { protocol: 'http:', host: '127.0.0.1:8080' } } as never)).toBe(false);
  });

  it('detects the browser mode and keeps the token in memory only', async () => {
    const replaceState = vi.fn();
    const fetch = vi.fn(async () => jsonResponse(200, { result: null }));
    const w = {
      location: { href: 'http://127.0.0.1:9/?token=abc', protocol: 'http:', host: '127.0.0.1:9' },
      history: { replaceState },
      fetch,
      EventSource: FakeEventSource,
    };
    const t = await detect(w as never);
    expect(t.kind).toBe('browser');
    expect(replaceState).toHaveBeenCalled();
    await t.call('Datasets', 'Current', []);
    expect(((fetch.mock.calls[0] as unknown as [string, RequestInit])[1].headers as Record<string, string>)['X-Querent-Token']).toBe('abc');
  });

  it('detects the desktop', async () => {
    const t = await detect({ go: { page: { Datasets: {} } }, location: { protocol: 'wails:', host: 'wails' } } as never);
    expect(t.kind).toBe('desktop');
  });
});
