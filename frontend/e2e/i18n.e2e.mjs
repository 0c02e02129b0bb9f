#!/usr/bin/env node
// End-to-end check of the page in French and in Simplified Chinese in a
// real browser (Debian's Chromium through playwright-core).
//
//   node e2e/i18n.e2e.mjs URL OUTDIR [MESSY_DIR]
//
// URL is a `querent serve` address (token included) with nothing open and
// an Ollama that is down. The browser says it speaks French (its locale):
// the page starts in French; the script opens the demo, runs SQL and reads
// the grid (a decimal comma, dates day/month/year), the statistics, the
// chart, an error, the export (its sheets named in French); then chooses
// 简体中文 in Settings and reads the same screens, the connect dialog and
// the Ollama guidance in Chinese, checks that CJK glyphs are drawn (not the
// same empty box for every character), that the choice survives a reload,
// and that "Same as the system" brings French back. On every screen no
// text is cut by its box and nothing overflows the window. Screenshots go
// to OUTDIR (i18n-*.png); a failed check exits 1 with its message. With
// MESSY_DIR (the shared messy files) it first previews
// 538_cabinet-turnover.csv in the import dialog and reads start_date's
// reason in French, the values it quotes as they are. With PG_HOST, PG_PORT,
// PG_DATABASE, PG_SUPER and PG_SUPER_PASSWORD (a PostgreSQL server), the
// Chinese connect dialog tests the superuser: refused, the engine's reason
// said in Chinese by Go (engine/words), no command-line flag on screen,
// the engine's own English kept behind Details.
import { chromium } from 'playwright-core';
import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

const [url, outDir, messyDir] = process.argv.slice(2);
if (!url || !outDir) {
  console.error('usage: node e2e/i18n.e2e.mjs URL OUTDIR');
  process.exit(2);
}
mkdirSync(outDir, { recursive: true });
const tid = (id) => `[data-testid="${id}"]`;
let step = 'starting';
function check(cond, message) {
  if (!cond) throw new Error(`${step}: ${message}`);
}
function log(msg) {
  console.error(`e2e i18n: ${msg}`);
}

const SQL =
  "SELECT c.Country AS pays, count(*) AS factures, sum(i.Total) AS total, max(i.InvoiceDate) AS derniere FROM Customer c JOIN Invoice i USING (CustomerId) GROUP BY c.Country ORDER BY total DESC";

const userDataDir = mkdtempSync(join(tmpdir(), 'querent-e2e-chromium-'));
let context;
let page;
let failed = null;
try {
  context = await chromium.launchPersistentContext(userDataDir, {
    executablePath: process.env.CHROMIUM || '/usr/bin/chromium',
    headless: true,
    args: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update', '--disable-sync', '--no-first-run', '--lang=fr-FR'],
    viewport: { width: 1280, height: 860 },
    colorScheme: 'light',
    locale: 'fr-FR',
    acceptDownloads: true,
  });
  context.setDefaultTimeout(20000);
  page = await context.newPage();
  const pageErrors = [];
  page.on('pageerror', (e) => pageErrors.push(String(e)));

  // Nothing cut or overflowing: the page never scrolls sideways, and no
  // button, tab, pill, label or heading clips its own text (an ellipsis is
  // allowed only where the page sets one on purpose).
  const fits = async (where) => {
    const bad = await page.evaluate(() => {
      const out = [];
      if (document.documentElement.scrollWidth > window.innerWidth + 1) out.push(`the page is ${document.documentElement.scrollWidth}px wide`);
      const sel = 'button, [role="tab"], .pill, label > span, h1, h2, h3, .ct, .cd, th, legend, summary, .toast, option';
      for (const el of document.querySelectorAll(sel)) {
        const r = el.getBoundingClientRect();
        if (r.width === 0 || r.height === 0) continue;
        const cs = getComputedStyle(el);
        if (cs.textOverflow === 'ellipsis') continue;
        if (el.closest('[data-testid="result-grid"], .gridwrap, .fname, .rpath, .saddr, .server, .status, .mname, .q, .sql, .dir, .pline')) continue;
        if (el.scrollWidth > el.clientWidth + 2 && cs.overflow !== 'visible' && cs.overflowX !== 'visible')
          out.push(`${el.tagName.toLowerCase()}.${el.className} “${el.textContent.trim().slice(0, 40)}” is cut (${el.scrollWidth} > ${el.clientWidth})`);
        if (el.tagName === 'BUTTON' && el.scrollHeight > el.clientHeight + 4 && cs.whiteSpace === 'nowrap')
          out.push(`button “${el.textContent.trim().slice(0, 40)}” is cut vertically`);
      }
      return out.slice(0, 8);
    });
    check(bad.length === 0, `${where}: ${bad.join('; ')}`);
  };
  const shot = async (name) => {
    await page.waitForTimeout(250);
    await fits(name);
    await page.screenshot({ path: join(outDir, `${name}.png`), fullPage: false });
    log(`screenshot ${name}.png`);
  };
  const text = (sel) => page.locator(sel).first().innerText();
  const runSQL = async (sql) => {
    const before = await page.locator(tid('answer')).count();
    await page.fill(tid('question-input'), sql);
    await page.press(tid('question-input'), 'Enter');
    await page.waitForFunction((n) => document.querySelectorAll('[data-testid="answer"]').length > n && !document.querySelector('[data-testid="progress"]'), before);
  };
  const lastCard = () => page.locator(tid('answer')).last();
  // Brings an element into view below the sticky question box.
  const show = async (loc) => {
    await loc.scrollIntoViewIfNeeded();
    await page.evaluate(() => document.querySelector('[data-testid="main"]')?.scrollBy(0, -160));
  };

  step = 'the start screen in the system language (French)';
  await page.goto(url);
  await page.locator(tid('open-demo')).waitFor();
  check((await page.evaluate(() => document.documentElement.lang)) === 'fr', 'the document should say it is in French');
  check((await text('h1')) === 'Interrogez vos données', `the headline: ${await text('h1')}`);
  check((await text(`${tid('open-demo')} .ct`)) === 'Ouvrir la base de démonstration', 'the demo button in French');
  await shot('i18n-fr-start');

  if (messyDir) {
    step = 'the import dialog in French: the engine’s reasons too';
    await page.click(tid('import-button'));
    await page.locator(tid('import-dialog')).waitFor();
    await page.fill(tid('import-inputs'), join(messyDir, 'csv', '538_cabinet-turnover.csv'));
    await page.locator(tid('preview-table')).waitFor();
    const why = page.locator(`${tid('import-col-4')} .why`);
    await page.waitForFunction(() => document.querySelector('[data-testid="import-col-4"] .why')?.textContent?.includes('gardée comme texte'));
    const reason = (await why.innerText()).replace(/\s+/g, ' ');
    check(reason.includes('gardée comme texte : la ligne 58 contient « Aug. 1981 », qui n’est pas une date ; 371 valeurs sur 379 sont des dates écrites m/d/yy'), `start_date's reason in French: ${reason}`);
    await shot('i18n-fr-import');
    await page.click(`${tid('import-dialog')} ${tid('dialog-close')}`);
    await page.locator(tid('import-dialog')).waitFor({ state: 'detached' });
  }

  step = 'an answer in French: numbers with a decimal comma, dates day/month/year';
  await page.click(tid('open-demo'));
  await page.locator(tid('question-input')).waitFor();
  check((await page.getAttribute(tid('question-input'), 'placeholder')).startsWith('Posez une question'), 'the question box in French');
  check((await text(tid('title'))) === 'Démo Chinook (intégrée)', `the demo's name in French: ${await text(tid('title'))}`);
  check((await text(tid('ollama-guidance'))).includes('Ollama ne tourne pas'), 'the Ollama guidance in French');
  await runSQL(SQL);
  await lastCard().locator(tid('grid-row')).first().waitFor();
  const cells = await lastCard().locator(tid('grid-row')).first().locator('[role="gridcell"]').allInnerTexts();
  log(`first row: ${JSON.stringify(cells)}`);
  check(cells.some((c) => /^\d{1,3}(?:[\u202f\u00a0 ]\d{3})*,\d{2}$/.test(c.trim())), `a total with a decimal comma: ${cells}`);
  check(cells.some((c) => /^\d{2}\/\d{2}\/\d{4}/.test(c.trim())), `a date written day/month/year: ${cells}`);
  check(/lignes|ligne/.test(await text(tid('answer-meta'))), 'the answer line says lignes');
  check((await text(tid('table-tab'))) === 'Tableau', 'the Table tab in French');
  await shot('i18n-fr-answer');
  await lastCard().locator(tid('stats-tab')).click();
  await lastCard().locator(tid('stats-table')).waitFor();
  check((await lastCard().locator(`${tid('stats-table')} thead`).innerText()).includes('Moyenne'), 'the statistics in French');
  await shot('i18n-fr-stats');
  await lastCard().locator(tid('chart-tab')).click();
  await lastCard().locator(tid('chart-canvas')).waitFor();
  check((await lastCard().locator(tid('chart-type-bar')).innerText()) === 'Barres', 'the chart kinds in French');
  check((await lastCard().locator(tid('chart-why')).innerText()).includes('une courbe montre l’évolution dans le temps'), `the chart's reason in French: ${await lastCard().locator(tid('chart-why')).innerText()}`);
  await show(lastCard().locator(tid('chart-reason')));
  await shot('i18n-fr-chart');

  step = 'the export: its sheets named in French';
  await lastCard().locator(tid('export-button')).click();
  await page.locator(tid('export-dialog')).waitFor();
  const [dl] = await Promise.all([page.waitForEvent('download', { timeout: 60000 }), page.click(tid('export-confirm'))]);
  await dl.saveAs(join(outDir, 'i18n-fr-export.xlsx'));
  await page.locator(tid('export-done')).waitFor();
  const done = await text(tid('export-done'));
  check(/Statistiques/.test(done) && /Données/.test(done), `the workbook's sheets in French: ${done}`);
  await shot('i18n-fr-export');
  await page.click(tid('export-close'));

  step = 'an error in French';
  await runSQL('SELECT nope FROM Customer');
  await lastCard().locator(tid('error-title')).waitFor();
  check((await lastCard().locator(tid('error-title')).innerText()).includes('colonne qui n’existe pas'), 'the error headline in French');
  check((await page.title()).includes('(lecture seule) — Querent'), `the tab's title in French: ${await page.title()}`);
  await shot('i18n-fr-error');

  step = 'Settings: choose 简体中文';
  await page.click(tid('settings-button'));
  await page.locator(tid('settings-dialog')).waitFor();
  await shot('i18n-fr-settings');
  await page.selectOption(tid('settings-language'), 'zh');
  await page.waitForFunction(() => document.documentElement.lang === 'zh-CN');
  check((await page.locator(`${tid('settings-dialog')} h2`).innerText()) === '设置', 'the dialog follows the language at once');
  await page.click(tid('settings-save'));
  await page.locator(tid('settings-dialog')).waitFor({ state: 'detached' });

  step = 'the page in Chinese';
  check((await text(`${tid('settings-button')} .lbl`)) === '设置', 'the top bar in Chinese');
  check((await text(tid('title'))) === 'Chinook 演示数据库（内置）', `the demo's name in Chinese: ${await text(tid('title'))}`);
  check((await page.title()) === 'Chinook 演示数据库（内置）（只读）— Querent', `the tab's title in Chinese: ${await page.title()}`);
  check((await text(tid('ollama-guidance'))).includes('Ollama 未运行'), 'the Ollama guidance in Chinese');
  check((await lastCard().locator(tid('error-title')).innerText()).includes('不存在的列'), 'the error in Chinese');
  await shot('i18n-zh-error');
  // CJK glyphs drawn: two different characters must not draw the same box.
  const glyphs = await page.evaluate(() => {
    const font = getComputedStyle(document.body).fontFamily;
    const draw = (ch) => {
      const c = document.createElement('canvas');
      c.width = c.height = 40;
      const g = c.getContext('2d');
      g.font = `32px ${font}`;
      g.fillText(ch, 2, 32);
      return Array.from(g.getImageData(0, 0, 40, 40).data).join(',');
    };
    const marks = ['向', '数', '据', '提', '问'].map(draw);
    return { distinct: new Set(marks).size, font };
  });
  check(glyphs.distinct === 5, `CJK characters should each draw their own glyph (font ${glyphs.font}): ${glyphs.distinct} distinct of 5`);
  await page.locator(tid('answer')).nth(0).locator(tid('card-fold')).click();
  const first = page.locator(tid('answer')).nth(0);
  await first.locator(tid('table-tab')).click();
  await first.locator(tid('grid-row')).first().waitFor();
  const zhCells = await first.locator(tid('grid-row')).first().locator('[role="gridcell"]').allInnerTexts();
  check(zhCells.some((c) => /^\d{4}\/\d{2}\/\d{2}/.test(c.trim())), `a date written year/month/day: ${zhCells}`);
  check((await first.locator(tid('table-tab')).innerText()) === '表格', 'the Table tab in Chinese');
  await show(first.locator(tid('answer-heading')));
  await shot('i18n-zh-answer');
  await first.locator(tid('stats-tab')).click();
  await first.locator(tid('stats-table')).waitFor();
  check((await first.locator(`${tid('stats-table')} thead`).innerText()).includes('平均值'), 'the statistics in Chinese');
  await shot('i18n-zh-stats');
  await first.locator(tid('chart-tab')).click();
  await first.locator(tid('chart-canvas')).waitFor();
  check((await first.locator(tid('chart-why')).innerText()).includes('折线图显示随时间的变化趋势'), `the chart's reason in Chinese: ${await first.locator(tid('chart-why')).innerText()}`);
  await show(first.locator(tid('chart-reason')));
  await shot('i18n-zh-chart');

  step = 'the connect dialog in Chinese';
  await page.click(tid('open-button'));
  await page.locator(tid('connect-button')).click();
  await page.locator(tid('connect-dialog')).waitFor();
  check((await page.locator(`${tid('connect-dialog')} h2`).innerText()) === '连接 PostgreSQL', 'the connect dialog in Chinese');
  await shot('i18n-zh-connect');
  if (process.env.PG_HOST) {
    step = 'a superuser refused, in Chinese';
    await page.fill(tid('connect-host'), process.env.PG_HOST);
    await page.fill(tid('connect-port'), process.env.PG_PORT);
    await page.fill(tid('connect-database'), process.env.PG_DATABASE);
    await page.fill(tid('connect-user'), process.env.PG_SUPER);
    await page.fill(tid('connect-password'), process.env.PG_SUPER_PASSWORD);
    await page.click(tid('connect-test-button'));
    const banner = `${tid('connect-dialog')} ${tid('error-banner')}`;
    await page.locator(banner).waitFor();
    const title = await page.locator(`${banner} ${tid('error-title')}`).innerText();
    check(title === '此角色是超级用户，除非“设置”允许，Querent 不会以超级用户连接。', `the refusal's title in Chinese: ${title}`);
    const body = await page.locator(`${banner} ${tid('error-body')}`).innerText();
    check(body.includes(`角色 ${process.env.PG_SUPER} 是超级用户，除非明确允许，Querent 不会以超级用户连接`), `the engine's reason in Chinese: ${body}`);
    const shown = await page.locator(banner).innerText();
    check(!shown.includes('--') && !/is a superuser/.test(shown), `no flag and no English on screen: ${shown}`);
    await page.click(`${banner} ${tid('error-details-toggle')}`);
    const details = await page.locator(`${banner} ${tid('error-details')}`).innerText();
    check(details.includes('is a superuser') && details.includes('--allow-superuser'), `the engine's own words behind Details: ${details}`);
    await shot('i18n-zh-connect-refused');
    await page.fill(tid('connect-password'), '');
  }
  await page.click(tid('connect-cancel'));

  step = 'the history in Chinese';
  await page.click(tid('history-button'));
  await page.locator(tid('history-drawer')).waitFor();
  await page.locator(tid('history-item')).first().waitFor();
  await shot('i18n-zh-history');
  await page.click(tid('dialog-close'));

  step = 'the choice survives a reload; "Same as the system" brings French back';
  // The token lives in the page's memory only: open the address again.
  await page.goto(url);
  await page.locator(tid('question-input')).waitFor();
  check((await page.evaluate(() => document.documentElement.lang)) === 'zh-CN', 'Chinese after a reload');
  await page.click(tid('settings-button'));
  await page.locator(tid('settings-dialog')).waitFor();
  await shot('i18n-zh-settings');
  await page.selectOption(tid('settings-language'), '');
  await page.click(tid('settings-save'));
  await page.locator(tid('settings-dialog')).waitFor({ state: 'detached' });
  check((await text(`${tid('settings-button')} .lbl`)) === 'Réglages', 'back to French, the system language');
  check(pageErrors.length === 0, `errors in the page: ${pageErrors.join('; ')}`);
  log('all checks passed');
} catch (e) {
  failed = e;
  try {
    if (page) await page.screenshot({ path: join(outDir, 'i18n-failure.png') });
  } catch {
    // no screenshot
  }
} finally {
  await context?.close();
  rmSync(userDataDir, { recursive: true, force: true });
}
if (failed) {
  console.error(`e2e i18n FAILED: ${failed.message}`);
  process.exit(1);
}
