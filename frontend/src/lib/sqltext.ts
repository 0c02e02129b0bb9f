// Telling SQL from a question: text that starts like a query runs as SQL
// (no model needed); anything else is asked.
const SQL_START = /^\s*(?:--[^\n]*\n\s*|\/\*[\s\S]*?\*\/\s*)*(select\s|select\*|with\s+(recursive\s+)?[\w"`[\]]+\s*(\([^)]*\)\s*)?as\s*(not\s+)?(materialized\s*)?\(|values\s*\()/i;

export function looksLikeSQL(text: string): boolean {
  return SQL_START.test(text);
}
