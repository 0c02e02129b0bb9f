// The ask loop's stages in words.
import type { AskProgress } from '../api/types';
import { i18n } from '../i18n/index.svelte';

/** steps are the loop's five steps in the page's language. */
export function steps(): readonly string[] {
  return i18n.m.progress.steps;
}

export function stepIndex(stage: string): number {
  switch (stage) {
    case 'preparing':
      return 0;
    case 'thinking':
    case 'writing SQL':
    case 'repairing':
      return 1;
    case 'checking':
      return 2;
    case 'running':
      return 3;
    case 'checking values':
      return 4;
    case 'done':
      return 5;
    default:
      return 0;
  }
}

export function stageLabel(p: AskProgress): string {
  const P = i18n.m.progress;
  const tokens = p.tokens > 0 ? P.tokens(p.tokens) : '';
  switch (p.stage) {
    case 'preparing':
      return P.preparing;
    case 'thinking':
      return P.thinking + tokens;
    case 'writing SQL':
      return P.writing + tokens;
    case 'checking':
      return P.checking;
    case 'running':
      return P.running;
    case 'repairing':
      return P.repairing(Math.max(1, p.attempt - 1), Math.max(1, p.attempts - 1)) + tokens;
    case 'checking values':
      return P.checkingValues;
    case 'voting':
      return P.voting(p.vote ?? 1, p.votes ?? 4);
    case 'done':
      return P.done;
    default:
      return p.stage ? `${p.stage[0].toUpperCase()}${p.stage.slice(1)}…` : P.working;
  }
}
