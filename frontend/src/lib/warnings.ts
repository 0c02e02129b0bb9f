// The engine's warnings about a PostgreSQL connection, in the page's
// language: the three it makes (a superuser, a role that may do more than
// read, a connection in clear) are recognised and said with the
// catalogue's words; any other warning is shown as the engine wrote it.
import { i18n } from '../i18n/index.svelte';
import { sentence } from './format';

const SUPERUSER = /^connected as (.+?), a superuser:/;
const MAY_WRITE = /^connected as (.+?), a role that may do more than read \((.*)\):/;
const IN_CLEAR = /^the connection to (.+?) is not encrypted:/;

/** warningText is an engine warning as the page says it. */
export function warningText(w: string): string {
  const W = i18n.m.dataset.warnings;
  let m = SUPERUSER.exec(w);
  if (m) return W.superuser(m[1]);
  m = MAY_WRITE.exec(w);
  if (m) return W.mayWrite(m[1], m[2]);
  m = IN_CLEAR.exec(w);
  if (m) return W.inClear(m[1]);
  return sentence(w);
}
