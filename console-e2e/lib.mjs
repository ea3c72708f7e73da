// Shared by the console's browser flows (*.test.mjs, each run by a test in ConsoleIT): the environment, a headless
// Debian chromium driven by playwright-core, sign-in with an API key, screenshots, and the checks every flow ends
// with (no request off the server's origin, no error logged or thrown by the page, no 4xx/5xx answer unless the
// flow expected it).
import assert from 'node:assert/strict';
import { mkdtempSync, mkdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { chromium } from 'playwright-core';

export function env(name) {
  const value = process.env[name];
  assert.ok(value, `${name} is not set`);
  return value;
}

export const url = env('KEYHAVEN_URL');
export const CSP = "default-src 'self'; script-src 'self'; style-src 'self'; img-src 'self' data:; "
  + "connect-src 'self'; frame-ancestors 'none'; base-uri 'none'; form-action 'none'";

/**
 * Runs `flow(browser)` in a fresh browser profile and closes it afterwards. `browser.newPage()` opens a watched
 * page; `browser.newContext()` a second, separate profile (another operator); `browser.expectStatus(n, pattern)`
 * allows answers with status n whose URL matches; `browser.screenshot(page, name)` saves to KEYHAVEN_SCREENSHOTS.
 */
export async function withBrowser(flow) {
  const screenshots = env('KEYHAVEN_SCREENSHOTS');
  mkdirSync(screenshots, { recursive: true });
  const profiles = [];
  const contexts = [];
  const problems = [];
  const requests = [];
  const expected = [];
  const launch = async () => {
    const profile = mkdtempSync(join(tmpdir(), 'keyhaven-console-chromium-'));
    profiles.push(profile);
    const context = await chromium.launchPersistentContext(profile, {
      executablePath: process.env.KEYHAVEN_CHROMIUM || '/usr/bin/chromium',
      headless: true,
      args: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run',
        '--disable-background-networking', '--disable-component-update', '--disable-sync'],
      viewport: { width: 1280, height: 800 },
    });
    contexts.push(context);
    return context;
  };
  const watch = (page) => {
    // Any error the page logs (a CSP violation included) or throws fails the flow.
    page.on('console', (message) => { if (message.type() === 'error') problems.push(message.text()); });
    page.on('pageerror', (error) => problems.push(String(error)));
    page.on('request', (request) => requests.push(request.url()));
    page.on('response', (answer) => {
      const allowed = expected.some(([status, pattern]) => answer.status() === status && pattern.test(answer.url()));
      if (answer.status() >= 400 && !allowed) problems.push(`${answer.status()} ${answer.url()}`);
    });
    return page;
  };
  const newPageIn = async (context) => watch(context.pages()[0] ?? await context.newPage());
  try {
    const first = await launch();
    await flow({
      newPage: () => newPageIn(first),
      newContext: async () => {
        const context = await launch();
        return { context, newPage: () => newPageIn(context) };
      },
      context: first,
      expectStatus: (status, pattern) => expected.push([status, pattern]),
      // Console messages the flow provokes on purpose (a refused request is logged by the browser).
      expectProblem: (pattern) => expected.push([0, pattern]),
      screenshot: (page, name) => page.screenshot({ path: join(screenshots, `${name}.png`), fullPage: true }),
    });
    const origin = new URL(url).origin;
    assert.deepEqual(requests.filter((r) => new URL(r).origin !== origin), [], 'only the server\'s origin');
    const unexpected = problems.filter((p) => !expected.some(([status, pattern]) => status === 0 && pattern.test(p)));
    assert.deepEqual(unexpected, [], 'no error logged, thrown or answered');
  } finally {
    for (const context of contexts) await context.close();
    for (const profile of profiles) rmSync(profile, { recursive: true, force: true });
  }
}

/** Opens the console and signs in with an API key; waits for "Signed in as <name>". */
export async function signInWithApiKey(page, { organizationId, publicKey, privateKey, name }) {
  await page.goto(`${url}/console`);
  await page.getByLabel('Organization id').fill(organizationId);
  await page.getByLabel('API public key (hex)').fill(publicKey);
  await page.getByLabel('API private key (hex)').fill(privateKey);
  await page.getByRole('button', { name: 'Sign in', exact: true }).click();
  await page.getByText(`Signed in as ${name}`).waitFor();
}

/** Shows a page of the console through its navigation link. */
export async function openPage(page, title) {
  await page.getByRole('navigation', { name: 'Pages' }).getByRole('link', { name: title, exact: true }).click();
  await page.getByRole('heading', { level: 2, name: title, exact: true }).waitFor();
}
