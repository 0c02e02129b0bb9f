// Finds words a component shows that do not come from the catalogue: text
// between tags, and the literal part of attributes a person reads (title,
// placeholder, aria-label, alt, label and the components' text props), and
// quoted words inside the markup's {…} expressions. Scripts and styles are
// left out (their words go through the catalogue by review and by the
// messages' tests). Used by i18n.test.ts.

/** ALLOWED are texts that are the same in every language: symbols, the
 * product's name, keyboard keys, units and formats. */
export const ALLOWED = new Set([
  'Querent',
  'Q',
  'SQL',
  'Enter',
  'Shift',
  'Ctrl',
  'Esc',
  'Tab',
  'NULL',
  'JSON',
  'CSV',
  'XLSX',
  'PostgreSQL',
  'PK',
  'Ollama',
  'SSL',
  'k',
  'B2:E50',
  'A1:F200',
  'UTF-8',
  'UTF-16LE',
  'UTF-16BE',
  // A prefix of the engine's own reason, matched in code (not shown).
  'no header',
  'Escape',
  'pass^',
  'pass@',
  'ArrowDown',
  'ArrowUp',
  'ArrowLeft',
  'ArrowRight',
  'Home',
  'End',
]);

// Attributes whose value is code, not words.
const CODE_ATTRS = new Set([
  'class', 'style', 'id', 'for', 'type', 'name', 'href', 'src', 'role', 'autocomplete', 'spellcheck', 'inputmode', 'lang', 'dir',
  'viewBox', 'd', 'fill', 'stroke', 'stroke-width', 'stroke-linecap', 'stroke-linejoin', 'points', 'transform', 'cx', 'cy', 'r', 'x', 'y',
  'x1', 'x2', 'y1', 'y2', 'rx', 'ry', 'width', 'height', 'xmlns', 'form', 'method', 'value', 'min', 'max', 'step', 'accept', 'target', 'rel',
  'tabindex', 'testid', 'scope', 'side', 'tone', 'kind', 'mode', 'size', 'pattern', 'wrap', 'rows', 'cols', 'draggable', 'open', 'multiple', 'loading',
]);

const WORD = /\p{L}{2,}/u;

/** strip removes <script>, <style> and comments, keeping line numbers. */
function strip(src: string): string {
  const blank = (m: string) => m.replace(/[^\n]/g, ' ');
  return src
    .replace(/<script[\s\S]*?<\/script>/g, blank)
    .replace(/<style[\s\S]*?<\/style>/g, blank)
    .replace(/<!--[\s\S]*?-->/g, blank);
}

/** outsideBraces blanks every {…} expression (nested braces included) and returns the pieces. */
function splitBraces(s: string): { text: string; exprs: { text: string; at: number }[] } {
  let out = '';
  const exprs: { text: string; at: number }[] = [];
  let depth = 0;
  let start = 0;
  let quote = '';
  for (let i = 0; i < s.length; i++) {
    const ch = s[i];
    if (depth > 0) {
      if (quote) {
        if (ch === '\\') {
          i++;
          out += '  ';
          continue;
        }
        if (ch === quote) quote = '';
      } else if (ch === "'" || ch === '"' || ch === '`') quote = ch;
      else if (ch === '{') depth++;
      else if (ch === '}') {
        depth--;
        if (depth === 0) exprs.push({ text: s.slice(start, i + 1), at: start });
      }
      out += ch === '\n' ? '\n' : ' ';
      continue;
    }
    if (ch === '{') {
      depth = 1;
      start = i;
      out += ' ';
      continue;
    }
    out += ch;
  }
  return { text: out, exprs };
}

const allowed = (t: string) => {
  const s = t.replace(/&\w+;/g, ' ').trim();
  if (/^[^\s]*[/\\.:@][^\s]*$/.test(s)) return true; // a path, a file name, a model's name
  return !WORD.test(s) || ALLOWED.has(s) || s.split(/[\s/·,+()]+/).every((w) => !WORD.test(w) || ALLOWED.has(w));
};

export interface Finding {
  line: number;
  text: string;
}

/** hardCoded lists the words a component's markup holds outside the catalogue. */
export function hardCoded(src: string): Finding[] {
  const body = strip(src);
  const { text, exprs } = splitBraces(body);
  const lineOf = (at: number) => body.slice(0, at).split('\n').length;
  const found: Finding[] = [];
  // Text between tags.
  const textRe = />([^<>]+)</g;
  for (let m; (m = textRe.exec(text)); ) {
    if (!allowed(m[1])) found.push({ line: lineOf(m.index), text: m[1].trim() });
  }
  // Attributes' literal parts.
  const tagRe = /<([a-zA-Z][\w.:-]*)((?:[^>"']|"[^"]*"|'[^']*')*)>/g;
  for (let m; (m = tagRe.exec(text)); ) {
    const attrRe = /([:@\w.-]+)\s*=\s*("([^"]*)"|'([^']*)')/g;
    for (let a; (a = attrRe.exec(m[2])); ) {
      const name = a[1];
      const value = a[3] ?? a[4] ?? '';
      if (CODE_ATTRS.has(name) || name.startsWith('data-') || name.startsWith('on') || name.startsWith('bind:') || name.startsWith('class:') || name.startsWith('aria-') && name !== 'aria-label' && name !== 'aria-description') continue;
      if (!allowed(value)) found.push({ line: lineOf(m.index), text: `${name}="${value.trim()}"` });
    }
  }
  // Quoted words inside expressions: 'Like this' or 'a sentence' (a
  // single lowercase word is taken for code: a key, a kind, a test id).
  for (const e of exprs) {
    if (/^\{[#/:@]?(each|if|else|key|await|then|catch|html|const|render|debug)\b/.test(e.text) && !/['"`]/.test(e.text)) continue;
    const litRe = /'((?:[^'\\]|\\.)*)'|"((?:[^"\\]|\\.)*)"|`((?:[^`\\]|\\.)*)`/g;
    for (let l; (l = litRe.exec(e.text)); ) {
      const v = (l[1] ?? l[2] ?? l[3] ?? '').replace(/\$\{[^}]*\}/g, ' ');
      if (isWords(v) && !allowed(v)) found.push({ line: lineOf(e.at), text: `{…'${v.trim()}'…}` });
    }
  }
  return found;
}

const SMALL_WORDS = /(^|\s)(the|a|an|of|to|is|are|in|for|and|or|no|not|this|that|with|from|by|on|per|at|as|it|its|was|be|rows?|all|any|none)(\s|$)/;

/** isWords tells text a person reads from code: a capitalised word, CJK,
 * or lowercase words with English's small words among them (class lists
 * such as "btn ghost small" have none). */
function isWords(v: string): boolean {
  const t = v.trim();
  if (/[\u3400-\u9fff]/u.test(t)) return true;
  if (/^[a-z0-9_\-:.\s]*$/.test(t)) return /\s/.test(t) && SMALL_WORDS.test(t);
  if (/^[\w.-]+$/.test(t) && !/^\p{Lu}\p{Ll}/u.test(t)) return false; // a name: qwen2.5-coder, fr-FR
  return /\p{Lu}\p{Ll}|\p{L}{2,}\s+\p{L}{2,}/u.test(t);
}
