#!/usr/bin/env node
// End-to-end check of the thread and its context (issue 25) in a real
// browser (Debian's Chromium through playwright-core), in English, French
// and Chinese.
//
//   node e2e/thread.e2e.mjs OUTDIR LANG=URL…
//
// Each URL is a `querent serve` address on the demo database, its page in
// LANG, with a scripted Ollama (app/web/thread_e2e_test.go). For each
// language: a question, an unrelated one (read on its own: no context on
// its card), a follow-up (its card names the question it was read with, the
// ask box lists the context); a reload brings the thread back with its
// context; an earlier question is dropped from the context; "New
// conversation" clears the thread and "Undo" brings it back; ? lists the
// keyboard shortcuts. Screenshots
// go to OUTDIR (thread-*-LANG.png); a failed check exits 1.
import { chromium } from 'playwright-core';
import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

const [outDir, ...pairs] = process.argv.slice(2);
const servers = pairs.map((p) => p.split(/=(.*)/s).slice(0, 2));
if (!outDir || servers.length === 0 || servers.some(([l, u]) => !l || !u)) {
  console.error('usage: node e2e/thread.e2e.mjs OUTDIR LANG=URL…');
  process.exit(2);
}
mkdirSync(outDir, { recursive: true });
const said = {
  en: { q1: 'Which artist has the most albums?', q2: 'Top 10 customers', q3: 'and for 2012?', readWith: 'Read with:', undo: 'Undo', keys: 'Keyboard shortcuts' },
  fr: { q1: 'Quel artiste a le plus d’albums ?', q2: 'Les 10 meilleurs clients', q3: 'Et pour 2012 ?', readWith: 'Lue avec :', undo: 'Annuler', keys: 'Raccourcis clavier' },
  zh: { q1: '哪位艺术家的专辑最多？', q2: '前 10 名客户', q3: '那2012年呢？', readWith: '结合了：', undo: '撤销', keys: '键盘快捷键' },
};
const tid = (id) => `[data-testid="${id}"]`;
let step = 'starting';
function check(cond, message) {
  if (!cond) throw new Error(`${step}: ${message}`);
}
function log(msg) {
  console.error(`e2e thread: ${msg}`);
}

const userDataDir = mkdtempSync(join(tmpdir(), 'querent-e2e-chromium-'));
let context;
let failed = null;
try {
  context = await chromium.launchPersistentContext(userDataDir, {
    executablePath: process.env.CHROMIUM || '/usr/bin/chromium',
    headless: true,
    args: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update', '--disable-sync', '--no-first-run'],
    viewport: { width: 1360, height: 880 },
    colorScheme: 'light',
  });
  context.setDefaultTimeout(20000);
  for (const [lang, url] of servers) {
    const w = said[lang];
    check(!!w, `no words for ${lang}`);
    const page = await context.newPage();
    const pageErrors = [];
    page.on('pageerror', (e) => pageErrors.push(String(e)));
    const shot = async (name) => {
      await page.waitForTimeout(200);
      await page.screenshot({ path: join(outDir, `${name}-${lang}.png`) });
      log(`screenshot ${name}-${lang}.png`);
    };
    const cards = page.locator(tid('answer'));
    const lastCard = () => cards.last();
    const ask = async (q) => {
      const n = await cards.count();
      await page.fill(tid('question-input'), q);
      await page.press(tid('question-input'), 'Enter');
      await page.waitForFunction((n) => {
        const all = [...document.querySelectorAll('[data-testid="answer"]')];
        const id = all.at(-1)?.getAttribute('data-answer-id');
        return all.length === n + 1 && !!id && !id.endsWith('.0');
      }, n, { timeout: 30000 });
      await page.waitForFunction(() => !document.querySelector('[data-testid="card-cancel"]'), null, { timeout: 30000 });
    };

    step = `${lang}: open`;
    await page.goto(url);
    await page.locator(`${tid('question-input')}:not([disabled])`).waitFor();

    step = `${lang}: a question and an unrelated one`;
    await ask(w.q1);
    await ask(w.q2);
    check((await lastCard().locator(tid('context-used')).count()) === 0, 'an unrelated question was read with the one before');

    step = `${lang}: a follow-up`;
    await ask(w.q3);
    await lastCard().locator(tid('context-used')).waitFor();
    const used = await lastCard().locator(tid('context-used')).innerText();
    check(used.includes(w.readWith) && used.includes(w.q2) && !used.includes(w.q1), `the follow-up's context: ${used}`);
    // The rows (and the card's context line) come before the answer is
    // done; the ask box's context follows once it is.
    await page
      .waitForFunction((n) => document.querySelectorAll('[data-testid="context-chip"]').length === n, 2, { timeout: 30000 })
      .catch(() => {});
    const chips = await page.locator(tid('context-chip')).allInnerTexts();
    check(chips.some((c) => c.includes(w.q3)) && chips.some((c) => c.includes(w.q2)), `the ask box's context: ${chips.join(' | ')}`);
    await shot('thread-followup');

    step = `${lang}: reload`;
    await page.reload();
    await page.locator(`${tid('question-input')}:not([disabled])`).waitFor();
    await page.waitForFunction(() => document.querySelectorAll('[data-testid="answer"]').length === 3);
    const after = await page.locator(tid('context-chip')).allInnerTexts();
    check(after.length === chips.length, `the context after a reload: ${after.join(' | ')} (was ${chips.join(' | ')})`);
    check((await lastCard().locator(tid('context-used')).count()) === 1, 'the restored follow-up lost its context line');
    check((await lastCard().innerText()).includes(w.q3), 'the restored thread does not end with the follow-up');
    await shot('thread-restored');

    step = `${lang}: drop a question from the context`;
    await page.locator(tid('context-chip')).filter({ hasText: w.q3 }).locator(tid('context-drop')).click();
    await page
      .waitForFunction((n) => document.querySelectorAll('[data-testid="context-chip"]').length === n - 1, after.length, { timeout: 10000 })
      .catch(async () => {
        const now = await page.locator(tid('context-chip')).allInnerTexts();
        const banner = await page.locator(tid('error-banner')).allInnerTexts();
        throw new Error(`the context after dropping ${w.q3}: ${now.join(' | ')} (banner: ${banner.join(' ')})`);
      });

    step = `${lang}: new conversation, undone`;
    await page.click(tid('new-conversation'));
    await page.waitForFunction(() => document.querySelectorAll('[data-testid="answer"]').length === 0);
    check((await page.locator(tid('context-chip')).count()) === 0, 'the context is still listed after New conversation');
    const undo = page.locator(tid('toast-action'));
    check((await undo.innerText()).includes(w.undo), `the toast's action: ${await undo.innerText()}`);
    await shot('thread-cleared');
    await undo.click();
    await page.waitForFunction(() => document.querySelectorAll('[data-testid="answer"]').length === 3);
    check((await page.locator(tid('context-chip')).count()) === after.length - 1, 'Undo did not bring the context back');
    step = `${lang}: the shortcuts on ?`;
    await page.locator('body').click({ position: { x: 5, y: 5 } }).catch(() => {});
    await page.keyboard.press('?');
    const keys = page.locator(tid('shortcuts-panel'));
    await keys.waitFor();
    check((await keys.innerText()).includes(w.keys) && (await keys.locator(tid('shortcut')).count()) >= 8, `the shortcuts list: ${await keys.innerText()}`);
    await shot('thread-shortcuts');
    await page.keyboard.press('Escape');
    await keys.waitFor({ state: 'detached' });
    check(pageErrors.length === 0, `page errors: ${pageErrors.join('; ')}`);
    // The next language's page starts from a clean thread of its own.
    await page.close();
  }
  log('ok');
} catch (e) {
  failed = e;
} finally {
  await context?.close().catch(() => {});
  rmSync(userDataDir, { recursive: true, force: true });
}
if (failed) {
  console.error(`e2e thread FAILED at ${step}: ${failed.message}`);
  process.exit(1);
}
