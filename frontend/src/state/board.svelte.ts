// The board of pinned answers (issue 25 §4) and the comparison of two
// answers side by side. The board is kept by Go in the data folder, per
// database (engine/board); this module holds what the page shows of it and
// calls Go through src/api.
import * as api from '../api';
import type { Answer, BoardPin, BoardView, ErrorDoc, Value } from '../api';
import { answerRows } from '../lib/rows';
import { i18n } from '../i18n/index.svelte';
import { app, errorDoc, type Card } from './app.svelte';

/** One side of a comparison: an answer with its rows. */
export interface Side {
  /** key tells the sides apart: "card:3" or "pin:ab12…". */
  key: string;
  heading: string;
  doc: Answer;
  rows: Value[][];
}

export class BoardState {
  /** open: the board is shown instead of the thread. */
  open = $state(false);
  view = $state.raw<BoardView | null>(null);
  busy = $state<'' | 'load' | 'rerun' | 'pin' | 'answer'>('');
  error = $state<ErrorDoc | null>(null);
  /** picked are the answers chosen for comparing (two: shown side by side). */
  picked = $state.raw<Side[]>([]);
  /** database is the board's key on the page: the dataset it was loaded for. */
  private database = '';

  get pins(): BoardPin[] {
    return this.view?.pins ?? [];
  }

  /** pinnedSQL says whether an SQL is on the board (the card's Pin shows "Pinned"). */
  pinned(sql: string): boolean {
    const s = sql.trim();
    return this.pins.some((p) => p.sql === s);
  }

  /** load reads the open database's board (again when the database changed). */
  async load(database: string): Promise<void> {
    if (database !== this.database) {
      this.database = database;
      this.view = null;
      this.picked = [];
      this.open = false;
    }
    this.busy = 'load';
    try {
      const v = await api.Board.List();
      if (this.database === database) this.view = v;
      this.error = null;
    } catch (e) {
      this.error = errorDoc(e);
    } finally {
      this.busy = '';
    }
  }

  reset(): void {
    this.database = '';
    this.view = null;
    this.picked = [];
    this.open = false;
    this.error = null;
  }

  /** pin keeps a card's answer on the board (its SQL run again by Go). */
  async pin(card: Card): Promise<void> {
    const sql = card.sql || card.doc?.query || '';
    if (!sql.trim()) return;
    this.busy = 'pin';
    try {
      const p = await api.Board.Pin({ question: card.source === 'ask' ? card.question : '', sql, chart: card.chart?.kind ?? card.doc?.visualization_suggestion ?? '' });
      const pins = this.pins.filter((x) => x.id !== p.id);
      this.view = { database: this.view?.database ?? '', pins: [...pins, p] };
      app.toast(i18n.m.board.pinnedToast);
    } catch (e) {
      app.toast(errorDoc(e).message);
    } finally {
      this.busy = '';
    }
  }

  async unpin(id: string): Promise<void> {
    try {
      await api.Board.Unpin(id);
      this.view = { database: this.view?.database ?? '', pins: this.pins.filter((p) => p.id !== id) };
      this.picked = this.picked.filter((s) => s.key !== 'pin:' + id);
    } catch (e) {
      this.error = errorDoc(e);
    }
  }

  async setNote(id: string, note: string): Promise<void> {
    try {
      const p = await api.Board.SetNote(id, note);
      this.view = { database: this.view?.database ?? '', pins: this.pins.map((x) => (x.id === id ? p : x)) };
      app.toast(i18n.m.board.noteSaved);
    } catch (e) {
      this.error = errorDoc(e);
    }
  }

  /** rerunAll runs every pinned SQL again against the database as it is now. */
  async rerunAll(): Promise<void> {
    this.busy = 'rerun';
    try {
      this.view = await api.Board.RerunAll();
      this.error = null;
    } catch (e) {
      this.error = errorDoc(e);
    } finally {
      this.busy = '';
    }
  }

  /** pick chooses an answer to compare; a second one opens the comparison
   * (a third replaces the older of the two). Choosing one again unchooses it. */
  pick(side: Side): void {
    if (this.picked.some((s) => s.key === side.key)) {
      this.picked = this.picked.filter((s) => s.key !== side.key);
      return;
    }
    this.picked = [...this.picked, side].slice(-2);
  }

  pickCard(card: Card): void {
    if (!card.doc) return;
    this.pick({ key: 'card:' + card.id, heading: card.heading, doc: card.doc, rows: card.rows });
  }

  /** pickPin runs a card's SQL now (Go) and chooses its answer. */
  async pickPin(p: BoardPin): Promise<void> {
    const key = 'pin:' + p.id;
    if (this.picked.some((s) => s.key === key)) {
      this.picked = this.picked.filter((s) => s.key !== key);
      return;
    }
    this.busy = 'answer';
    try {
      const doc = await api.Board.Answer(p.id);
      this.pick({ key, heading: p.question || p.sql, doc, rows: answerRows(doc) });
    } catch (e) {
      this.error = errorDoc(e);
    } finally {
      this.busy = '';
    }
  }

  chosen(key: string): boolean {
    return this.picked.some((s) => s.key === key);
  }

  closeCompare(): void {
    this.picked = [];
  }
}

export const board = new BoardState();
