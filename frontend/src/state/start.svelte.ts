// The start view: the open database's profile (its tables as cards, the
// joins) and the suggested questions with their answers already run
// (Datasets.Explore). It loads once per database and language, and stays
// one click away (the "Overview" button) once the thread has cards.
import * as api from '../api';
import type { Explore, ProfileColumn, ProfileTable } from '../api/types.gen';
import type { ErrorDoc } from '../api/types';
import { errorDoc } from './app.svelte';
import { i18n } from '../i18n/index.svelte';

/** nullShare is the share (0…1) of a column's profiled rows that are NULL. */
export function nullShare(c: Pick<ProfileColumn, 'nulls'>, t: Pick<ProfileTable, 'rows' | 'profiled_rows' | 'sampled'>): number {
  const rows = t.sampled ? t.profiled_rows : t.rows;
  if (!rows || rows <= 0 || c.nulls <= 0) return 0;
  return Math.min(1, c.nulls / rows);
}

/** percent writes a share as the page's locale writes a percentage: at most
 * one decimal, and never "0 %" for a share above nothing. */
export function percent(share: number, locale: string): string {
  const f = new Intl.NumberFormat(locale, { style: 'percent', maximumFractionDigits: 1 });
  if (share > 0 && share < 0.001) return '< ' + f.format(0.001);
  return f.format(share);
}

class StartState {
  /** explore is the loaded content; null before it loads. */
  explore = $state<Explore | null>(null);
  loading = $state(false);
  error = $state<ErrorDoc | null>(null);
  /** open: the start view is shown above a thread that has cards. */
  open = $state(false);
  private key = '';
  private seq = 0;

  /** load fetches the start view for a database (its key) in the page's
   * language, unless it is already loaded or loading. */
  async load(key: string, force = false): Promise<void> {
    const k = key + '|' + i18n.lang;
    if (!force && k === this.key) return;
    this.key = k;
    const my = ++this.seq;
    this.loading = true;
    this.error = null;
    if (!force) this.explore = null;
    try {
      const ex = await api.Datasets.Explore(i18n.lang);
      if (my === this.seq) this.explore = ex;
    } catch (e) {
      if (my === this.seq) this.error = errorDoc(e);
    } finally {
      if (my === this.seq) this.loading = false;
    }
  }

  /** reset forgets the loaded content (another database, none open). */
  reset(): void {
    this.seq++;
    this.key = '';
    this.explore = null;
    this.error = null;
    this.loading = false;
    this.open = false;
  }
}

export const start = new StartState();
