// The open database's columns marked sensitive (issue 28): their values
// never reach a model or an agent. The schema view shows and toggles the
// marks, and offers the columns that look like personal data (never marked
// silently: "Not now" is remembered per database for the session).
import * as api from '../api';
import type { SensitiveLikely, SensitiveList } from '../api/types.gen';
import type { ErrorDoc } from '../api/types';
import { errorDoc } from './app.svelte';

/** columnName is a mark's or a likely column's "Table.Column". */
export const columnName = (c: { table: string; column: string }): string => `${c.table}.${c.column}`;

class SensitiveState {
  marks = $state<string[]>([]);
  likely = $state<SensitiveLikely[]>([]);
  error = $state<ErrorDoc | null>(null);
  busy = $state(false);
  /** dismissed holds the databases whose offer was put off ("Not now"). */
  dismissed = $state<Record<string, boolean>>({});
  key = $state('');
  private seq = 0;

  private set(l: SensitiveList): void {
    this.marks = (l.marks ?? []).map(columnName);
    this.likely = l.likely ?? [];
  }

  /** load reads the marks of the database open now (its key). */
  async load(key: string): Promise<void> {
    const my = ++this.seq;
    this.key = key;
    this.error = null;
    try {
      const l = await api.Sensitive.List();
      if (my === this.seq) this.set(l);
    } catch (e) {
      if (my === this.seq) {
        this.marks = [];
        this.likely = [];
        this.error = errorDoc(e);
      }
    }
  }

  has(table: string, column: string): boolean {
    const n = `${table}.${column}`.toLowerCase();
    return this.marks.some((m) => m.toLowerCase() === n);
  }

  /** toggle marks the column, or unmarks a marked one. */
  async toggle(table: string, column: string): Promise<void> {
    await this.change([`${table}.${column}`], !this.has(table, column));
  }

  /** markLikely marks every column offered. */
  async markLikely(): Promise<void> {
    await this.change(this.likely.map(columnName), true);
  }

  private async change(names: string[], add: boolean): Promise<void> {
    this.busy = true;
    this.error = null;
    try {
      for (const n of names) this.set(add ? await api.Sensitive.Add(n) : await api.Sensitive.Remove(n));
    } catch (e) {
      this.error = errorDoc(e);
    } finally {
      this.busy = false;
    }
  }

  /** offered is the likely columns to offer now ([] once put off). */
  get offered(): SensitiveLikely[] {
    return this.dismissed[this.key] ? [] : this.likely;
  }

  notNow(): void {
    this.dismissed[this.key] = true;
  }

  reset(): void {
    this.seq++;
    this.key = '';
    this.marks = [];
    this.likely = [];
    this.error = null;
  }
}

export const sensitiveCols = new SensitiveState();
