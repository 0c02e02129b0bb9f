// Copying text: the asynchronous clipboard where the page may use it, else
// the old selection-and-execCommand way (some webviews refuse the first).
export async function copyText(text: string): Promise<boolean> {
  try {
    if (navigator.clipboard?.writeText) {
      await navigator.clipboard.writeText(text);
      return true;
    }
  } catch {
    /* fall back below */
  }
  try {
    const ta = document.createElement('textarea');
    ta.value = text;
    ta.setAttribute('readonly', '');
    ta.style.position = 'fixed';
    ta.style.opacity = '0';
    document.body.appendChild(ta);
    const active = document.activeElement as HTMLElement | null;
    ta.select();
    const ok = document.execCommand('copy');
    ta.remove();
    active?.focus({ preventScroll: true });
    return ok;
  } catch {
    return false;
  }
}

/** pngOf is a canvas drawn on the page's background (a chart's canvas is
 * transparent, which a spreadsheet or a slide shows as black or checkered). */
export function pngOf(canvas: HTMLCanvasElement, background: string): Promise<Blob | null> {
  const out = document.createElement('canvas');
  out.width = canvas.width;
  out.height = canvas.height;
  const g = out.getContext('2d');
  if (!g) return Promise.resolve(null);
  g.fillStyle = background;
  g.fillRect(0, 0, out.width, out.height);
  g.drawImage(canvas, 0, 0);
  return new Promise((resolve) => out.toBlob((b) => resolve(b), 'image/png'));
}

/** copyImage puts a PNG on the clipboard ('copied'), or, where the page may
 * not (an older webview, a page without the permission), saves it as a file
 * named name ('saved'); false when neither worked. */
export async function copyImage(png: Blob, name: string): Promise<'copied' | 'saved' | false> {
  try {
    const CI = (globalThis as { ClipboardItem?: new (items: Record<string, Blob>) => unknown }).ClipboardItem;
    if (CI && navigator.clipboard?.write) {
      await navigator.clipboard.write([new CI({ 'image/png': png }) as ClipboardItem]);
      return 'copied';
    }
  } catch {
    /* save it instead */
  }
  try {
    const a = document.createElement('a');
    a.href = URL.createObjectURL(png);
    a.download = name;
    document.body.appendChild(a);
    a.click();
    a.remove();
    setTimeout(() => URL.revokeObjectURL(a.href), 10_000);
    return 'saved';
  } catch {
    return false;
  }
}
