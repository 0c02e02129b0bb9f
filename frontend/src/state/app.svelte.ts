// The page's state and the actions on it, in one place: what is open, what
// is running, what is shown. Components read it and call its methods; only
// src/state (this module, eval.svelte.ts and files.ts for the import and
// export dialogs and the history) starts work in Go, through src/api.
import * as api from '../api';
import type { Answer, AskProgress, DatasetInfo, ErrorDoc, OllamaStatus, PullProgress, RecentFile, Schema, SettingsData, Value } from '../api';
import type { Transport } from '../api/transport';
import { answerRows } from '../lib/rows';
import { applyTheme } from '../lib/theme';
import { EvalState } from './eval.svelte';

export type { EvalRun, DraftState } from './eval.svelte';

export type Source = 'ask' | 'sql' | 'preview';

/** Shown is the answer on screen, with its rows as arrays. */
export interface Shown {
  id: number;
  doc: Answer;
  rows: Value[][];
  source: Source;
  /** heading: the question, "Preview of Album", or "Your SQL". */
  heading: string;
  /** question asked, for "Ask again" and the export's provenance. */
  question: string;
  /** fromEditor: the SQL came from the editor (keep its layout). */
  fromEditor: boolean;
}

export type BusyKind = 'open' | 'ask' | 'run' | 'preview';

export interface Busy {
  kind: BusyKind;
  label: string;
  /** question is the question being asked (kind ask). */
  question?: string;
  progress: AskProgress | null;
  started: number;
}

export type Panel = null | 'history' | 'settings' | 'import' | 'export' | 'open' | 'ollama';

/** View is what the area under the top bar shows: questions and answers, or "Evaluate models". */
export type View = 'ask' | 'evaluate';

export interface Toast {
  id: number;
  text: string;
}

/** errorDoc turns whatever a call rejected with into an error document
 * (type "cancelled" when the user stopped it), for a component to show. */
export function errorDoc(e: unknown): ErrorDoc {
  return api.ApiError.from(e).toDoc();
}

const SQL_EXTENSIONS = /\.(sqlite3?|db3?|s3db|sl3)$/i;
const IMPORT_EXTENSIONS = /\.(csv|tsv|txt|xlsx|xlsm)$/i;

class AppState {
  booted = $state(false);
  unauthorized = $state(false);
  mode = $state<'desktop' | 'browser'>('browser');
  dataset = $state<DatasetInfo | null>(null);
  schema = $state.raw<Schema | null>(null);
  schemaLoading = $state(false);
  recent = $state<RecentFile[]>([]);
  settings = $state<SettingsData | null>(null);
  version = $state('');
  ollama = $state<OllamaStatus | null>(null);
  ollamaChecking = $state(false);
  shown = $state.raw<Shown | null>(null);
  busy = $state<Busy | null>(null);
  /** banner is a failure of a call itself (not of a query: those are in the answer). */
  banner = $state<ErrorDoc | null>(null);
  pull = $state<{ running: boolean; progress: PullProgress | null; error: ErrorDoc | null; done: boolean }>({
    running: false,
    progress: null,
    error: null,
    done: false,
  });
  turns = $state(0);
  panel = $state<Panel>(null);
  /** importFiles preset for the import dialog (a drop of CSV files). */
  importPreset = $state<string[]>([]);
  question = $state('');
  toasts = $state<Toast[]>([]);
  title = $state('Querent');
  view = $state<View>('ask');
  /** evaluation is "Evaluate models": gold set, models, run, result, draft. */
  readonly evaluation: EvalState = new EvalState(this);

  private seq = 0;
  private shownSeq = 0;
  private toastSeq = 0;

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

  get canAsk(): boolean {
    return !!this.dataset && !(this.busy && this.busy.kind === 'open');
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
      if (this.busy && (this.busy.kind === 'ask' || this.busy.kind === 'run')) this.busy.progress = p;
      // The explanation streams in once the rows are shown.
      if (p.stage === 'explaining' && p.text && this.busy?.kind === 'ask' && this.shown?.source === 'ask' && this.shown.question === this.busy.question) {
        this.shown.doc.explanation = p.text;
      }
    });
    api.on('ask:rows', (doc) => {
      // The rows, as soon as the SQL ran; the explanation follows.
      if (doc && this.busy?.kind === 'ask' && this.busy.question) this.show(doc, 'ask', this.busy.question, this.busy.question);
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

  private fail(e: unknown): void {
    const err = api.ApiError.from(e);
    if (err.type === 'unauthorized') {
      this.unauthorized = true;
      return;
    }
    this.banner = err.toDoc();
  }

  setTitle(title: string): void {
    if (!title) return;
    this.title = title;
    if (typeof document !== 'undefined') document.title = title;
  }

  toast(text: string): void {
    const id = ++this.toastSeq;
    this.toasts = [...this.toasts.filter((t) => t.text !== text), { id, text }].slice(-3);
    setTimeout(() => (this.toasts = this.toasts.filter((t) => t.id !== id)), 3500);
  }

  /** Takes a file off the recent list (a moved or deleted one, say). */
  forgetRecent(path: string): void {
    api.Datasets.ForgetRecent(path).then(
      (r) => (this.recent = r),
      (e) => this.toast(`Could not update the recent files: ${e instanceof Error ? e.message : String(e)}`),
    );
  }

  loadRecent(): void {
    api.Datasets.Recent().then(
      (r) => (this.recent = r),
      () => {},
    );
  }

  private datasetChanged(info: DatasetInfo): void {
    const changed = !this.dataset || this.dataset.path !== info.path || this.dataset.name !== info.name;
    this.dataset = info;
    this.setTitle(info.title);
    if (changed || !this.schema) {
      this.shown = null;
      this.turns = 0;
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
        message: ev.running ? 'An evaluation is running on this database' : 'A gold set is being drafted from this database',
        hint: 'wait for it to end, or press Cancel in Evaluate, then open the other database',
        query: '',
      };
      return false;
    }
    this.busy = { kind: 'open', label: path ? 'Opening the file…' : 'Opening the demo database…', progress: null, started: Date.now() };
    this.banner = null;
    try {
      const info = path ? await api.Datasets.Open(path) : await api.Datasets.OpenDemo();
      this.dataset = null; // force a fresh schema and an empty answer area
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

  private show(doc: Answer, source: Source, heading: string, question: string, fromEditor = false): void {
    this.shown = { id: ++this.shownSeq, doc, rows: answerRows(doc), source, heading, question, fromEditor };
    const turns = doc.session_context?.turns;
    if (source === 'ask' && Array.isArray(turns)) this.turns = turns.length;
  }

  /** ask asks a question with the model. */
  async ask(question: string): Promise<void> {
    const q = question.trim();
    if (!q || !this.dataset) return;
    const my = ++this.seq;
    this.view = 'ask';
    this.busy = { kind: 'ask', label: 'Asking', question: q, progress: { stage: 'preparing', attempt: 0, attempts: 4, tokens: 0 }, started: Date.now() };
    this.banner = null;
    this.question = '';
    try {
      const ans = await api.Ask.Question(q);
      if (my !== this.seq) return;
      this.show(ans, 'ask', q, q);
      if (ans.errors?.some((e) => e.type === 'llm_unavailable' || e.type === 'model_missing')) this.checkOllama();
    } catch (e) {
      if (my === this.seq) {
        this.fail(e);
        this.question = q;
      }
    } finally {
      if (my === this.seq || this.busy?.kind === 'ask') this.busy = null;
    }
  }

  /** run runs SQL directly (the editor's Run, the history). */
  async run(sql: string, o: { heading?: string; question?: string; fromEditor?: boolean } = {}): Promise<void> {
    if (!sql.trim() || !this.dataset) return;
    const my = ++this.seq;
    this.view = 'ask';
    this.busy = { kind: 'run', label: 'Running the query', progress: null, started: Date.now() };
    this.banner = null;
    try {
      const ans = await api.Results.Run(sql);
      if (my !== this.seq) return;
      this.show(ans, 'sql', o.heading ?? 'Your SQL', o.question ?? '', o.fromEditor ?? false);
    } catch (e) {
      if (my === this.seq) this.fail(e);
    } finally {
      if (my === this.seq) this.busy = null;
    }
  }

  /** preview shows a table's first rows. */
  async preview(table: string): Promise<void> {
    const my = ++this.seq;
    this.busy = { kind: 'preview', label: `Loading ${table}`, progress: null, started: Date.now() };
    this.banner = null;
    try {
      const ans = await api.Results.Preview(table);
      if (my !== this.seq) return;
      this.show(ans, 'preview', `Preview of ${table}`, '');
    } catch (e) {
      if (my === this.seq) this.fail(e);
    } finally {
      if (my === this.seq) this.busy = null;
    }
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

  async newConversation(): Promise<void> {
    try {
      await api.Ask.NewConversation();
      this.turns = 0;
      this.toast('New conversation: the next question starts fresh.');
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
    const hostOrModelChanged = !this.settings || this.settings.ollama_host !== saved.ollama_host || this.settings.model !== saved.model;
    this.settings = saved;
    applyTheme(saved.theme);
    if (hostOrModelChanged) this.checkOllama();
    return saved;
  }
}

export const app = new AppState();
