// tests/browser/dashboard.test.mjs - drives headless Debian chromium (through
// playwright-core) against tools/dashboard.php served by PHP's built-in
// server with tests/browser/router.php. Started by tests/browser/run.sh,
// which sets:
//   SC_BASE         http://127.0.0.1:PORT of the server with a password set
//   SC_BASE_NOPASS  a second server started without a password
//   SC_USER, SC_PASSWORD  the dashboard credentials
//   SC_OUT          directory for screenshots
//   CHROMIUM        the browser binary (default /usr/bin/chromium)
// Prints "ok - ..." / "not ok - ..." per check and "N passed, N failed" last.

import { chromium } from 'playwright-core';
import fs from 'node:fs';
import path from 'node:path';

const BASE = process.env.SC_BASE;
const BASE_NOPASS = process.env.SC_BASE_NOPASS;
const USER = process.env.SC_USER || 'admin';
const PASSWORD = process.env.SC_PASSWORD;
const OUT = process.env.SC_OUT || '/tmp';
const CHROMIUM = process.env.CHROMIUM || '/usr/bin/chromium';
if (!BASE || !PASSWORD) {
  console.error('SC_BASE and SC_PASSWORD must be set (run tests/browser/run.sh)');
  process.exit(2);
}

let passed = 0, failed = 0;
function check(name, ok, detail) {
  if (ok) { passed++; console.log('ok - ' + name); }
  else { failed++; console.log('not ok - ' + name + (detail !== undefined ? '\n    ' + String(detail).replace(/\n/g, '\n    ') : '')); }
  return ok;
}
async function step(name, fn) {
  try { await fn(); } catch (e) { check(name + ' (threw)', false, e && e.stack || e); }
}

const auth = 'Basic ' + Buffer.from(USER + ':' + PASSWORD).toString('base64');
const get = (url, opts = {}) => fetch(url, { redirect: 'manual', ...opts });
const json = async url => (await get(BASE + url)).json();
const info = () => json('/__test/info');
const exists = async key => (await json('/__test/exists?key=' + encodeURIComponent(key))).exists;
const sleep = ms => new Promise(r => setTimeout(r, ms));
const DASH = BASE + '/dashboard.php';
const ODD_KEY = '<b>odd</b> & "key" \'x\'';

// ---------------------------------------------------------------- HTTP level
await step('setup', async () => {
  const r = await json('/__test/setup');
  check('setup stored every test key', Object.values(r.stored).length === 46 && Object.values(r.stored).every(v => v === true), JSON.stringify(r));
});

await step('auth', async () => {
  let r = await get(DASH);
  check('no credentials: 401 with a Basic challenge', r.status === 401 && /^Basic /.test(r.headers.get('www-authenticate') || ''),
    r.status + ' ' + r.headers.get('www-authenticate'));
  r = await get(DASH, { headers: { Authorization: 'Basic ' + Buffer.from(USER + ':wrong').toString('base64') } });
  check('wrong password: 401', r.status === 401, r.status);
  r = await get(DASH, { headers: { Authorization: 'Basic ' + Buffer.from('root:' + PASSWORD).toString('base64') } });
  check('wrong user: 401', r.status === 401, r.status);
  r = await get(DASH + '?action=stats');
  const body = await r.text();
  check('stats without credentials: 401 and no figures', r.status === 401 && !body.includes('"info"'), r.status);
  const before = (await info()).entries;
  r = await get(DASH, { method: 'POST', headers: { 'Content-Type': 'application/x-www-form-urlencoded' }, body: 'action=clear' });
  check('clear without credentials: 401 and nothing cleared', r.status === 401 && (await info()).entries === before && before > 0,
    r.status + ', entries ' + before);
});

await step('default password', async () => {
  if (!BASE_NOPASS) { check('default password refused (no second server)', false); return; }
  for (const creds of [null, 'admin:change-me']) {
    const r = await get(BASE_NOPASS + '/dashboard.php', creds ? { headers: { Authorization: 'Basic ' + Buffer.from(creds).toString('base64') } } : {});
    const body = await r.text();
    check('default password refused with a clear message' + (creds ? ' (even when sent)' : ''),
      r.status === 503 && body.includes('refuses to run with the default password') && body.includes('SHARDCACHE_DASHBOARD_PASSWORD')
      && !body.includes('data-k='), r.status + ' ' + body.slice(0, 200));
  }
});

let csrf = '';
await step('csrf', async () => {
  const html = await (await get(DASH, { headers: { Authorization: auth } })).text();
  const m = html.match(/name="csrf" value="([^"]+)"/);
  check('page carries a CSRF token', !!m);
  csrf = m ? m[1] : '';
  const post = (body, extra = {}) => get(DASH, { method: 'POST', headers: { Authorization: auth, 'Content-Type': 'application/x-www-form-urlencoded', ...extra }, body: new URLSearchParams(body).toString() });
  let r = await post({ action: 'delete', key: 'user:1', csrf: 'forged' });
  check('delete with a forged token: 403, key kept', r.status === 403 && await exists('user:1'), r.status);
  r = await post({ action: 'delete', key: 'user:1' });
  check('delete without a token: 403, key kept', r.status === 403 && await exists('user:1'), r.status);
  r = await post({ action: 'delete', key: 'user:1', csrf }, { Origin: 'http://evil.example' });
  check('delete from another origin: 403, key kept', r.status === 403 && await exists('user:1'), r.status);
  r = await get(DASH + '?action=delete&key=user:1&csrf=' + encodeURIComponent(csrf), { headers: { Authorization: auth } });
  check('delete by GET: 405, key kept', r.status === 405 && await exists('user:1'), r.status);
  r = await post({ action: 'clear', csrf: 'forged' });
  check('clear with a forged token: 403, nothing cleared', r.status === 403 && (await info()).entries === 46, r.status);
  const h = await get(DASH, { headers: { Authorization: auth } });
  check('security headers: CSP without unsafe-inline scripts, no framing, no caching',
    /script-src 'nonce-/.test(h.headers.get('content-security-policy') || '') && !/script-src[^;]*unsafe-inline/.test(h.headers.get('content-security-policy'))
    && h.headers.get('x-frame-options') === 'DENY' && /no-store/.test(h.headers.get('cache-control') || ''),
    JSON.stringify(Object.fromEntries(h.headers)));
});

await step('metrics endpoint', async () => {
  const r = await get(BASE + '/metrics.php');
  const text = await r.text();
  const i = await info();
  const m = text.match(/^shardcache_entries (\d+)$/m);
  check('metrics.php over HTTP: 200, text/plain version 0.0.4, entries = shardcache_info()',
    r.status === 200 && /^text\/plain; version=0\.0\.4/.test(r.headers.get('content-type') || '') && m && Number(m[1]) === i.entries,
    r.status + ' ' + r.headers.get('content-type') + ' ' + (m && m[1]) + ' vs ' + i.entries);
  const shardLines = text.match(/^shardcache_shard_entries\{shard="\d+"\} \d+$/mg) || [];
  check('metrics.php: one shardcache_shard_entries line per shard', shardLines.length === i.shards && i.shards > 0, shardLines.length + ' vs ' + i.shards);
});

// ---------------------------------------------------------------- browser
const browser = await chromium.launch({
  executablePath: CHROMIUM,
  headless: true,
  args: ['--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run', '--disable-background-networking',
    '--disable-component-update', '--disable-sync', '--disable-dev-shm-usage'],
});
const context = await browser.newContext({ httpCredentials: { username: USER, password: PASSWORD }, viewport: { width: 1360, height: 900 } });
const page = await context.newPage();
page.setDefaultTimeout(15000);
const consoleErrors = [];
page.on('console', m => { if (m.type() === 'error' || /Content Security Policy/i.test(m.text())) consoleErrors.push(m.text()); });
page.on('pageerror', e => consoleErrors.push('pageerror: ' + e.message));
let dialogAction = 'accept';
const dialogs = [];
page.on('dialog', d => { dialogs.push(d.message()); d[dialogAction](); });

const pageText = () => page.evaluate(() => document.body.innerText);
const readFigures = () => page.evaluate(() => Array.from(document.querySelectorAll('span.v')).map(e => ({
  k: e.dataset.k || null, d: e.dataset.d || null, f: e.dataset.f, v: e.dataset.v === undefined ? null : Number(e.dataset.v), text: e.textContent,
})));
const UNIT = { B: 1, KiB: 1024, MiB: 1024 ** 2, GiB: 1024 ** 3 };
// The text of a figure is its data-v value, formatted (null when it is).
function textMismatch(f) {
  if (f.v === null) return null;
  if (f.f === 'int' && f.text.replace(/,/g, '') !== String(f.v)) return `text "${f.text}" is not ${f.v}`;
  if (f.f === 'bytes') {
    const m = f.text.match(/^([\d,]+(?:\.\d)?) (B|KiB|MiB|GiB)$/);
    if (!m || Math.abs(Number(m[1].replace(/,/g, '')) * UNIT[m[2]] - f.v) > 0.051 * UNIT[m[2]]) return `text "${f.text}" is not ${f.v} bytes`;
  }
  if (f.f === 'pct') {
    const m = f.text.match(/^([\d,]+\.\d)%$/);
    if (!m || Math.abs(Number(m[1].replace(/,/g, '')) - f.v * 100) > 0.051) return `text "${f.text}" is not ${f.v}`;
  }
  return null;
}
const noPhpNoise = async what => {
  const t = await pageText();
  check(what + ': no PHP warnings or errors in the page', !/\b(Warning|Notice|Deprecated|Fatal error|Parse error):\s|Uncaught (Error|Exception)/.test(t),
    (t.match(/.*(Warning|Notice|Deprecated|Fatal error).*/i) || [''])[0]);
};

await step('render and figures', async () => {
  const before = await info();
  const resp = await page.goto(DASH + '?refresh=1');
  const figures = await readFigures();
  const after = await info();
  check('dashboard renders (200, title)', resp.status() === 200 && (await page.title()) === 'shardcache dashboard', resp.status());
  await noPhpNoise('overview');

  const at = (o, p) => p.split('.').reduce((x, k) => (x === null || x === undefined || typeof x !== 'object') ? null : (k in x ? x[k] : null), o);
  const bad = [];
  let compared = 0;
  const seen = new Set();
  for (const f of figures.filter(f => f.k)) {
    let a = at(before, f.k), b = at(after, f.k);
    if (typeof a === 'boolean') { a = +a; b = +b; }
    if (typeof a !== 'number') {
      if (f.v !== null) bad.push(`${f.k}: page shows ${f.v}, shardcache_info() has no such number`);
      continue;
    }
    if (f.v === null) { bad.push(`${f.k}: shardcache_info() has ${a}, page shows "${f.text}"`); continue; }
    if (f.v < Math.min(a, b) || f.v > Math.max(a, b)) bad.push(`${f.k}: page ${f.v}, shardcache_info() ${a} before and ${b} after`);
    const mm = textMismatch(f);
    if (mm) bad.push(`${f.k}: ${mm}`);
    compared++;
    seen.add(f.k);
  }
  const required = ['entries', 'slots', 'mem_total', 'mem_used', 'mem_entries', 'mem_wasted', 'mem_free', 'free_runs', 'largest_free_run', 'hits', 'misses', 'inserts', 'updates',
    'deletes', 'evicted', 'expunges', 'expired', 'nomem', 'repairs', 'resets', 'pool_lock_acquisitions', 'slab_refills', 'slab_returns',
    'local.hits', 'local.misses', 'local.optimistic_retries', 'local.locked_reads'];
  for (let i = 0; i < before.shards; i++) for (const k of ['entries', 'slots', 'hits', 'misses', 'inserts', 'evicted', 'pages', 'mem_used']) required.push(`per_shard.${i}.${k}`);
  for (let i = 0; i < (before.classes || []).length; i++) for (const k of ['slab_pages', 'objects_used', 'bytes_used']) required.push(`classes.${i}.${k}`);
  const missing = required.filter(k => !seen.has(k));
  check(`page figures equal shardcache_info() (${compared} compared)`, bad.length === 0 && compared >= required.length, bad.join('\n'));
  check(`every figure the dashboard should show is on the page (${required.length})`, missing.length === 0, 'missing: ' + missing.join(', '));
  const optional = figures.filter(f => /^per_shard\.\d+\.(lock_waits|optimistic_retries)$/.test(f.k || ''));
  console.log(`# per-shard lock_waits/optimistic_retries: ${optional.filter(f => f.v !== null).length} of ${optional.length} reported by shardcache_info()`);
  const entriesFig = figures.find(f => f.k === 'entries');
  check('entries on the page: 46 (what the setup stored)', entriesFig && entriesFig.text === '46', entriesFig && entriesFig.text);

  const pv = k => (figures.find(f => f.k === k) || {}).v;
  const dv = k => (figures.find(f => f.d === k) || {}).v;
  const hits = pv('hits'), misses = pv('misses');
  check('hit ratio = hits / (hits + misses) of the shown figures', hits + misses > 0 && Math.abs(dv('hit_ratio') - hits / (hits + misses)) < 1e-9,
    `${dv('hit_ratio')} vs ${hits}/${hits + misses}`);
  check('held unused = total - used - free', dv('unused') === Math.max(0, pv('mem_total') - pv('mem_used') - pv('mem_free')), dv('unused'));
  const free = pv('mem_free');
  check('fragmentation = 1 - largest free run / free', Math.abs(dv('fragmentation') - (free > 0 ? Math.max(0, 1 - pv('largest_free_run') / free) : 0)) < 1e-9, dv('fragmentation'));
  check('hits and misses were recorded (sampled) by the setup reads', hits > 0 && misses > 0, `${hits} hits, ${misses} misses`);
});

await step('charts', async () => {
  const bar = await page.evaluate(() => Object.fromEntries(Array.from(document.querySelectorAll('#mem-bar rect')).map(r => [r.dataset.part, Number(r.getAttribute('width'))])));
  const figs = await page.evaluate(() => Object.fromEntries(Array.from(document.querySelectorAll('span.v[data-k], span.v[data-d]')).map(e => [e.dataset.k || 'd:' + e.dataset.d, Number(e.dataset.v)])));
  const T = figs.mem_total, wasted = figs.mem_wasted || 0;
  const want = { entries: figs.mem_entries - wasted, rounding: wasted, tables: figs.mem_used - figs.mem_entries, unused: figs['d:unused'], free: figs.mem_free };
  check('memory bar: 5 parts in proportion to the figures, filling the bar',
    Object.keys(bar).join() === 'entries,rounding,tables,unused,free' && Object.keys(want).every(k => Math.abs(bar[k] - 1000 * want[k] / T) < 0.02)
    && Math.abs(Object.values(bar).reduce((a, b) => a + b, 0) - 1000) < 0.1, JSON.stringify(bar) + ' ' + JSON.stringify(want));
  const i = await info();
  const bars = await page.evaluate(() => Array.from(document.querySelectorAll('#shard-entries rect')).map(r => ({ k: r.dataset.k, h: Number(r.getAttribute('height')) })));
  const maxShard = i.per_shard.reduce((m, s, j) => s.entries > i.per_shard[m].entries ? j : m, 0);
  const tallest = bars.reduce((m, b, j) => b.h > bars[m].h ? j : m, 0);
  check('entries-per-shard chart: one bar per shard, tallest = fullest shard', bars.length === i.shards && bars[tallest].h > 0
    && i.per_shard[tallest].entries === i.per_shard[maxShard].entries, `${bars.length} bars, tallest ${tallest}, fullest ${maxShard}`);
  // Samples: the page polls every second; make some traffic between polls.
  await page.waitForFunction(() => Number(document.getElementById('status').dataset.polls || 0) >= 2, null, { timeout: 20000 });
  await json('/__test/churn?n=3000');
  await page.waitForFunction(() => Number(document.getElementById('status').dataset.polls || 0) >= 4, null, { timeout: 20000 });
  const charts = await page.evaluate(() => Object.fromEntries(['chart-hits', 'chart-writes', 'chart-evictions', 'chart-memory'].map(id => [id,
    Array.from(document.querySelectorAll('#' + id + ' path.line')).map(p => ({ s: p.dataset.series, n: (p.getAttribute('d').match(/[ML]/g) || []).length }))])));
  check('time-series charts drawn from samples (memory, hits, writes, evictions)',
    ['chart-hits', 'chart-writes', 'chart-evictions', 'chart-memory'].every(id => charts[id].length > 0 && charts[id].every(p => p.n >= 2)), JSON.stringify(charts));
  const legend = await page.evaluate(() => document.querySelector('#chart-writes').previousElementSibling.innerText);
  const writes = await page.evaluate(() => {
    const a = JSON.parse(sessionStorage.getItem('shardcache.dashboard.samples.v1:' + location.pathname) || '[]');
    let max = 0;
    for (let j = 1; j < a.length; j++) max = Math.max(max, (a[j].inserts - a[j - 1].inserts) / (a[j].t - a[j - 1].t));
    return { n: a.length, max };
  });
  check('the churn shows as a rate of inserts in the kept samples', writes.n >= 4 && writes.max > 0 && /inserts/.test(legend), JSON.stringify(writes) + ' ' + legend);
  const liveEntries = await page.evaluate(() => document.querySelector('span.v[data-k="inserts"]').dataset.v);
  check('live update: the inserts figure followed the churn without a reload', Number(liveEntries) >= 3000, liveEntries);
  const live = await readFigures();
  const liveBad = live.map(f => [f.k || 'derived ' + f.d, textMismatch(f)]).filter(x => x[1]).map(x => x.join(': '));
  check(`live update: the page script formats every figure as the server does (${live.filter(f => f.v !== null).length})`,
    liveBad.length === 0 && live.filter(f => f.v !== null).length > 250, liveBad.join('\n'));
  await page.reload();
  const kept = await page.evaluate(() => JSON.parse(sessionStorage.getItem('shardcache.dashboard.samples.v1:' + location.pathname) || '[]').length);
  check('samples survive a reload (session storage)', kept >= writes.n, `${kept} after reload, ${writes.n} before`);
  await page.screenshot({ path: path.join(OUT, 'dashboard.png'), fullPage: true });
  console.log('# screenshot: ' + path.join(OUT, 'dashboard.png'));
});

const rowKeys = () => page.evaluate(() => Array.from(document.querySelectorAll('#key-table a.key-link')).map(a => a.textContent));

await step('search', async () => {
  await page.goto(DASH + '?list=1&refresh=0');
  await page.fill('#q', '^user:1\\d$');
  await Promise.all([page.waitForNavigation(), page.click('#search-button')]);
  const keys = await rowKeys();
  const want = Array.from({ length: 10 }, (_, j) => 'user:1' + j);
  check('regex search ^user:1\\d$ finds exactly user:10..user:19', JSON.stringify(keys) === JSON.stringify(want), JSON.stringify(keys));
  check('match count says 10 keys', /^10 keys match/.test(await page.textContent('#match-count')), await page.textContent('#match-count'));
  await noPhpNoise('search');

  await page.fill('#q', 'ODD');
  await page.check('input[name=i]');
  await Promise.all([page.waitForNavigation(), page.click('#search-button')]);
  const odd = await rowKeys();
  const injected = await page.evaluate(() => document.querySelectorAll('#key-table b').length);
  check('case-insensitive search finds the key with HTML in it, shown as text', odd.length === 1 && odd[0] === ODD_KEY && injected === 0, JSON.stringify(odd) + ' <b>: ' + injected);

  await page.fill('#q', 'user:(');
  await Promise.all([page.waitForNavigation(), page.click('#search-button')]);
  check('an invalid regex gives a message, not a PHP warning', await page.isVisible('#regex-error') && /missing closing parenthesis/i.test(await page.textContent('#regex-error')),
    await page.textContent('body').then(t => t.slice(0, 300)));
  await noPhpNoise('invalid regex');

  await page.goto(DASH + '?list=1&sort=size&order=desc&refresh=0');
  const bySize = await rowKeys();
  check('keys are read with APCUIterator (shardcache\'s, APCu is not loaded)', /read with APCUIterator/.test(await page.textContent('#match-count')), await page.textContent('#match-count'));
  check('sort by size, descending: blob:big first', bySize[0] === 'blob:big' && bySize.length === 46, JSON.stringify(bySize.slice(0, 3)) + ' of ' + bySize.length);
  await page.goto(DASH + '?list=1&sort=key&order=asc&refresh=0');
  const byKey = await rowKeys();
  check('sort by key, ascending', byKey.length === 46 && byKey.every((k, j) => j === 0 || Buffer.compare(Buffer.from(byKey[j - 1]), Buffer.from(k)) < 0), JSON.stringify(byKey.slice(0, 5)));
});

await step('details', async () => {
  await page.goto(DASH + '?q=' + encodeURIComponent('^user:12$') + '&refresh=0');
  await Promise.all([page.waitForNavigation(), page.click('a.key-link')]);
  const value = await page.textContent('#d-value');
  check('key details show the value of user:12', /user number 12/.test(value) && (await page.textContent('#d-type')).trim() === 'array', value.slice(0, 200));
  check('key details show the key name', (await page.textContent('.key-name')) === 'user:12');
  await page.goto(DASH + '?key=' + encodeURIComponent('session:abc') + '&refresh=0');
  check('key details show the TTL', (await page.textContent('#d-ttl')).trim() === '3,600 s', await page.textContent('#d-ttl'));
  check('key details show a string value', /^string\(26\)\ntoken-x{20}$/.test(await page.textContent('#d-value')), await page.textContent('#d-value'));
  await noPhpNoise('key details');
  await page.screenshot({ path: path.join(OUT, 'dashboard-key.png'), fullPage: true });
  await page.goto(DASH + '?key=' + encodeURIComponent('no:such:key') + '&refresh=0');
  check('details of a missing key say so', await page.isVisible('#key-missing'));
});

await step('delete', async () => {
  await page.goto(DASH + '?q=' + encodeURIComponent('^user:1[34]$') + '&refresh=0');
  dialogAction = 'dismiss';
  await page.click('#key-table tr.key-row:has(a:text-is("user:13")) button');
  await sleep(300);
  check('dismissing the confirmation keeps the key', await exists('user:13') && dialogs.length === 1, dialogs.join(' | '));
  dialogAction = 'accept';
  await Promise.all([page.waitForNavigation(), page.click('#key-table tr.key-row:has(a:text-is("user:13")) button')]);
  check('delete removes the key (and only that key)', !(await exists('user:13')) && await exists('user:14') && await exists('user:12'));
  check('after the delete: message, and the list no longer shows it',
    /Deleted key user:13/.test(await page.textContent('#flash')) && JSON.stringify(await rowKeys()) === JSON.stringify(['user:14']),
    (await page.textContent('#flash')) + ' ' + JSON.stringify(await rowKeys()));
  await page.goto(DASH + '?key=' + encodeURIComponent(ODD_KEY) + '&refresh=0');
  await Promise.all([page.waitForNavigation(), page.click('.delete-form button')]);
  check('delete from the details page (key with HTML and quotes)', !(await exists(ODD_KEY)) && /Deleted key/.test(await page.textContent('#flash')));
});

await step('clear', async () => {
  await page.goto(DASH + '?refresh=0');
  await Promise.all([page.waitForNavigation(), page.click('#clear-button')]);
  const i = await info();
  check('clear cache empties the cache', i.entries === 0 && /cleared/.test(await page.textContent('#flash')), i.entries);
  check('the page shows 0 entries after the clear', (await page.textContent('span.v[data-k="entries"]')) === '0');
});

check('no console errors, page errors or CSP violations', consoleErrors.length === 0, consoleErrors.join('\n'));
await browser.close();

console.log(`${passed} passed, ${failed} failed`);
process.exit(failed ? 1 : 0);
