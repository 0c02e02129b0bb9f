// The ask loop's stages in words.
import type { AskProgress } from '../api/types';

export const STEPS = ['Preparing', 'Writing SQL', 'Checking', 'Running', 'Checking values'];

export function stepIndex(stage: string): number {
  switch (stage) {
    case 'preparing':
      return 0;
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
  const tokens = p.tokens > 0 ? ` · ${p.tokens} tokens` : '';
  switch (p.stage) {
    case 'preparing':
      return 'Preparing: reading the schema…';
    case 'writing SQL':
      return `Writing SQL…${tokens}`;
    case 'checking':
      return 'Checking the SQL…';
    case 'running':
      return 'Running the query…';
    case 'repairing': {
      const total = Math.max(1, p.attempts - 1);
      const n = Math.max(1, p.attempt - 1);
      return `Repairing the SQL (${n} of ${total})…${tokens}`;
    }
    case 'checking values':
      return 'Checking the values…';
    case 'done':
      return 'Finishing…';
    default:
      return p.stage ? `${p.stage[0].toUpperCase()}${p.stage.slice(1)}…` : 'Working…';
  }
}
