#!/usr/bin/env node
// End-to-end check of the charts of long data in a real browser (Debian's
// Chromium through playwright-core), issue 25 §3.
//
//   node e2e/charts.e2e.mjs OUTDIR LANG=URL…
//
// Each URL is a `querent serve` address (token included) on the demo
// database, its page in the language LANG (en, fr or zh, from Settings);
// the SQL is typed into the question box, so no model is asked. At
// 900×700, 1360×880 and 1920×1080 the script runs sales per country per
// year (France's 2011 left out) and sees one line per country on a time
// axis of years, "Colour by" on the country, the reason and the gap in the
// page's language; the grid's filter narrows the chart, and the statistics
// say they do not follow it; "Show as a wide table" pivots it to one
// column per country. A single value draws no chart until asked.
// Screenshots go to OUTDIR (charts-LANG-WxH.png, charts-LANG-single.png);
// a failed check exits 1.
import { chromium } from 'playwright-core';
import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

const [outDir, ...servers] = process.argv.slice(2);
if (!outDir || servers.length === 0) {
  console.error('usage: node e2e/charts.e2e.mjs OUTDIR LANG=URL…');
  process.exit(2);
}
mkdirSync(outDir, { recursive: true });
const tid = (id) => `[data-testid="${id}"]`;
let step = 'starting';
function check(cond, message) {
  if (!cond) throw new Error(`${step}: ${message}`);
}

const LONG =
  "SELECT BillingCountry AS Country, strftime('%Y', InvoiceDate) AS Year, round(sum(Total), 2) AS Sales FROM Invoice " +
  "WHERE BillingCountry IN ('USA', 'Canada', 'France', 'Brazil', 'Germany') " +
  "AND NOT (BillingCountry = 'France' AND strftime('%Y', InvoiceDate) = '2011') GROUP BY 1, 2 ORDER BY 1, 2";
const SINGLE = 'SELECT count(*) AS tracks FROM Track';

// What each language says, from the page's catalogues and Go's words.
const SAID = {
  en: { why: 'one line per Country', gap: 'a missing year or month is a gap', colour: 'Colour by', filtered: 'the grid’s filter applies: 5 of 24 rows drawn', stats: 'the grid’s filter does not apply', none: 'No chart', anyway: 'Draw a chart anyway' },
  fr: { why: 'une courbe par Country', gap: 'une année ou un mois manquant est un trou', colour: 'Couleur selon', filtered: 'le filtre de la grille s’applique : 5 lignes tracées sur 24', stats: 'le filtre de la grille ne s’y applique pas', none: 'Pas de graphique', anyway: 'Tracer un graphique quand même' },
  zh: { why: '每个 Country 一条折线', gap: '缺失的年份或月份在折线中显示为空缺', colour: '按颜色区分', filtered: '已应用表格的筛选：绘制了 24 行中的 5 行', stats: '表格的筛选不适用于统计', none: '不绘制图表', anyway: '仍然绘制图表' },
};
const SIZES = [
  [900, 700],
  [1360, 880],
  [1920, 1080],
];

const userDataDir = mkdtempSync(join(tmpdir(), 'querent-e2e-chromium-'));
let context;
let failed = null;
let current = null;
try {
  context = await chromium.launchPersistentContext(userDataDir, {
    executablePath: process.env.CHROMIUM || '/usr/bin/chromium',
    headless: true,
    args: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update', '--disable-sync', '--no-first-run'],
    viewport: { width: 1360, height: 880 },
    colorScheme: 'light',
  });
  context.setDefaultTimeout(20000);
  for (const server of servers) {
    const [lang, url] = [server.slice(0, server.indexOf('=')), server.slice(server.indexOf('=') + 1)];
    const said = SAID[lang];
    const page = await context.newPage();
    current = page;
    const pageErrors = [];
    page.on('pageerror', (e) => pageErrors.push(String(e)));
    step = `${lang}: loading`;
    await page.goto(url);
    await page.waitForSelector(tid('question-input'));

    step = `${lang}: long data`;
    await page.fill(tid('question-input'), LONG);
    await page.press(tid('question-input'), 'Enter');
    await page.waitForFunction(() => document.querySelectorAll('[data-testid="answer"] [data-testid="chart-tab"]').length === 1);
    const card = page.locator(tid('answer')).last();
    await card.locator(tid('chart-tab')).click();
    const canvas = card.locator(tid('chart-canvas'));
    await page.waitForFunction(() => document.querySelector('[data-testid="chart-canvas"]')?.getAttribute('data-series') === '5');
    check((await canvas.getAttribute('data-kind')) === 'line', 'long data should be a line');
    check((await canvas.getAttribute('data-x-axis')) === 'time', 'years should be a time axis');
    const series = card.locator(tid('chart-series'));
    check((await series.locator('option:checked').innerText()) === 'Country', 'the lines should be coloured by Country');
    const page_ = await card.innerText();
    check(page_.includes(said.colour), `no "${said.colour}"`);
    const why = await card.locator(tid('chart-why')).innerText();
    check(why.includes(said.why), `the reason says "${why}", want "${said.why}"`);
    const note = await card.locator(tid('chart-note')).innerText();
    check(note.includes(said.gap), `the note says "${note}", want the gap "${said.gap}"`);

    for (const [w, h] of SIZES) {
      step = `${lang}: ${w}×${h}`;
      await page.setViewportSize({ width: w, height: h });
      await page.waitForTimeout(400); // chart.js redraws on resize
      await canvas.scrollIntoViewIfNeeded();
      // chart.js follows the resize a frame or two later.
      await page
        .waitForFunction((w) => {
          const c = document.querySelector('[data-testid="chart-canvas"]');
          return c && c.clientWidth > w * 0.4 && c.clientHeight > 200;
        }, w)
        .catch(() => {});
      const box = await canvas.boundingBox();
      check(box && box.width > w * 0.4 && box.height > 200, `the chart is ${box?.width}×${box?.height} at ${w}×${h}`);
      await page.screenshot({ path: join(outDir, `charts-${lang}-${w}x${h}.png`) });
    }
    await page.setViewportSize({ width: 1360, height: 880 });

    step = `${lang}: pivot to wide`;
    await card.locator(tid('chart-pivot')).click();
    const wide = card.locator(tid('chart-wide'));
    await wide.waitFor();
    const head = await wide.locator('thead th').allInnerTexts();
    check(head.join(',') === 'Year,Brazil,Canada,France,Germany,USA', `the wide table's head is ${head}`);
    const y2011 = await wide.locator('tbody tr').nth(2).locator('th, td').allInnerTexts();
    check(y2011[0] === '2011' && y2011[3] === '', `France has no 2011, the row says ${y2011}`);
    await wide.scrollIntoViewIfNeeded();
    await page.screenshot({ path: join(outDir, `charts-${lang}-wide.png`) });
    await card.locator(tid('chart-pivot')).click();

    step = `${lang}: copy the chart as PNG`;
    await context.grantPermissions(['clipboard-read', 'clipboard-write'], { origin: new URL(url).origin }).catch(() => {});
    await card.locator(tid('chart-copy-png')).click();
    await page.locator(tid('toast')).filter({ hasText: 'PNG' }).first().waitFor();
    const png = await page.evaluate(async () => {
      const items = await navigator.clipboard.read();
      const item = items.find((i) => i.types.includes('image/png'));
      if (!item) return null;
      const b = new Uint8Array(await (await item.getType('image/png')).arrayBuffer());
      return { size: b.length, sig: Array.from(b.slice(1, 4)).map((c) => String.fromCharCode(c)).join('') };
    });
    check(png !== null && png.sig === 'PNG' && png.size > 5000, `the clipboard holds no PNG of the chart: ${JSON.stringify(png)}`);

    step = `${lang}: the grid's filter`;
    await card.locator(tid('table-tab')).click();
    await card.locator(tid('filter-button')).click();
    await card.locator(tid('grid-filter')).nth(0).fill('USA');
    await page.waitForFunction(() => document.querySelector('[data-testid="filter-count"]'));
    await card.locator(tid('chart-tab')).click();
    await page.waitForFunction(() => document.querySelector('[data-testid="chart-canvas"]')?.getAttribute('data-series') === '1');
    const fnote = await card.locator(tid('chart-note')).innerText();
    check(fnote.includes(said.filtered), `the note says "${fnote}", want "${said.filtered}"`);
    await card.locator(tid('stats-tab')).click();
    const cover = await card.locator(tid('stats-coverage')).innerText();
    check(cover.includes(said.stats), `the statistics say "${cover}", want "${said.stats}"`);
    await card.screenshot({ path: join(outDir, `charts-${lang}-stats-filtered.png`) });

    step = `${lang}: a single value`;
    await page.fill(tid('question-input'), SINGLE);
    await page.press(tid('question-input'), 'Enter');
    await page.waitForFunction(() => document.querySelectorAll('[data-testid="answer"]').length === 2);
    await page.locator(tid('answer')).last().locator(tid('chart-tab')).waitFor();
    const one = page.locator(tid('answer')).last();
    check((await one.locator(tid('chart-reason')).count()) === 0, 'the table tab should show no chart');
    await one.locator(tid('chart-tab')).click();
    const none = one.locator(tid('chart-none'));
    await none.waitFor();
    check((await none.innerText()).includes(said.none), `the single value says "${await none.innerText()}"`);
    check((await one.locator('.kind.on').count()) === 0, 'no chart kind should be selected while no chart is drawn');
    await one.screenshot({ path: join(outDir, `charts-${lang}-single.png`) });
    await one.locator(tid('chart-draw-anyway')).click();
    check(await one.locator(tid('chart-canvas')).isVisible(), 'drawing anyway should show the chart');

    check(pageErrors.length === 0, `page errors: ${pageErrors.join('; ')}`);
    await page.close();
  }
} catch (e) {
  failed = e;
  await current?.screenshot({ path: join(outDir, 'charts-failed.png'), fullPage: true }).catch(() => {});
} finally {
  await context?.close();
  rmSync(userDataDir, { recursive: true, force: true });
}
if (failed) {
  console.error(String(failed?.stack || failed));
  process.exit(1);
}
console.log('charts: ok');
