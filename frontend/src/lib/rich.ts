// A catalogue message with a little markup, made safe for {@html}: the text
// is escaped first, then `code` becomes <code>, **words** <strong> and
// [[Key]] <kbd>. Values put into a message are escaped with it, so nothing
// a user or a database wrote can become markup.

const escapes: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' };

/** escapeHTML makes text safe inside markup. */
export function escapeHTML(s: string): string {
  return s.replace(/[&<>"']/g, (c) => escapes[c]);
}

/** rich turns a message's `code`, **bold** and [[Key]] into markup, escaping everything else. */
export function rich(s: string): string {
  return escapeHTML(s)
    .replace(/`([^`]+)`/g, '<code>$1</code>')
    .replace(/\*\*([^*]+)\*\*/g, '<strong>$1</strong>')
    .replace(/\[\[([^\]]+)\]\]/g, '<kbd>$1</kbd>');
}
