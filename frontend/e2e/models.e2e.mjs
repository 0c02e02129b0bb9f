#!/usr/bin/env node
// End-to-end check of the model picker in a real browser (Debian's
// Chromium through playwright-core).
//
//   node e2e/models.e2e.mjs OUTDIR URL
//
// URL is a `querent serve` address (token included) on the demo database,
// with Ollama pointing at a scripted fake (app/web/models_e2e_test.go) that
// describes qwen2.5-coder:7b (a 32,768-token window) and qwen3:8b (40,960,
// a thinking model). The script opens the Model panel and reads each
// model's window, size and whether it thinks in the picker; then Settings,
// where choosing qwen3:8b shows its "let it think" box and qwen2.5-coder
// does not. Screenshots go to OUTDIR (models-panel.png, models-settings.png);
// a failed check exits 1.
import { chromium } from 'playwright-core';
import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

const [outDir, url] = process.argv.slice(2);
if (!outDir || !url) {
  console.error('usage: node e2e/models.e2e.mjs OUTDIR URL');
  process.exit(2);
}
mkdirSync(outDir, { recursive: true });
const tid = (id) => `[data-testid="${id}"]`;
let step = 'starting';
function check(cond, message) {
  if (!cond) throw new Error(`${step}: ${message}`);
}

const userDataDir = mkdtempSync(join(tmpdir(), 'querent-e2e-chromium-'));
let context;
let failed = null;
try {
  context = await chromium.launchPersistentContext(userDataDir, {
    executablePath: process.env.CHROMIUM || '/usr/bin/chromium',
    headless: true,
    args: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update', '--disable-sync', '--no-first-run'],
    viewport: { width: 1280, height: 900 },
    colorScheme: 'light',
  });
  context.setDefaultTimeout(20000);
  const page = await context.newPage();
  const pageErrors = [];
  page.on('pageerror', (e) => pageErrors.push(String(e)));
  step = 'loading';
  await page.goto(url);
  await page.waitForSelector(`${tid('ollama-status')}[data-running="true"]`);

  step = 'the Model panel';
  await page.click(tid('ollama-status'));
  await page.waitForSelector(tid('model-picker'));
  const options = await page.$$eval(`${tid('model-picker')} option`, (os) => os.map((o) => o.textContent.trim()));
  const coder = options.find((o) => o.startsWith('qwen2.5-coder:7b'));
  const qwen3 = options.find((o) => o.startsWith('qwen3:8b'));
  check(coder && /7\.6B · .+ · 32,768-token window$/.test(coder), `qwen2.5-coder's line: ${coder} (all: ${options.join(' | ')})`);
  check(qwen3 && /40,960-token window · thinks$/.test(qwen3), `qwen3's line: ${qwen3}`);
  check(!options.some((o) => o.startsWith('nomic-embed')), `an embedding model is offered: ${options.join(' | ')}`);
  // A select's options do not show in a screenshot: the chosen one does.
  await page.selectOption(tid('model-picker'), 'qwen3:8b');
  await page.waitForTimeout(300);
  await page.locator(tid('ollama-panel')).screenshot({ path: join(outDir, 'models-panel.png') });
  await page.keyboard.press('Escape');
  await page.waitForSelector(tid('ollama-panel'), { state: 'detached' });

  step = 'Settings';
  await page.click(tid('settings-button'));
  await page.waitForSelector(tid('settings-model'));
  const chosen = await page.$eval(tid('settings-model'), (s) => s.value);
  check(chosen === 'qwen3:8b', `the model chosen in the panel: ${chosen}`);
  await page.waitForSelector(tid('settings-think'));
  const label = await page.locator(tid('settings-think')).locator('xpath=..').textContent();
  check(/Let qwen3:8b think before it writes the SQL/.test(label), `the box's label: ${label}`);
  await page.check(tid('settings-think'));
  await page.locator('form').first().screenshot({ path: join(outDir, 'models-settings.png') });
  await page.selectOption(tid('settings-model'), 'qwen2.5-coder:7b');
  await page.waitForSelector(tid('settings-think'), { state: 'detached' });
  check(pageErrors.length === 0, `page errors: ${pageErrors.join('; ')}`);
} catch (e) {
  failed = e;
} finally {
  await context?.close();
  rmSync(userDataDir, { recursive: true, force: true });
}
if (failed) {
  console.error(`e2e models: ${failed.message}`);
  process.exit(1);
}
console.error('e2e models: ok');
