// Evaluations in words and numbers: where a run is ("question 12 of 69"),
// scores as percentages, the best model, each question's outcome per model.
import type { EvalItem, EvalProgress, EvalResult, ItemScore, ModelReport } from '../api/types';
import { i18n } from '../i18n/index.svelte';
import { oneDecimal } from './format';

/** pct writes a 0..1 score as a percentage: 100%, 0%, 87.5%; null is "—". */
export function pct(x: number | null | undefined): string {
  if (x === null || x === undefined || !isFinite(x)) return '—';
  const v = x * 100;
  return Math.abs(v - Math.round(v)) < 0.05 ? i18n.m.eval.percent(String(Math.round(v))) : i18n.m.eval.percent(oneDecimal(v));
}

/** Where a run is, from one progress event. */
export interface Position {
  model: string;
  /** n of items: the question of the gold set being asked (1-based). */
  n: number;
  items: number;
  try: number;
  k: number;
  question: string;
}

/** position reads a progress event of a run of `models` models: Go counts
 * done of total over every model's questions (items × k each, one model
 * after the other). */
export function position(p: EvalProgress, models: number): Position {
  const k = Math.max(1, p.k);
  const perModel = Math.max(1, Math.round(p.total / Math.max(1, models)));
  const items = Math.max(1, Math.round(perModel / k));
  const finished = Math.max(0, p.scored ? p.done - 1 : p.done);
  const pos = finished % perModel;
  return { model: p.model, n: (pos % items) + 1, items, try: Math.max(1, p.try), k, question: p.question };
}

/** progressLine: "qwen2.5-coder:7b — question 12 of 69: How many…" (with
 * ", try 2 of 3" when each question is asked more than once). */
export function progressLine(p: Position): string {
  const E = i18n.m.eval;
  return `${p.model} — ${E.questionOf(p.n, p.items)}${p.k > 1 ? E.tryOf(p.try, p.k) : ''}${p.question ? `: ${p.question}` : ''}`;
}

/** modelName is a report's model (predictions have none). */
export function modelName(m: ModelReport): string {
  return m.model ?? m.source ?? '';
}

/** best names the best model of a comparison: the highest accuracy, then
 * the fewest false refusals, then the fastest median answer. "" with one
 * model, or when no model answered anything right. */
export function best(models: ModelReport[]): string {
  if (models.length < 2) return '';
  const lat = (m: ModelReport) => m.latency_p50_s ?? Infinity;
  const sorted = [...models].sort(
    (a, b) => b.execution_accuracy - a.execution_accuracy || a.false_refusals - b.false_refusals || lat(a) - lat(b),
  );
  return sorted[0].execution_accuracy > 0 ? modelName(sorted[0]) : '';
}

/** outcomeLabel says an outcome in plain words; an unanswerable question is
 * right when the model declines it. */
export function outcomeLabel(outcome: string, unanswerable = false): string {
  const O = i18n.m.eval.outcomes;
  switch (outcome) {
    case 'match':
      return unanswerable ? O.declinedRightly : O.right;
    case 'wrong_result':
      return unanswerable ? O.answered : O.wrong;
    case 'failed':
      return O.failed;
    case 'abstained':
      return unanswerable ? O.declined : O.falseRefusal;
    case 'missing':
      return O.notAsked;
    default:
      return outcome.replace(/_/g, ' ');
  }
}

/** Cell is one model's answers to one question (k tries). */
export interface Cell {
  model: string;
  tries: ItemScore[];
  matches: number;
  /** all: every try right; none: no try right; some: in between; none asked: missing. */
  verdict: 'all' | 'some' | 'none' | 'missing';
  /** The outcome in words (of the first try that went wrong, else of the first). */
  label: string;
  /** Why, for the tooltip: each try's reason. */
  reason: string;
}

/** Row is one question of the per-question table. */
export interface Row {
  item: EvalItem;
  /** 1-based number in the gold set. */
  n: number;
  cells: Cell[];
  /** missed: some model got it wrong at least once. */
  missed: boolean;
  /** disagree: the models' verdicts differ. */
  disagree: boolean;
}

/** rows builds the per-question table: a row per gold question, a cell per model. */
export function rows(result: EvalResult): Row[] {
  const byModel = result.models.map((m) => {
    const map = new Map<string, ItemScore[]>();
    for (const s of m.items) {
      const l = map.get(s.id);
      if (l) l.push(s);
      else map.set(s.id, [s]);
    }
    return { name: modelName(m), map };
  });
  return result.items.map((item, i) => {
    const cells = byModel.map(({ name, map }): Cell => {
      const tries = [...(map.get(item.id) ?? [])].sort((a, b) => a.try - b.try);
      const asked = tries.filter((t) => t.outcome !== 'missing');
      const matches = tries.filter((t) => t.match).length;
      const verdict: Cell['verdict'] =
        asked.length === 0 ? 'missing' : matches === tries.length ? 'all' : matches === 0 ? 'none' : 'some';
      const shown = tries.find((t) => !t.match) ?? tries[0];
      const label = shown ? outcomeLabel(shown.outcome, item.unanswerable) : i18n.m.eval.outcomes.notAsked;
      const reason = tries
        .map((t) => {
          const why = t.reason || outcomeLabel(t.outcome, item.unanswerable);
          return tries.length > 1 ? i18n.m.eval.tryWhy(t.try, why) : why;
        })
        .join('\n');
      return { model: name, tries, matches, verdict, label, reason };
    });
    const verdicts = new Set(cells.map((c) => c.verdict));
    return {
      item,
      n: i + 1,
      cells,
      missed: cells.some((c) => c.verdict !== 'all'),
      disagree: verdicts.size > 1,
    };
  });
}

/** stopped tells a run that ended early (Cancel, or an error on the way). */
export function stopped(result: EvalResult): boolean {
  return result.errors.length > 0;
}

/** asked counts the questions a model was asked (not the missing ones). */
export function asked(m: ModelReport): number {
  return m.questions - (m.outcomes?.missing ?? 0);
}
