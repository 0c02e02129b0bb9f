// The page's state and the actions on it, in one place: what is open, what
// is running, what is shown — the thread of answer cards, newest last.
// Components read it and call its methods; only src/state (this module,
// eval.svelte.ts and files.ts for the import and export dialogs and the
// history) starts work in Go, through src/api.
import * as api from '../api';
import type { Answer, AskProgress, DatasetInfo, ErrorDoc, OllamaStatus, PullProgress, RecentFile, Schema, SessionTurn, SettingsData, Value } from '../api';
import type { Transport } from '../api/transport';
import { answerRows } from '../lib/rows';
import { messageOf } from '../lib/said';
import type { ChartChoice } from '../lib/chart';
import { applyTheme } from '../lib/theme';
import { i18n, setLanguage } from '../i18n/index.svelte';
import { EvalState } from './eval.svelte';
import { ConnectState } from './connect.svelte';
import * as saved from './thread';
import { untrack } from 'svelte';

export type { EvalRun, DraftState } from './eval.svelte';

export type Source = 'ask' | 'sql' | 'preview';

/** How the text of the question box was taken: as a question for the
 * model, or run as SQL (the card offers the other). */
export type Taken = 'question' | 'sql';

/** Total is the count of a truncated result's rows, made in the background. */
export interface Total {
  state: 'idle' | 'counting' | 'done' | 'failed' | 'cancelled';
  rows?: number;
  error?: string;
}

/** A card is one answer of the thread: the question (or SQL, or table), the
 * answer, the rows loaded so far, what the grid and the chart show. Its
 * fields are reactive one by one, so a streamed explanation or a page of
 * rows redraws only what changed. */
export class Card {
  readonly id: number;
  /** rev changes with every new result in the card (a run of edited SQL, a re-run). */
  rev = $state(0);
  doc = $state.raw<Answer | null>(null);
  rows = $state.raw<Value[][]>([]);
  source = $state<Source>('ask');
  /** heading: the question, "Preview of Album", or "Your SQL". */
  heading = $state('');
  /** question asked (or the text typed in the question box), for "Ask again" and the export's provenance. */
  question = $state('');
  taken = $state<Taken>('question');
  /** fromEditor: the SQL came from the editor (keep its layout). */
  fromEditor = $state(false);
  /** sql is the query whose rows these are (paging, counting, exporting). */
  sql = $state('');
  /** table is the previewed table, tableRows its row count from the schema (-1: unknown). */
  table = $state('');
  tableRows = $state(-1);
  /** parent is the card this follow-up builds on (null: none). */
  parent = $state<number | null>(null);
  collapsed = $state(false);
  /** more: rows follow those loaded; loading: the next page is on its way. */
  more = $state(false);
  loading = $state(false);
  total = $state<Total>({ state: 'idle' });
  /** chart is the chart on screen (kind and columns), which an export draws. */
  chart = $state.raw<ChartChoice | null>(null);
  /** pending: the question is still being answered (no rows yet). */
  pending = $state(false);
  /** typed: the text came from the question box (the card offers to take it the other way). */
  typed = $state(false);
  /** fromHistory: run again from the history. */
  fromHistory = $state(false);
  /** tab is the tab on screen: the table, the statistics or the chart. */
  tab = $state<saved.SavedTab>('table');
  /** restored: the card came back with its thread (it keeps its tab). */
  restored = false;

  constructor(id: number) {
    this.id = id;
  }
}

/** Shown is the newest card with an answer (the tests' and the ask box's view). */
export type Shown = Card;

export type BusyKind = 'open' | 'ask' | 'run' | 'preview';

export interface Busy {
  kind: BusyKind;
  label: string;
  /** question is the question being asked (kind ask). */
  question?: string;
  /** card is the card the work is for. */
  card?: number;
  progress: AskProgress | null;
  /** thinking is what a thinking model thought so far (kind ask, thinking on). */
  thinking?: string;
  started: number;
}

export type Panel = null | 'history' | 'glossary' | 'settings' | 'import' | 'export' | 'open' | 'ollama' | 'connect' | 'shortcuts';

/** View is what the area under the top bar shows: questions and answers, or "Evaluate models". */
export type View = 'ask' | 'evaluate';

export interface Toast {
  id: number;
  text: string;
  /** action is a button on the toast ("Undo"). */
  action?: { label: string; run: () => void };
}

/** errorDoc turns whatever a call rejected with into an error document
 * (type "cancelled" when the user stopped it), for a component to show. */
export function errorDoc(e: unknown): ErrorDoc {
  return api.ApiError.from(e).toDoc();
}

const SQL_EXTENSIONS = /\.(sqlite3?|db3?|s3db|sl3)$/i;
const IMPORT_EXTENSIONS = /\.(csv|tsv|txt|xlsx|xlsm|json|jsonl|ndjson|parquet)$/i;

/** The thread keeps this many cards; older ones go (their history stays). */
export const MAX_CARDS = 40;
/** PAGE is how many rows "load the next" brings. */
export const PAGE = 1000;

const SIDEBAR_KEY = 'querent.sidebar';

function storedSidebar(): boolean {
  try {
    return typeof localStorage !== 'undefined' && localStorage.getItem(SIDEBAR_KEY) === 'collapsed';
  } catch {
    return false;
  }
}

/** failedWith tells an answer that did not answer: it has errors. */
function failed(doc: Answer | null): boolean {
  return !!doc && (doc.errors?.length ?? 0) > 0;
}

class AppState {
  booted = $state(false);
  unauthorized = $state(false);
  mode = $state<'desktop' | 'browser'>('browser');
  dataset = $state<DatasetInfo | null>(null);
  /** datasetName is the open database's name as the page shows it: the demo's in the page's language. */
  get datasetName(): string {
    if (!this.dataset) return '';
    return this.dataset.demo ? i18n.m.dataset.demoName : this.dataset.name;
  }
  schema = $state.raw<Schema | null>(null);
  schemaLoading = $state(false);
  recent = $state<RecentFile[]>([]);
  settings = $state<SettingsData | null>(null);
  version = $state('');
  ollama = $state<OllamaStatus | null>(null);
  ollamaChecking = $state(false);
  /** thread is the conversation's answers, oldest first. */
  thread = $state.raw<Card[]>([]);
  busy = $state<Busy | null>(null);
  /** banner is a failure of a call itself (not of a query: those are in the answer). */
  banner = $state<ErrorDoc | null>(null);
  pull = $state<{ running: boolean; progress: PullProgress | null; error: ErrorDoc | null; done: boolean }>({
    running: false,
    progress: null,
    error: null,
    done: false,
  });
  /** context is the conversation's earlier questions, oldest first: what a
   * question that reads as a follow-up is read with (Go keeps them). */
  context = $state.raw<SessionTurn[]>([]);
  get turns(): number {
    return this.context.length;
  }
  panel = $state<Panel>(null);
  /** backTo is the dialog to show again when the one on screen closes. */
  private backTo: Panel = null;
  /** importFiles preset for the import dialog (a drop of CSV files). */
  importPreset = $state<string[]>([]);
  question = $state('');
  toasts = $state<Toast[]>([]);
  title = $state('Querent');
  view = $state<View>('ask');
  sidebarCollapsed = $state(storedSidebar());
  /** scrollTo is the card to bring into view, heading first (a new card, a jump to the card a follow-up builds on). */
  scrollTo = $state<{ card: number; seq: number } | null>(null);
  /** evaluation is "Evaluate models": gold set, models, run, result, draft. */
  readonly evaluation: EvalState = new EvalState(this);
  /** connection is the "Connect to PostgreSQL" dialog's form and its calls. */
  readonly connection: ConnectState = new ConnectState(this);

  private seq = 0;
  private cardSeq = 0;
  private toastSeq = 0;
  private scrollSeq = 0;
  /** conversation is the last card of the current conversation (a typed follow-up builds on it). */
  private conversation: number | null = null;
  private focusQuestionBox: (() => void) | null = null;
  /** threadKey names the open database's stored thread (thread.ts). */
  private threadKey: string | null = null;
  private persistTimer: ReturnType<typeof setTimeout> | null = null;
  /** undo is the thread "New conversation" cleared, until the next one. */
  private undo: { key: string; cards: saved.SavedCard[]; turns: SessionTurn[] } | null = null;

  constructor() {
    // The thread is stored whenever a card or the context changes.
    $effect.root(() => {
      $effect(() => {
        const snap = this.snapshot();
        const turns = this.context;
        untrack(() => this.schedulePersist(snap, turns));
      });
    });
  }

  /** shown is the newest card that has an answer. */
  get shown(): Card | null {
    for (let i = this.thread.length - 1; i >= 0; i--) if (this.thread[i].doc) return this.thread[i];
    return null;
  }

  card(id: number): Card | undefined {
    return this.thread.find((c) => c.id === id);
  }

  /** openEvaluate shows "Evaluate models" in place of the questions. */
  openEvaluate(): void {
    this.panel = null;
    this.view = 'evaluate';
    this.evaluation.prepare();
  }

  /** closeEvaluate goes back to the questions (a running evaluation goes on). */
  closeEvaluate(): void {
    this.view = 'ask';
  }

  /** openPanel opens a dialog; the model's panel asks Ollama again first, so
   * that it never shows a state that has changed since. Settings opened
   * from "Connect to PostgreSQL" (a role the settings refuse) go back to it
   * when they close, its form as it was, to test the connection again. */
  openPanel(p: Panel): void {
    this.backTo = this.panel === 'connect' && p === 'settings' ? 'connect' : null;
    this.panel = p;
    if (p === 'ollama' || p === 'settings') this.checkOllama();
  }

  /** closePanel closes the dialog on screen (back to the one it came from). */
  closePanel(): void {
    const back = this.panel === 'settings' ? this.backTo : null;
    this.backTo = null;
    if (back === 'connect') {
      // What the dialog showed was found under the old settings.
      this.connection.test = null;
      this.connection.error = null;
    }
    this.panel = back;
  }

  get canAsk(): boolean {
    return !!this.dataset && !(this.busy && this.busy.kind === 'open');
  }

  /** registerQuestionBox lets the keyboard shortcuts focus the question box. */
  registerQuestionBox(focus: (() => void) | null): void {
    this.focusQuestionBox = focus;
  }

  /** focusQuestion puts the cursor in the question box (/ or Ctrl+K). */
  focusQuestion(): void {
    this.view = 'ask';
    this.focusQuestionBox?.();
  }

  toggleSidebar(): void {
    this.sidebarCollapsed = !this.sidebarCollapsed;
    try {
      localStorage.setItem(SIDEBAR_KEY, this.sidebarCollapsed ? 'collapsed' : 'open');
    } catch {
      // no storage: the choice lasts the session
    }
  }

  /** boot picks the transport, subscribes to events and loads the start state. */
  async boot(transport?: Transport): Promise<void> {
    let t: Transport;
    try {
      t = await api.init(transport);
    } catch (e) {
      this.banner = api.ApiError.from(e).toDoc();
      this.booted = true;
      return;
    }
    this.mode = t.kind;
    if ('onUnauthorized' in t) (t as { onUnauthorized: (() => void) | null }).onUnauthorized = () => (this.unauthorized = true);
    api.on('window:title', (title) => this.setTitle(title));
    api.on('dataset:changed', (info) => this.datasetChanged(info));
    api.on('ask:progress', (p) => {
      const b = this.busy;
      if (b && (b.kind === 'ask' || b.kind === 'run')) b.progress = p;
      // A thinking model's thinking, kept while the question runs (folded on the card).
      if (p.stage === 'thinking' && p.text && b?.kind === 'ask') b.thinking = p.text;
      // The explanation streams in once the rows are shown.
      if (p.stage === 'explaining' && p.text && b?.kind === 'ask' && b.card !== undefined) {
        const c = this.card(b.card);
        if (c?.doc) c.doc = { ...c.doc, explanation: p.text };
      }
    });
    api.on('ask:rows', (doc) => {
      // The rows, as soon as the SQL ran; the explanation follows.
      const b = this.busy;
      if (doc && b?.kind === 'ask' && b.card !== undefined) {
        const c = this.card(b.card);
        if (c) this.fill(c, doc, 'ask');
      }
    });
    api.on('model:pull', (p) => {
      this.pull.progress = p;
    });
    api.on('file:dropped', (paths) => this.dropped(paths));
    api.on('app:error', (doc) => (this.banner = doc));
    const settings = api.Settings.Get().then(
      (s) => {
        this.settings = s;
        applyTheme(s.theme);
        setLanguage(s.language);
      },
      (e) => this.fail(e),
    );
    const current = api.Datasets.Current().then(
      (info) => {
        if (info) this.datasetChanged(info);
      },
      (e) => this.fail(e),
    );
    api.Settings.Version().then((v) => (this.version = v), () => {});
    this.loadRecent();
    // Ollama may take seconds to answer (or time out): never wait for it.
    this.checkOllama();
    await Promise.allSettled([settings, current]);
    this.booted = true;
  }

  fail(e: unknown): void {
    const err = api.ApiError.from(e);
    if (err.type === 'unauthorized') {
      this.unauthorized = true;
      return;
    }
    this.banner = err.toDoc();
  }

  /** setTitle keeps Go's window title; the tab shows the page's own, in its
   * language, once a database is open (App.svelte). */
  setTitle(title: string): void {
    if (!title) return;
    this.title = title;
  }

  /** tabTitle is the browser tab's title in the page's language. */
  get tabTitle(): string {
    return this.dataset ? i18n.m.dataset.windowTitle(this.datasetName) : this.title;
  }

  toast(text: string, action?: Toast['action']): void {
    const id = ++this.toastSeq;
    this.toasts = [...this.toasts.filter((t) => t.text !== text), { id, text, action }].slice(-3);
    setTimeout(() => (this.toasts = this.toasts.filter((t) => t.id !== id)), action ? 8000 : 3500);
  }

  /** dismissToast takes a toast away (its action was used). */
  dismissToast(id: number): void {
    this.toasts = this.toasts.filter((t) => t.id !== id);
  }

  /** Takes a file off the recent list (a moved or deleted one, say). */
  forgetRecent(path: string): void {
    api.Datasets.ForgetRecent(path).then(
      (r) => (this.recent = r),
      (e) => this.toast(i18n.m.state.recentFailed(e instanceof Error ? e.message : String(e))),
    );
  }

  loadRecent(): void {
    api.Datasets.Recent().then(
      (r) => (this.recent = r),
      () => {},
    );
  }

  private datasetChanged(info: DatasetInfo): void {
    const changed = !this.dataset || this.dataset.path !== info.path || this.dataset.name !== info.name || this.dataset.server !== info.server;
    this.dataset = info;
    this.setTitle(info.title);
    if (changed || !this.schema) {
      this.flushPersist();
      this.thread = [];
      this.conversation = null;
      this.context = [];
      this.threadKey = saved.threadKey(info);
      this.restoreThread();
      this.loadSchema();
      if (changed) this.evaluation.datasetChanged();
    }
  }

  async loadSchema(): Promise<void> {
    this.schemaLoading = true;
    try {
      this.schema = await api.Datasets.Schema();
    } catch (e) {
      this.fail(e);
    } finally {
      this.schemaLoading = false;
    }
  }

  /** open opens a database: the demo for "", else a path. */
  async open(path: string | null): Promise<boolean> {
    const ev = this.evaluation;
    if (ev.running || ev.draft.running) {
      this.banner = {
        type: 'usage',
        message: ev.running ? i18n.m.state.evalRunning : i18n.m.state.draftRunning,
        hint: i18n.m.state.evalRunningHint,
        query: '',
      };
      return false;
    }
    this.busy = { kind: 'open', label: path ? i18n.m.start.openingFile : i18n.m.start.openingDemo, progress: null, started: Date.now() };
    this.banner = null;
    try {
      const info = path ? await api.Datasets.Open(path) : await api.Datasets.OpenDemo();
      this.dataset = null; // force a fresh schema and an empty thread
      this.datasetChanged(info);
      this.panel = null;
      this.loadRecent();
      return true;
    } catch (e) {
      this.fail(e);
      return false;
    } finally {
      this.busy = null;
    }
  }

  /** openConnect shows "Connect to PostgreSQL" (its saved connections read again). */
  openConnect(): void {
    this.banner = null;
    this.panel = 'connect';
    void this.connection.open();
  }

  /** closeConnect closes the dialog; the password typed in it is forgotten. */
  closeConnect(): void {
    this.backTo = null;
    this.connection.close();
    if (this.panel === 'connect') this.panel = null;
  }

  /** connected makes a database the dialog connected to the window's. */
  connected(info: DatasetInfo): void {
    this.dataset = null; // a fresh schema and an empty thread
    this.datasetChanged(info);
    this.panel = null;
    this.loadRecent();
  }

  /** busyOpening marks the window as opening a database (label) or done (null). */
  busyOpening(label: string | null): void {
    if (label) this.busy = { kind: 'open', label, progress: null, started: Date.now() };
    else if (this.busy?.kind === 'open') this.busy = null;
  }

  /** refreshCurrent reads which database Go has open (after an import that opened its result). */
  async refreshCurrent(): Promise<void> {
    try {
      const info = await api.Datasets.Current();
      if (info) this.datasetChanged(info);
      this.loadRecent();
    } catch (e) {
      this.fail(e);
    }
  }

  /** chooseAndOpen shows the desktop's open dialog, then opens the file. */
  async chooseAndOpen(): Promise<void> {
    try {
      const path = await api.Datasets.ChooseFile();
      if (path) await this.open(path);
    } catch (e) {
      this.fail(e);
    }
  }

  private dropped(paths: string[]): void {
    const db = paths.find((p) => SQL_EXTENSIONS.test(p));
    if (db) {
      this.open(db);
      return;
    }
    const inputs = paths.filter((p) => IMPORT_EXTENSIONS.test(p));
    if (inputs.length === 1) {
      // One data file opens at once, through its workspace (imported on
      // its first open, and again when it changes).
      this.open(inputs[0]);
      return;
    }
    if (inputs.length) {
      this.importPreset = inputs;
      this.panel = 'import';
      return;
    }
    if (paths.length) {
      // Not a known extension: try it as a database; the error says why not.
      this.open(paths[0]);
    }
  }

  // ---- The thread ----

  /** addCard puts a new card at the bottom of the thread (older ones fold
   * away) and brings its heading into view. */
  private addCard(init: Partial<Pick<Card, 'source' | 'heading' | 'question' | 'taken' | 'parent' | 'table' | 'tableRows' | 'pending' | 'typed' | 'fromHistory'>>): Card {
    const c = new Card(++this.cardSeq);
    Object.assign(c, init);
    for (const old of this.thread) old.collapsed = true;
    const kept = this.thread.length >= MAX_CARDS ? this.thread.slice(this.thread.length - MAX_CARDS + 1) : this.thread;
    this.thread = [...kept, c];
    this.reveal(c.id);
    return c;
  }

  /** reveal scrolls a card's heading into view. */
  reveal(id: number): void {
    const c = this.card(id);
    if (c) c.collapsed = false;
    this.scrollTo = { card: id, seq: ++this.scrollSeq };
  }

  /** removeCard takes a card off the thread. */
  removeCard(id: number): void {
    const c = this.card(id);
    if (c?.total.state === 'counting') this.cancelCount(id);
    this.thread = this.thread.filter((x) => x.id !== id);
  }

  /** clearThread empties the thread (the history keeps every answer). */
  clearThread(): void {
    for (const c of this.thread) if (c.total.state === 'counting') this.cancelCount(c.id);
    this.thread = [];
  }

  /** fill puts an answer in a card: its rows, what it ran, whether more follow. */
  private fill(c: Card, doc: Answer, source: Source, o: { heading?: string; fromEditor?: boolean } = {}): void {
    const first = !c.doc;
    c.doc = doc;
    c.rows = answerRows(doc);
    c.source = source;
    if (o.heading !== undefined) c.heading = o.heading;
    if (o.fromEditor !== undefined) c.fromEditor = o.fromEditor;
    c.sql = doc.query || c.sql;
    c.more = !failed(doc) && doc.truncated;
    c.loading = false;
    c.pending = false;
    c.rev++;
    if (c.total.state === 'counting') this.cancelCount(c.id);
    c.total = { state: 'idle' };
    if (!failed(doc) && doc.truncated) {
      if (c.source === 'preview' && c.tableRows >= 0) c.total = { state: 'done', rows: c.tableRows };
      else this.count(c.id);
    } else if (!failed(doc)) {
      c.total = { state: 'done', rows: c.rows.length };
    }
    if (first) this.reveal(c.id);
  }

  /** ask asks a question with the model: a new card at the bottom. parent is
   * the card a follow-up chip was clicked on; a typed question in a
   * conversation builds on its last answer. asQuestion: ask even text that
   * compiles as SQL. */
  async ask(question: string, o: { parent?: number | null; asQuestion?: boolean; card?: number } = {}): Promise<void> {
    const q = question.trim();
    if (!q || !this.dataset) return;
    const my = ++this.seq;
    this.view = 'ask';
    // A follow-up chip (parent given) always follows up; a typed question
    // does when it reads as one (Go decides, and the answer says).
    const followUp: '' | 'yes' = o.parent !== undefined && o.parent !== null && o.card === undefined ? 'yes' : '';
    const parent = o.parent !== undefined ? o.parent : this.turns > 0 ? this.conversation : null;
    const typed = this.question.trim() === q;
    const c =
      (o.card !== undefined && this.card(o.card)) ||
      this.addCard({ source: 'ask', heading: q, question: q, taken: 'question', parent, pending: true, typed });
    if (o.card !== undefined) {
      c.heading = c.question = q;
      c.taken = 'question';
      c.pending = true;
    }
    this.busy = { kind: 'ask', label: i18n.m.ask.asking, question: q, card: c.id, progress: { stage: 'preparing', attempt: 0, attempts: 4, tokens: 0 }, started: Date.now() };
    this.banner = null;
    if (typed) this.question = '';
    try {
      const ans = o.asQuestion ? await api.Ask.AsQuestion(q) : await api.Ask.QuestionWith(q, followUp);
      if (my !== this.seq) return;
      // Text that compiles as SQL ran as SQL (ask.IsSQL): the card says so,
      // and offers to ask it as a question instead.
      const asSQL = ans.question === null && !o.asQuestion;
      const cancelledEarly = ans.errors?.some((e) => e.type === 'cancelled') && !ans.columns?.length;
      if (cancelledEarly) {
        // Stopped before any rows: nothing to keep but the question.
        this.removeCard(c.id);
        if (!this.question) this.question = q;
        return;
      }
      c.taken = asSQL ? 'sql' : 'question';
      this.fill(c, ans, asSQL ? 'sql' : 'ask', { heading: asSQL ? q : c.heading });
      const turns = ans.session_context?.turns;
      if (!asSQL && Array.isArray(turns)) {
        this.context = turns;
        if (!failed(ans)) this.conversation = c.id;
        // The card builds on what the question was read with, or on nothing.
        if (!ans.context_used?.length) c.parent = null;
      }
      if (failed(ans) && !this.question) this.question = q; // rephrase without retyping
      if (ans.errors?.some((e) => e.type === 'llm_unavailable' || e.type === 'model_missing')) this.checkOllama();
    } catch (e) {
      if (my === this.seq) {
        this.fail(e);
        if (!c.doc) this.removeCard(c.id);
        if (!this.question) this.question = q;
      }
    } finally {
      if (my === this.seq || this.busy?.kind === 'ask') this.busy = null;
    }
  }

  /** run runs SQL directly: in a card (the editor's Run, Re-run, "Run as
   * SQL"), or in a new one (the history, SQL typed in the question box). */
  async run(
    sql: string,
    o: { heading?: string; question?: string; fromEditor?: boolean; card?: number; typed?: boolean; fromHistory?: boolean } = {},
  ): Promise<void> {
    if (!sql.trim() || !this.dataset) return;
    const my = ++this.seq;
    this.view = 'ask';
    let c = o.card !== undefined ? this.card(o.card) : undefined;
    if (!c)
      c = this.addCard({
        source: 'sql',
        heading: o.heading ?? i18n.m.ask.yourSQL,
        question: o.question ?? '',
        taken: 'sql',
        pending: true,
        typed: !!o.typed,
        fromHistory: !!o.fromHistory,
      });
    this.busy = { kind: 'run', label: i18n.m.ask.running, card: c.id, progress: null, started: Date.now() };
    this.banner = null;
    if (o.typed && this.question.trim() === sql.trim()) this.question = '';
    try {
      const ans = await api.Results.Run(sql);
      if (my !== this.seq) return;
      this.fill(c, ans, 'sql', { heading: o.heading, fromEditor: o.fromEditor ?? false });
      if (o.typed && failed(ans) && !this.question) this.question = sql;
    } catch (e) {
      if (my === this.seq) {
        this.fail(e);
        if (!c.doc) this.removeCard(c.id);
        if (o.typed && !this.question) this.question = sql;
      }
    } finally {
      if (my === this.seq) this.busy = null;
    }
  }

  /** submit sends the question box's text: Go tells a question from SQL
   * (a sentence starting with "Select" is a question). */
  submit(): void {
    const q = this.question.trim();
    if (!q || !this.canAsk || this.busy) return;
    this.ask(q);
  }

  /** switchTaken answers a card's text the other way: "Run as SQL" for text
   * taken as a question, "Ask as a question" for text run as SQL. */
  switchTaken(id: number): void {
    const c = this.card(id);
    if (!c || this.busy) return;
    const text = c.question || c.heading;
    if (c.taken === 'question') {
      c.taken = 'sql';
      this.run(text, { card: c.id, heading: text, question: text });
    } else {
      this.ask(text, { asQuestion: true, card: c.id, parent: c.parent });
    }
  }

  /** rerun runs a card again: its question with the model, or its SQL. */
  rerun(id: number): void {
    const c = this.card(id);
    if (!c || this.busy) return;
    if (c.source === 'ask' && c.question) this.ask(c.question, { card: c.id, parent: c.parent });
    else if (c.source === 'preview' && c.table) this.preview(c.table, c.id);
    else if (c.sql) this.run(c.sql, { card: c.id, fromEditor: c.fromEditor });
  }

  /** preview shows a table's first rows; scrolling pages through the rest.
   * Browsing tables replaces a preview at the bottom rather than piling up. */
  async preview(table: string, cardId?: number): Promise<void> {
    const my = ++this.seq;
    this.view = 'ask';
    const t = this.schema?.tables?.find((x) => x.name === table);
    const tableRows = t && !t.row_count_estimated && t.row_count >= 0 ? t.row_count : -1;
    let c = cardId !== undefined ? this.card(cardId) : undefined;
    const last = this.thread.at(-1);
    if (!c && last && last.source === 'preview' && !this.busy) {
      c = last;
      c.table = table;
      c.heading = i18n.m.ask.previewOf(table);
      c.tableRows = tableRows;
      c.collapsed = false;
      c.doc = null;
      c.rows = [];
      c.pending = true;
      this.reveal(c.id);
    }
    if (!c) c = this.addCard({ source: 'preview', heading: i18n.m.ask.previewOf(table), table, tableRows, taken: 'sql', pending: true });
    this.busy = { kind: 'preview', label: i18n.m.ask.loadingTable(table), card: c.id, progress: null, started: Date.now() };
    this.banner = null;
    try {
      const ans = await api.Results.Preview(table);
      if (my !== this.seq) return;
      this.fill(c, ans, 'preview', { heading: i18n.m.ask.previewOf(table) });
    } catch (e) {
      if (my === this.seq) {
        this.fail(e);
        if (!c.doc) this.removeCard(c.id);
      }
    } finally {
      if (my === this.seq) this.busy = null;
    }
  }

  /** loadMore brings the next PAGE rows of a card's result ("load the next 1,000"; a preview's scrolling). */
  async loadMore(id: number): Promise<void> {
    const c = this.card(id);
    if (!c || !c.more || c.loading || !c.sql) return;
    c.loading = true;
    const rev = c.rev;
    try {
      const page = await api.Results.Page({ sql: c.sql, offset: c.rows.length, limit: PAGE });
      if (c.rev !== rev) return; // the card got a new result meanwhile
      if (page.errors?.length) {
        this.toast(i18n.m.state.nextRowsFailed(messageOf(page.errors[0])));
        c.more = false;
        return;
      }
      c.rows = c.rows.concat(answerRows(page));
      c.more = page.truncated;
      if (!c.more && c.total.state !== 'done') c.total = { state: 'done', rows: c.rows.length };
    } catch (e) {
      this.toast(i18n.m.state.nextRowsFailed(messageOf(errorDoc(e))));
    } finally {
      if (c.rev === rev) c.loading = false;
    }
  }

  /** count counts a truncated result's rows in the background. */
  async count(id: number): Promise<void> {
    const c = this.card(id);
    if (!c || !c.sql) return;
    for (const o of this.thread) if (o.id !== id && o.total.state === 'counting') o.total = { state: 'cancelled' };
    c.total = { state: 'counting' };
    const rev = c.rev;
    try {
      const r = await api.Results.Count(c.sql);
      if (c.rev === rev) c.total = { state: 'done', rows: r.rows };
    } catch (e) {
      if (c.rev !== rev) return;
      const d = errorDoc(e);
      c.total = d.type === 'cancelled' ? { state: 'cancelled' } : { state: 'failed', error: messageOf(d) };
    }
  }

  /** cancelCount stops a running count. */
  async cancelCount(id: number): Promise<void> {
    const c = this.card(id);
    if (c && c.total.state === 'counting') c.total = { state: 'cancelled' };
    try {
      await api.Results.CancelCount();
    } catch (e) {
      this.fail(e);
    }
  }

  /** markWrong marks a card's answer wrong in the history: it is never used
   * again as an example for the model. */
  async markWrong(id: number): Promise<boolean> {
    const c = this.card(id);
    if (!c || !c.question) return false;
    try {
      const found = await api.History.List({ text: c.question, limit: 50 });
      const e = found.find((h) => h.question === c.question && h.sql === (c.doc?.query ?? ''));
      if (!e) {
        this.toast(i18n.m.state.notInHistory);
        return false;
      }
      await api.History.MarkWrong(e.id, true);
      this.toast(i18n.m.state.markedWrong);
      return true;
    } catch (e) {
      this.fail(e);
      return false;
    }
  }

  /** showCorrected puts a corrected answer (History.Correct's) in its card. */
  showCorrected(id: number, doc: Answer): void {
    const c = this.card(id);
    if (c) this.fill(c, doc, 'sql', { fromEditor: true });
  }

  /** cancel stops what is running. */
  async cancel(): Promise<void> {
    const b = this.busy;
    if (!b) return;
    try {
      if (b.kind === 'ask') await api.Ask.Cancel();
      else await api.Results.Cancel();
    } catch (e) {
      this.fail(e);
    }
  }

  /** newConversation clears the thread and the context (the history keeps
   * every answer); "Undo" on its toast brings both back, once. */
  async newConversation(): Promise<void> {
    try {
      await api.Ask.NewConversation();
      const key = this.threadKey;
      this.undo = key ? { key, cards: this.snapshot(), turns: this.context } : null;
      this.clearThread();
      this.context = [];
      this.conversation = null;
      this.flushPersist();
      const undo = this.undo;
      this.toast(i18n.m.state.newConversation, undo && (undo.cards.length || undo.turns.length) ? { label: i18n.m.state.undo, run: () => this.undoNewConversation() } : undefined);
    } catch (e) {
      this.fail(e);
    }
  }

  /** undoNewConversation brings back the thread the last "New conversation" cleared. */
  async undoNewConversation(): Promise<void> {
    const u = this.undo;
    this.undo = null;
    if (!u || u.key !== this.threadKey) return;
    this.applyThread({ v: 1, cards: u.cards, turns: u.turns });
  }

  // ---- The stored thread (thread.ts) ----

  /** snapshot is the thread as stored: the cards with an answer. */
  private snapshot(): saved.SavedCard[] {
    const out: saved.SavedCard[] = [];
    for (const c of this.thread) {
      const doc = c.doc;
      if (!doc || c.pending) continue;
      out.push({
        id: c.id, source: c.source, heading: c.heading, question: c.question, taken: c.taken, sql: c.sql, table: c.table,
        tableRows: c.tableRows, parent: c.parent, collapsed: c.collapsed, fromEditor: c.fromEditor, chart: c.chart, tab: c.tab, doc,
      });
    }
    return out;
  }

  private schedulePersist(cards: saved.SavedCard[], turns: SessionTurn[]): void {
    const key = this.threadKey;
    if (!key) return;
    if (this.persistTimer) clearTimeout(this.persistTimer);
    this.persistTimer = setTimeout(() => {
      this.persistTimer = null;
      if (key === this.threadKey) saved.save(key, cards, turns);
    }, 400);
  }

  /** flushPersist stores the thread now (before a switch of database). */
  private flushPersist(): void {
    if (this.persistTimer) {
      clearTimeout(this.persistTimer);
      this.persistTimer = null;
    }
    if (this.threadKey) saved.save(this.threadKey, this.snapshot(), this.context);
  }

  /** restoreThread brings back the open database's stored thread and its
   * context; without one, the context starts fresh (a reload never carries
   * questions the page does not show). */
  private restoreThread(): void {
    const t = this.threadKey ? saved.load(this.threadKey) : null;
    if (t && t.cards.length) this.applyThread(t);
    else api.Ask.NewConversation().catch(() => {});
  }

  private applyThread(t: saved.SavedThread): void {
    const cards: Card[] = [];
    for (const s of t.cards.slice(-MAX_CARDS)) {
      const c = new Card(s.id);
      Object.assign(c, { source: s.source, heading: s.heading, question: s.question, taken: s.taken, sql: s.sql, table: s.table, tableRows: s.tableRows,
        parent: s.parent, fromEditor: s.fromEditor, chart: s.chart, tab: s.tab ?? 'table' });
      c.restored = true;
      this.fillRestored(c, s.doc);
      c.collapsed = s.collapsed;
      cards.push(c);
      this.cardSeq = Math.max(this.cardSeq, s.id);
    }
    this.thread = cards;
    this.context = t.turns;
    const last = [...cards].reverse().find((c) => c.source === 'ask' && c.doc && !failed(c.doc));
    this.conversation = last ? last.id : null;
    api.Ask.RestoreContext(t.turns).catch((e) => this.fail(e));
  }

  /** fillRestored puts a stored answer in a card (no count is started: a
   * cut result pages its rows in again when scrolled). */
  private fillRestored(c: Card, doc: Answer): void {
    c.doc = doc;
    c.rows = answerRows(doc);
    c.more = !failed(doc) && doc.truncated;
    c.total = !failed(doc) && !doc.truncated ? { state: 'done', rows: c.rows.length } : { state: 'idle' };
    c.rev++;
  }

  /** dropContext takes an earlier question out of the context before the next question. */
  async dropContext(t: SessionTurn): Promise<void> {
    try {
      this.context = await api.Ask.DropContext(t.time);
      if (!this.context.length) this.conversation = null;
    } catch (e) {
      this.fail(e);
    }
  }

  async checkOllama(): Promise<void> {
    this.ollamaChecking = true;
    try {
      this.ollama = await api.Ask.Status();
    } catch (e) {
      this.fail(e);
    } finally {
      this.ollamaChecking = false;
    }
  }

  async pullModel(name = 'qwen2.5-coder:7b'): Promise<void> {
    this.pull = { running: true, progress: null, error: null, done: false };
    try {
      await api.Ask.PullModel(name);
      this.pull = { running: false, progress: null, error: null, done: true };
      this.checkOllama();
    } catch (e) {
      this.pull = { running: false, progress: null, error: api.ApiError.from(e).toDoc(), done: false };
    }
  }

  async cancelPull(): Promise<void> {
    try {
      await api.Ask.CancelPull();
    } catch (e) {
      this.fail(e);
    }
  }

  async saveSettings(s: SettingsData): Promise<SettingsData> {
    const saved = await api.Settings.Save(s);
    const hostOrModelChanged = !this.settings || this.settings.ollama_host !== saved.ollama_host || this.settings.llm_url !== saved.llm_url || !!s.api_key || !!s.clear_api_key || this.settings.model !== saved.model;
    this.settings = saved;
    applyTheme(saved.theme);
    setLanguage(saved.language);
    if (hostOrModelChanged) this.checkOllama();
    return saved;
  }
}

export const app = new AppState();
