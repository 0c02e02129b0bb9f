// Schema helpers for the sidebar: searching tables and columns, and reading
// foreign keys.
import type { Table, TableColumn } from '../api/types';

export interface Match {
  table: Table;
  /** nameMatch: the table's own name matches the search. */
  nameMatch: boolean;
  /** columns that match the search (all of them when the search is empty). */
  columns: TableColumn[];
}

function fold(s: string): string {
  return s.normalize('NFD').replace(/[\u0300-\u036f]/g, '').toLowerCase();
}

/** filterSchema keeps the tables whose name, or one of whose columns'
 * names (or original names), contains the search, case- and
 * accent-insensitively. */
export function filterSchema(tables: Table[], query: string): Match[] {
  const q = fold(query.trim());
  const out: Match[] = [];
  for (const t of tables) {
    const cols = t.columns ?? [];
    if (!q) {
      out.push({ table: t, nameMatch: true, columns: cols });
      continue;
    }
    const nameMatch = fold(t.name).includes(q);
    const columns = cols.filter((c) => fold(c.name).includes(q) || (c.original_name ? fold(c.original_name).includes(q) : false));
    if (nameMatch || columns.length) out.push({ table: t, nameMatch, columns });
  }
  return out;
}

/** fkTarget reads "Table(column)" of the foreign key on column, if any. */
export function fkTarget(t: Table, column: string): { table: string; column: string } | null {
  const fk = (t.foreign_keys ?? []).find((f) => f.column === column);
  if (!fk) return null;
  const m = /^(.*)\((.*)\)$/.exec(fk.references.trim());
  if (!m) return { table: fk.references, column: '' };
  return { table: m[1].replace(/^["'`[]|["'`\]]$/g, ''), column: m[2] };
}
