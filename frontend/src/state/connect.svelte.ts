// "Connect to PostgreSQL": the dialog's form, Test connection, Connect,
// Cancel and the saved connections. The password lives in this form only
// while the dialog is open: it is sent with Test and Connect, never saved,
// and cleared when the dialog closes or the connection is made.
import * as api from '../api';
import type { Connection, ConnectionTest, DatasetInfo, ErrorDoc, SavedConnection } from '../api';

/** What connecting needs of the page's state. */
export interface ConnectHost {
  /** connected makes the new database the window's. */
  connected(info: DatasetInfo): void;
  /** busyOpening marks the window as opening a database (or not). */
  busyOpening(label: string | null): void;
}

/** SSL_MODES are libpq's sslmode values the form offers ("" is libpq's default, prefer). */
export const SSL_MODES = ['', 'disable', 'require', 'verify-ca', 'verify-full'] as const;
export type SSLChoice = (typeof SSL_MODES)[number];

export const DEFAULT_PORT = 5432;

/** connectionOf is the Connection the form describes (trimmed; a port left empty is 5432). */
export function connectionOf(f: {
  host: string;
  port: number | null;
  database: string;
  username: string;
  password: string;
  ssl: string;
}): Connection {
  const c: Connection = {
    db_type: 'postgresql',
    host: f.host.trim(),
    port: f.port && Number.isFinite(f.port) ? Math.trunc(f.port) : DEFAULT_PORT,
    database: f.database.trim(),
    username: f.username.trim(),
  };
  if (f.password) c.password = f.password;
  if (f.ssl) c.ssl = f.ssl;
  return c;
}

/** FormProblem is a field the form cannot send as it is. */
export type FormProblem = null | 'port' | 'database';

/** checkForm says which field stops Test and Connect (null: none). */
export function checkForm(f: { port: number | null; database: string }): FormProblem {
  if (f.port !== null && (!Number.isInteger(f.port) || f.port < 1 || f.port > 65535)) return 'port';
  if (!f.database.trim()) return 'database';
  return null;
}

export class ConnectState {
  host = $state('localhost');
  port = $state<number | null>(DEFAULT_PORT);
  database = $state('');
  username = $state('');
  /** password: typed for this connection only; never stored, never shown again. */
  password = $state('');
  ssl = $state<string>('');
  save = $state(false);
  name = $state('');
  saved = $state<SavedConnection[]>([]);
  /** picked is the saved connection the form was filled from ("" none). */
  picked = $state('');
  /** busy: what runs now. */
  busy = $state<null | 'test' | 'connect'>(null);
  /** test is what the last Test connection found (for the form as it was then). */
  test = $state.raw<ConnectionTest | null>(null);
  error = $state<ErrorDoc | null>(null);
  /** stopped: the last test or connect was cancelled. */
  stopped = $state(false);

  private seq = 0;
  private readonly app: ConnectHost;

  constructor(app: ConnectHost) {
    this.app = app;
  }

  get problem(): FormProblem {
    return checkForm(this);
  }

  /** open readies the dialog: the saved connections, no stale result. */
  async open(): Promise<void> {
    this.test = null;
    this.error = null;
    this.stopped = false;
    try {
      this.saved = await api.Datasets.SavedConnections();
    } catch (e) {
      this.error = api.ApiError.from(e).toDoc();
    }
  }

  /** close forgets the password and what the dialog showed. */
  close(): void {
    if (this.busy) void this.cancel();
    this.password = '';
    this.test = null;
    this.error = null;
    this.stopped = false;
  }

  /** pick fills the form from a saved connection (the password is typed again). */
  pick(s: SavedConnection): void {
    this.host = s.host;
    this.port = s.port || DEFAULT_PORT;
    this.database = s.database;
    this.username = s.username;
    this.ssl = s.ssl;
    this.password = '';
    this.name = s.name;
    this.picked = s.name;
    this.save = false;
    this.test = null;
    this.error = null;
  }

  /** edited drops what a test found for the form as it was. */
  edited(): void {
    this.test = null;
    this.stopped = false;
  }

  async forget(name: string): Promise<void> {
    try {
      this.saved = await api.Datasets.ForgetConnection(name);
      if (this.picked === name) this.picked = '';
    } catch (e) {
      this.error = api.ApiError.from(e).toDoc();
    }
  }

  connection(): Connection {
    return connectionOf(this);
  }

  /** runTest connects, reads what the role may do, and disconnects. */
  async runTest(): Promise<void> {
    if (this.busy || this.problem) return;
    const my = ++this.seq;
    this.busy = 'test';
    this.test = null;
    this.error = null;
    this.stopped = false;
    try {
      const t = await api.Datasets.TestConnection(this.connection());
      if (my !== this.seq) return;
      this.test = { ...t, facts: t.facts ?? [], warnings: t.warnings ?? [] };
    } catch (e) {
      if (my !== this.seq) return;
      this.failed(e);
    } finally {
      if (my === this.seq) this.busy = null;
    }
  }

  /** connect makes the database the window's; true when it is open. */
  async connect(busyLabel: string): Promise<boolean> {
    if (this.busy || this.problem) return false;
    const my = ++this.seq;
    this.busy = 'connect';
    this.error = null;
    this.stopped = false;
    this.app.busyOpening(busyLabel);
    try {
      const info = await api.Datasets.Connect({ connection: this.connection(), save: this.save, name: this.save ? this.name.trim() : '' });
      if (my !== this.seq) return false;
      // The next connection starts from a clean slate: no password, and
      // saving is asked again (so a saved entry is never overwritten unasked).
      this.password = '';
      this.test = null;
      this.save = false;
      this.picked = '';
      this.app.connected(info);
      return true;
    } catch (e) {
      if (my === this.seq) this.failed(e);
      return false;
    } finally {
      if (my === this.seq) this.busy = null;
      this.app.busyOpening(null);
    }
  }

  /** cancel stops a test or a connect that waits on the server. */
  async cancel(): Promise<void> {
    if (!this.busy) return;
    try {
      await api.Datasets.CancelConnect();
    } catch (e) {
      this.error = api.ApiError.from(e).toDoc();
    }
  }

  private failed(e: unknown): void {
    const d = api.ApiError.from(e).toDoc();
    if (d.type === 'cancelled') {
      this.stopped = true;
      return;
    }
    this.error = d;
  }
}
