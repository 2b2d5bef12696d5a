// Loads a page in headless Chromium and waits for its test result, over the DevTools protocol
// on a pipe (no port, no extra package):
//   node tests/js/page-check.mjs CHROMIUM URL [TIMEOUT_S] [SCREENSHOT.png [WIDTHxHEIGHT]]
// (with a screenshot path, the page is also captured once its result is written).
// Prints the text of #test-result (JSON) once the page has written it, and exits 0; records
// the page's console errors and uncaught exceptions into that JSON's `console` array. Exits 1
// when the page writes nothing in time. scripts/check-web judges the result.
//
// "In time" is measured in the browser's own work, not the wall clock, so that a loaded
// machine, which runs the page slowly, does not fail it: TIMEOUT_S is the processor time every
// process of the browser may use together (Linux: /proc), and a browser that uses none for 60 s
// is hung. Where /proc is missing, TIMEOUT_S is wall time.
import { spawn } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

const [chromium, url, timeoutText = '120', screenshot, sizeText = '1280x800'] = process.argv.slice(2);
const [width, height] = sizeText.split('x').map(Number);
const profile = mkdtempSync(join(tmpdir(), 'boids-chromium-'));
const browser = spawn(chromium, [
  // WebGL2 on the CPU (SwiftShader through ANGLE): no GPU here, as on most CI machines.
  '--headless', '--no-sandbox', '--use-angle=swiftshader', '--enable-unsafe-swiftshader',
  '--disable-dev-shm-usage', '--no-first-run',
  `--user-data-dir=${profile}`, '--remote-debugging-pipe', 'about:blank',
  // Its own process group, so that the end can stop every process of the browser at once.
], { stdio: ['ignore', 'ignore', 'ignore', 'pipe', 'pipe'], detached: true });
const toBrowser = browser.stdio[3];
const fromBrowser = browser.stdio[4];
// The pipes break when the browser is killed at the end: nothing to report then.
toBrowser.on('error', () => {});
browser.on('error', (e) => finish(1, `page-check: cannot run ${chromium}: ${e.message}`));
fromBrowser.on('error', () => {});

let nextId = 1;
const pending = new Map();
const consoleErrors = [];
let buffered = '';
fromBrowser.on('data', (chunk) => {
  buffered += chunk.toString('utf8');
  let end;
  while ((end = buffered.indexOf('\0')) >= 0) {
    const msg = JSON.parse(buffered.slice(0, end));
    buffered = buffered.slice(end + 1);
    if (msg.id && pending.has(msg.id)) {
      const { resolve, reject } = pending.get(msg.id);
      pending.delete(msg.id);
      if (msg.error) reject(new Error(`${msg.error.message}`));
      else resolve(msg.result);
    } else if (msg.method === 'Runtime.consoleAPICalled' && ['error', 'assert'].includes(msg.params.type)) {
      consoleErrors.push(msg.params.args.map((a) => a.value ?? a.description ?? '').join(' '));
    } else if (msg.method === 'Runtime.exceptionThrown') {
      const d = msg.params.exceptionDetails;
      consoleErrors.push(`uncaught: ${d.exception?.description ?? d.text}`);
    } else if (msg.method === 'Log.entryAdded' && msg.params.entry.level === 'error') {
      consoleErrors.push(`${msg.params.entry.source}: ${msg.params.entry.text}`);
    }
  }
});

function send(method, params = {}, sessionId) {
  const id = nextId++;
  toBrowser.write(JSON.stringify({ id, method, params, ...(sessionId ? { sessionId } : {}) }) + '\0');
  return new Promise((resolve, reject) => pending.set(id, { resolve, reject }));
}

let finishing = false;
function finish(code, text) {
  if (finishing) return;
  finishing = true;
  if (text) (code === 0 ? process.stdout : process.stderr).write(text + '\n');
  // The profile goes once every process of the browser has stopped: the main process's exit
  // is not enough (killed, it left its helpers writing their caches into the profile, and a
  // directory behind every run). So: ask the browser to close, which stops its helpers; then
  // (closed, or after 3 s) kill what is left of its process group, and remove the profile a
  // moment later.
  let done = false;
  const gone = () => {
    if (done) return;
    done = true;
    try {
      process.kill(-browser.pid, 'SIGKILL');
    } catch {
      // The group has no process left.
    }
    setTimeout(() => {
      rmSync(profile, { recursive: true, force: true });
      process.exit(code);
    }, 300);
  };
  if (browser.exitCode !== null || browser.signalCode !== null) gone();
  browser.once('exit', gone);
  setTimeout(gone, 3000);
  send('Browser.close').catch(() => {});
}

// The processor seconds used by the browser's process group (it is the group's leader), or
// null without /proc.
function browserSeconds() {
  let ticks = 0;
  let entries;
  try {
    entries = readdirSync('/proc');
  } catch {
    return null;
  }
  for (const name of entries) {
    if (!/^[0-9]+$/.test(name)) continue;
    try {
      // The fields after the command name (in parentheses, which may hold spaces): state,
      // ppid, pgrp, ...; utime and stime are the 12th and 13th of them.
      const rest = readFileSync(`/proc/${name}/stat`, 'utf8').split(') ').pop().split(' ');
      if (Number(rest[2]) === browser.pid) ticks += Number(rest[11]) + Number(rest[12]);
    } catch {
      // The process ended meanwhile.
    }
  }
  return ticks / 100;
}
const limit = Number(timeoutText);
const started = Date.now();
let seen = { cpu: 0, at: Date.now() };
const deadline = setInterval(() => {
  const cpu = browserSeconds();
  if (cpu === null) {
    if (Date.now() - started > limit * 1000) finish(1, `page-check: no result from ${url} within ${limit} s`);
    return;
  }
  if (cpu > seen.cpu) seen = { cpu, at: Date.now() };
  if (cpu > limit) {
    finish(1, `page-check: no result from ${url} within ${limit} s of the browser's processor time`);
  } else if (Date.now() - seen.at > 60_000) {
    finish(1, `page-check: ${url} hung (the browser used no processor time for 60 s, ${cpu.toFixed(1)} s in all)`);
  }
}, 1000);
try {
  const { targetId } = await send('Target.createTarget', { url: 'about:blank' });
  const { sessionId } = await send('Target.attachToTarget', { targetId, flatten: true });
  await send('Runtime.enable', {}, sessionId);
  await send('Log.enable', {}, sessionId);
  await send('Page.enable', {}, sessionId);
  if (screenshot) {
    await send('Emulation.setDeviceMetricsOverride', { width, height, deviceScaleFactor: 1, mobile: width < 600 }, sessionId);
  }
  await send('Page.navigate', { url }, sessionId);
  for (;;) {
    const { result } = await send('Runtime.evaluate', {
      expression: "document.title === 'test done' ? document.getElementById('test-result').textContent : ''",
      returnByValue: true,
    }, sessionId);
    if (result.value) {
      clearInterval(deadline);
      const out = JSON.parse(result.value);
      out.console = consoleErrors;
      if (screenshot) {
        const { data } = await send('Page.captureScreenshot', { format: 'png' }, sessionId);
        (await import('node:fs')).writeFileSync(screenshot, Buffer.from(data, 'base64'));
      }
      finish(0, JSON.stringify(out));
      break;
    }
    await new Promise((r) => setTimeout(r, 100));
  }
} catch (e) {
  finish(1, `page-check: ${e.message}`);
}
