import { demoConfig, serveApp } from '/work/wt/bench/scripts/serve-app';
import { launchChromium, startEmulator } from '/work/wt/bench/bench/support/app-run';
const emulator = await startEmulator();
const app = await serveApp({ root: 'build', config: demoConfig(emulator) });
const browser = await launchChromium();
const context = await browser.newContext({ viewport: { width: 390, height: 844 } });
const page = await context.newPage();
await page.addInitScript(`(() => { const W = window.Worker; window.__workerAt = []; window.Worker = class extends W { constructor(...a) { window.__workerAt.push(performance.now()); super(...a); } };
  window.__lt = []; new PerformanceObserver((l) => { for (const e of l.getEntries()) window.__lt.push([Math.round(e.startTime), Math.round(e.duration)]); }).observe({ type: 'longtask', buffered: true });
  document.addEventListener('DOMContentLoaded', () => { window.__dcl = performance.now(); }); })()`);
await page.goto(`${app.url}/`);
await page.getByRole('heading', { name: 'No runs yet' }).waitFor();
const paints: number[] = [], workers: number[] = [];
for (let i = 0; i < 9; i++) {
  await page.goto(`${app.url}/`, { waitUntil: 'commit' });
  const t = await page.evaluate(`new Promise((resolve) => {
    const sel = 'section[aria-label="No runs yet"]';
    const done = () => requestAnimationFrame(() => resolve(performance.now()));
    if (document.querySelector(sel)) return done();
    new MutationObserver((_m, o) => { if (document.querySelector(sel)) { o.disconnect(); done(); } }).observe(document, { childList: true, subtree: true });
  })`);
  const info = await page.evaluate(`(() => {
    const nav = performance.getEntriesByType('navigation')[0];
    const res = performance.getEntriesByType('resource').map(r => [r.name.replace(location.origin,''), Math.round(r.startTime), Math.round(r.responseEnd), r.initiatorType]);
    return { workerAt: window.__workerAt.map(Math.round), lt: window.__lt, dcl: Math.round(nav.domContentLoadedEventEnd), resp: Math.round(nav.responseEnd), res };
  })()`);
  paints.push(Math.round(t as number)); workers.push((info as any).workerAt[0]);
  if (0) console.log('painted', Math.round(t as number), 'worker', (info as any).workerAt, 'longtasks', JSON.stringify((info as any).lt), 'dcl', (info as any).dcl, (info as any).res.map((r: any) => r[0].replace('/_app/immutable/','') + '@' + r[1]).join(' '));
}
const med = (a: number[]) => [...a].sort((x, y) => x - y)[a.length >> 1];
console.log('median paint', med(paints), 'worker at', med(workers), paints.join(','));
await browser.close(); await app.close(); await emulator.close();
