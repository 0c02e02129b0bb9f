// The SQL editor (CodeMirror 6) and the SQL formatter, loaded together on
// first use so that the question box is ready before them.
import { EditorState, Prec, type Extension } from '@codemirror/state';
import { EditorView, keymap, placeholder, drawSelection, highlightActiveLine, lineNumbers } from '@codemirror/view';
import { defaultKeymap, history, historyKeymap } from '@codemirror/commands';
import { HighlightStyle, syntaxHighlighting, bracketMatching } from '@codemirror/language';
import { sql, SQLite } from '@codemirror/lang-sql';
import { tags as t } from '@lezer/highlight';

export { formatSQL } from './sqlformat';

const highlight = HighlightStyle.define([
  { tag: t.keyword, color: 'var(--cm-keyword)', fontWeight: '600' },
  { tag: [t.string, t.special(t.string)], color: 'var(--cm-string)' },
  { tag: [t.number, t.bool, t.null], color: 'var(--cm-number)' },
  { tag: [t.lineComment, t.blockComment], color: 'var(--cm-comment)', fontStyle: 'italic' },
  { tag: [t.function(t.variableName), t.standard(t.name)], color: 'var(--cm-function)' },
  { tag: [t.typeName], color: 'var(--cm-type)' },
  { tag: [t.operator, t.punctuation], color: 'var(--cm-punct)' },
  { tag: [t.special(t.name)], color: 'var(--cm-ident)' },
]);

const theme = EditorView.theme({
  '&': { fontSize: '13.5px', backgroundColor: 'var(--surface)', color: 'var(--text)' },
  '.cm-content': { fontFamily: 'var(--mono)', padding: '10px 0', caretColor: 'var(--text)' },
  '.cm-scroller': { fontFamily: 'var(--mono)', lineHeight: '1.55' },
  '.cm-gutters': { backgroundColor: 'var(--surface-2)', color: 'var(--text-3)', border: 'none', borderRight: '1px solid var(--border)' },
  '.cm-activeLine': { backgroundColor: 'transparent' },
  '&.cm-focused .cm-activeLine': { backgroundColor: 'var(--row-hover)' },
  '&.cm-focused': { outline: 'none' },
  '.cm-cursor': { borderLeftColor: 'var(--text)' },
  '.cm-selectionBackground, &.cm-focused .cm-selectionBackground, ::selection': { backgroundColor: 'var(--sel) !important' },
  '.cm-placeholder': { color: 'var(--text-3)' },
  '.cm-matchingBracket': { backgroundColor: 'var(--accent-soft)', outline: '1px solid var(--accent)' },
});

export interface EditorOptions {
  doc: string;
  onChange: (text: string) => void;
  onRun: () => void;
  /** tables and their columns, for completion. */
  schema?: Record<string, string[]>;
  label?: string;
}

export function createEditor(parent: HTMLElement, o: EditorOptions): EditorView {
  const run = () => {
    o.onRun();
    return true;
  };
  const extensions: Extension[] = [
    lineNumbers(),
    history(),
    drawSelection(),
    highlightActiveLine(),
    bracketMatching(),
    EditorView.lineWrapping,
    Prec.highest(keymap.of([{ key: 'Mod-Enter', run, preventDefault: true }])),
    keymap.of([...defaultKeymap, ...historyKeymap]),
    sql({ dialect: SQLite, schema: o.schema, upperCaseKeywords: true }),
    syntaxHighlighting(highlight),
    theme,
    placeholder('SELECT … FROM …'),
    EditorView.contentAttributes.of({ 'aria-label': o.label ?? 'SQL query', 'data-testid': 'sql-input' }),
    EditorView.updateListener.of((u) => {
      if (u.docChanged) o.onChange(u.state.doc.toString());
    }),
  ];
  return new EditorView({ parent, state: EditorState.create({ doc: o.doc, extensions }) });
}

/** setText replaces the editor's text (keeping its history). */
export function setText(view: EditorView, text: string): void {
  const cur = view.state.doc.toString();
  if (cur === text) return;
  view.dispatch({ changes: { from: 0, to: cur.length, insert: text } });
}
