// The analyst's verdict on a card's answer (issue 23): approve it, or
// correct it with SQL of their own. Both find the card's question in the
// history (the answer as the model gave it) and call the History service;
// only verified answers are ever examples for the model.
import * as api from '../api';
import { i18n } from '../i18n/index.svelte';
import { app, type Card } from './app.svelte';

/** entryOf is the history entry of a card's question: for an answer of the
 * model, the one with its SQL; for SQL run in the card, the newest. */
export async function entryOf(card: Card): Promise<number | null> {
  const found = await api.History.List({ all: false, saved: false, text: card.question, limit: 50 });
  const asked = card.source === 'ask' ? (card.doc?.query ?? '') : null;
  const e = found.find((h) => h.question === card.question && (asked === null || h.sql === asked));
  if (!e) app.toast(i18n.m.state.notInHistory);
  return e ? e.id : null;
}

/** approve marks the card's answer right. */
export async function approve(card: Card): Promise<boolean> {
  try {
    const id = await entryOf(card);
    if (id === null) return false;
    await api.History.Approve(id);
    app.toast(i18n.m.verdict.approvedToast);
    return true;
  } catch (e) {
    app.fail(e);
    return false;
  }
}

/** correct replaces the card's answer by the result of sql, checked and run
 * by Go; refused, the card and the entry stay as they were (the banner
 * says why). */
export async function correct(card: Card, sql: string): Promise<boolean> {
  try {
    const id = await entryOf(card);
    if (id === null) return false;
    const ans = await api.History.Correct(id, sql);
    app.showCorrected(card.id, ans);
    app.banner = null; // a refusal shown before is answered
    app.toast(i18n.m.verdict.correctedToast);
    return true;
  } catch (e) {
    app.fail(e);
    return false;
  }
}
