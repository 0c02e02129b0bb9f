// "Evaluate models": which gold set, which models, how many tries; the run
// with its progress and Cancel; the result; drafting a gold set from the
// open database. Only this module (through src/api) starts an evaluation.
import * as api from '../api';
import { i18n } from '../i18n/index.svelte';
import { hintOf, messageOf } from '../lib/said';
import type { DatasetInfo, DraftResult, ErrorDoc, EvalProgress, EvalResult, GoldSetInfo, OllamaStatus } from '../api';

/** What the evaluation needs of the page's state. */
export interface EvalHost {
  readonly dataset: DatasetInfo | null;
  readonly ollama: OllamaStatus | null;
  readonly mode: 'desktop' | 'browser';
  checkOllama(): Promise<void>;
}

/** A run in progress: the last event and the running counts per model. */
export interface EvalRun {
  models: string[];
  k: number;
  progress: EvalProgress | null;
  /** Scored questions and matches so far, per model. */
  scored: Record<string, number>;
  matches: Record<string, number>;
  started: number;
}

export interface DraftState {
  open: boolean;
  n: number;
  /** "" drafts with the default model. */
  model: string;
  out: string;
  running: boolean;
  kept: number;
  want: number;
  error: ErrorDoc | null;
  /** exists: the file is there already (offer to replace it). */
  exists: boolean;
  /** stopped: Cancel ended the draft (nothing was saved). */
  stopped: boolean;
  result: DraftResult | null;
}

export const MAX_K = 5;

const isUsage = (e: ErrorDoc) => e.type === 'usage';

export class EvalState {
  /** The built-in gold sets. */
  sets = $state<GoldSetInfo[]>([]);
  /** Gold set files loaded (chosen, typed or drafted), newest first. */
  files = $state<GoldSetInfo[]>([]);
  loading = $state(false);
  /** gold is the chosen set's name (what Run takes). */
  gold = $state('');
  /** goldError: the chosen file could not be read (every mistake listed). */
  goldError = $state<ErrorDoc | null>(null);
  goldLoading = $state(false);
  /** askPath: no file dialog here (browser mode): type the path. */
  askPath = $state(false);
  models = $state<string[]>([]);
  k = $state(1);
  lenient = $state(false);
  running = $state(false);
  run = $state<EvalRun | null>(null);
  result = $state.raw<EvalResult | null>(null);
  /** error: the run could not start or failed (not a stop: that is in result.errors). */
  error = $state<ErrorDoc | null>(null);
  draft = $state<DraftState>({
    open: false,
    n: 30,
    model: '',
    out: '',
    running: false,
    kept: 0,
    want: 0,
    error: null,
    exists: false,
    stopped: false,
    result: null,
  });

  /** touched: the user ticked or unticked a model (stop ticking the default). */
  private touched = false;
  /** prepared: the view was opened once (load again when the database changes). */
  private prepared = false;

  constructor(private readonly host: EvalHost) {}

  /** reset forgets every choice and result (a fresh start, and tests). */
  reset(): void {
    this.sets = [];
    this.files = [];
    this.gold = '';
    this.goldError = null;
    this.askPath = false;
    this.models = [];
    this.k = 1;
    this.lenient = false;
    this.running = false;
    this.run = null;
    this.result = null;
    this.error = null;
    this.draft = { open: false, n: 30, model: '', out: '', running: false, kept: 0, want: 0, error: null, exists: false, stopped: false, result: null };
    this.touched = false;
    this.prepared = false;
  }

  /** installed lists the chat models Ollama has. */
  get installed(): string[] {
    return (this.host.ollama?.models ?? []).map((m) => m.name);
  }

  /** chosen is the chosen gold set's description. */
  get chosen(): GoldSetInfo | null {
    return this.files.find((g) => g.name === this.gold) ?? this.sets.find((g) => g.name === this.gold) ?? null;
  }

  /** questions is how many questions a run asks (items × tries × models). */
  get questions(): number {
    return (this.chosen?.items ?? 0) * this.k * this.models.length;
  }

  get canRun(): boolean {
    return !!this.host.dataset && !!this.chosen && this.models.length > 0 && !this.running && !this.draft.running && !!this.host.ollama?.running;
  }

  /** prepare loads what the view shows: the gold sets (which fit the open
   * database), the default model ticked, where a draft would go. */
  async prepare(): Promise<void> {
    this.prepared = true;
    this.tickDefault();
    if (!this.host.ollama) this.host.checkOllama().then(() => this.tickDefault());
    await this.loadSets();
    if (!this.draft.out) {
      api.Evaluate.DefaultDraftName().then(
        (p) => {
          if (!this.draft.out) this.draft.out = p;
        },
        () => {},
      );
    }
  }

  /** tickDefault ticks the model questions use, until the user ticks their own;
   * models no longer installed are unticked. */
  tickDefault(): void {
    const installed = this.installed;
    if (!this.host.ollama?.running) return;
    const kept = this.models.filter((m) => installed.includes(m));
    if (kept.length !== this.models.length) this.models = kept;
    const def = this.host.ollama.model;
    if (!this.touched && this.models.length === 0 && def && installed.includes(def)) this.models = [def];
  }

  /** loadSets lists the built-in sets and reads the loaded files again (a
   * new database changes which fit); the first set that fits is chosen
   * when none is. */
  async loadSets(): Promise<void> {
    this.loading = true;
    try {
      this.sets = await api.Evaluate.GoldSets();
      const files: GoldSetInfo[] = [];
      for (const f of this.files) {
        try {
          files.push(await api.Evaluate.LoadGold(f.name));
        } catch {
          if (f.name === this.gold) this.gold = '';
        }
      }
      this.files = files;
      if (!this.chosen) this.gold = (this.sets.find((s) => s.fits) ?? this.files.find((s) => s.fits))?.name ?? '';
    } catch (e) {
      this.error = api.ApiError.from(e).toDoc();
    } finally {
      this.loading = false;
    }
  }

  choose(name: string): void {
    this.gold = name;
    this.goldError = null;
  }

  toggleModel(name: string, on: boolean): void {
    this.touched = true;
    const rest = this.models.filter((m) => m !== name);
    // Keep the installed order, whatever the order of the clicks.
    const next = on ? [...rest, name] : rest;
    const order = this.installed;
    this.models = next.sort((a, b) => order.indexOf(a) - order.indexOf(b));
  }

  setK(k: number): void {
    this.k = Math.min(MAX_K, Math.max(1, Math.round(Number.isFinite(k) ? k : 1)));
  }

  /** chooseFile shows the open dialog for a gold set file; without one
   * (the browser mode) the view asks for the path instead. */
  async chooseFile(): Promise<void> {
    if (this.host.mode === 'browser') {
      this.askPath = true;
      return;
    }
    try {
      const path = await api.Evaluate.ChooseGoldFile();
      if (path) await this.loadFile(path);
    } catch (e) {
      const err = api.ApiError.from(e).toDoc();
      if (isUsage(err)) this.askPath = true;
      else this.goldError = err;
    }
  }

  /** loadFile checks a gold set file and chooses it. */
  async loadFile(path: string): Promise<boolean> {
    const p = path.trim();
    if (!p) return false;
    this.goldLoading = true;
    this.goldError = null;
    try {
      const info = await api.Evaluate.LoadGold(p);
      this.remember(info);
      this.gold = info.name;
      return true;
    } catch (e) {
      this.goldError = api.ApiError.from(e).toDoc();
      return false;
    } finally {
      this.goldLoading = false;
    }
  }

  private remember(info: GoldSetInfo): void {
    if (info.builtin) return;
    this.files = [info, ...this.files.filter((f) => f.name !== info.name)];
  }

  /** start runs the evaluation: every question of the chosen set, of each
   * ticked model, k times. Cancel makes it return what was done. */
  async start(): Promise<void> {
    if (!this.canRun || !this.chosen) return;
    const req = { gold: this.chosen.name, models: [...this.models], k: this.k, lenient: this.lenient };
    this.running = true;
    this.error = null;
    this.result = null;
    this.run = { models: req.models, k: req.k, progress: null, scored: {}, matches: {}, started: Date.now() };
    const off = api.on('eval:progress', (p) => this.progress(p));
    try {
      this.result = await api.Evaluate.Run(req);
    } catch (e) {
      this.error = api.ApiError.from(e).toDoc();
      if (this.error.type === 'llm_unavailable' || this.error.type === 'model_missing') this.host.checkOllama();
    } finally {
      off();
      this.running = false;
      this.run = null;
    }
  }

  private progress(p: EvalProgress): void {
    const r = this.run;
    if (!r) return;
    r.progress = p;
    if (p.scored && p.model) {
      r.scored[p.model] = (r.scored[p.model] ?? 0) + 1;
      if (p.match) r.matches[p.model] = (r.matches[p.model] ?? 0) + 1;
    }
  }

  /** cancel stops a run or a draft (Go stops both with one call). */
  async cancel(): Promise<void> {
    try {
      await api.Evaluate.Cancel();
    } catch (e) {
      this.error = api.ApiError.from(e).toDoc();
    }
  }

  openDraft(open = true): void {
    this.draft.open = open;
    if (open) {
      this.draft.error = null;
      this.draft.exists = false;
      this.draft.stopped = false;
    }
  }

  /** chooseDraftFile shows the save dialog (desktop); the browser mode types the path. */
  async chooseDraftFile(): Promise<void> {
    try {
      const p = await api.Evaluate.ChooseDraftFile();
      if (p) {
        this.draft.out = p;
        this.draft.exists = false;
      }
    } catch (e) {
      const err = api.ApiError.from(e).toDoc();
      if (!isUsage(err)) this.draft.error = err;
    }
  }

  /** startDraft asks a model to draft a gold set about the open database
   * and saves it; the drafted file is then chosen. force replaces an
   * existing file (after the user said so). */
  async startDraft(force = false): Promise<void> {
    const d = this.draft;
    if (d.running || !this.host.dataset) return;
    const out = d.out.trim();
    if (!out) {
      d.error = { type: 'usage', message: i18n.m.state.noDraftFile, hint: i18n.m.state.noDraftFileHint, query: '' };
      return;
    }
    d.running = true;
    d.error = null;
    d.exists = false;
    d.stopped = false;
    d.result = null;
    d.kept = 0;
    d.want = d.n;
    const off = api.on('eval:draft', (p) => {
      d.kept = p.kept;
      d.want = p.want;
    });
    try {
      const res = await api.Evaluate.Draft({ out, n: d.n, model: d.model, force });
      d.result = res;
      d.out = res.out;
      if (res.gold) {
        this.remember(res.gold);
        this.gold = res.gold.name;
        this.goldError = null;
      } else {
        await this.loadFile(res.out);
      }
    } catch (e) {
      const err = api.ApiError.from(e).toDoc();
      if (err.type === 'cancelled') d.stopped = true;
      else if (err.key === 'eval.exists') d.exists = true;
      else if (err.type === 'export')
        d.error = { type: 'usage', message: i18n.m.state.draftSaveFailed(messageOf(err)), hint: hintOf(err) || i18n.m.state.draftSaveFailedHint, query: '' };
      else d.error = err;
      if (err.type === 'llm_unavailable' || err.type === 'model_missing') this.host.checkOllama();
    } finally {
      off();
      d.running = false;
    }
  }

  /** datasetChanged: another database is open; which sets fit changes. */
  datasetChanged(): void {
    if (!this.prepared) return;
    this.draft.out = '';
    this.draft.result = null;
    this.goldError = null;
    const chosen = this.chosen;
    if (chosen?.builtin) this.gold = '';
    this.prepare();
  }
}
