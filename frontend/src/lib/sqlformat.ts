// Laying SQL out for reading: sql-formatter (SQLite dialect, keywords in
// capitals), then a clause whose body is one line is joined onto it
// ("LIMIT 10", not "LIMIT" and "10" on two lines), so that the editor
// stays short and the result stays in view.
import { formatDialect, sqlite } from 'sql-formatter';

const CLAUSE = /^(\s*)(SELECT|SELECT DISTINCT|FROM|WHERE|GROUP BY|ORDER BY|HAVING|LIMIT|OFFSET|WINDOW)$/;

/** compactClauses joins each clause keyword with its body when the body is one line. */
export function compactClauses(text: string): string {
  const lines = text.split('\n');
  const out: string[] = [];
  for (let i = 0; i < lines.length; i++) {
    const m = CLAUSE.exec(lines[i]);
    if (m && i + 1 < lines.length) {
      const body = m[1] + '  ';
      const next = lines[i + 1];
      const after = lines[i + 2];
      const single = next.startsWith(body) && next[body.length] !== ' ' && (after === undefined || !after.startsWith(body));
      if (single) {
        out.push(`${m[1]}${m[2]} ${next.slice(body.length)}`);
        i++;
        continue;
      }
    }
    out.push(lines[i]);
  }
  return out.join('\n');
}

/** formatSQL lays SQL out for reading; SQL it cannot parse comes back as it was. */
export function formatSQL(text: string): string {
  if (!text.trim()) return text;
  try {
    return compactClauses(formatDialect(text, { dialect: sqlite, keywordCase: 'upper', tabWidth: 2, linesBetweenQueries: 1 }));
  } catch {
    return text;
  }
}
