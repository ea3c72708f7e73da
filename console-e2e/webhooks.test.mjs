// The Webhooks page in a real browser: a delivery that failed is shown with its status, HTTP status and error;
// "Redeliver" queues it again and the page shows it delivered; an endpoint is created, deactivated and deleted. Run
// by ConsoleIT, whose webhook receiver answered a user tag's event 400 once and everything else 200; afterwards it
// checks the receiver and the deliveries through the API.
import assert from 'node:assert/strict';
import { env, openPage, signInWithApiKey, withBrowser } from './lib.mjs';

const operator = {
  organizationId: env('KEYHAVEN_ORGANIZATION_ID'),
  publicKey: env('KEYHAVEN_OPERATOR_PUBLIC_KEY'),
  privateKey: env('KEYHAVEN_OPERATOR_PRIVATE_KEY'),
  name: env('KEYHAVEN_OPERATOR_NAME'),
};
const endpointId = env('KEYHAVEN_ENDPOINT_ID');
const failedEventId = env('KEYHAVEN_FAILED_EVENT_ID');
const secondUrl = env('KEYHAVEN_SECOND_ENDPOINT_URL');

/** The facts a delivery shows, by term. */
async function facts(delivery) {
  return delivery.locator('dl').evaluate((list) => Object.fromEntries(
    Array.from(list.querySelectorAll('dt'), (term) => [term.textContent, term.nextElementSibling.textContent])));
}

await withBrowser(async (browser) => {
  const page = await browser.newPage();
  await signInWithApiKey(page, operator);
  await openPage(page, 'Webhooks');

  const endpoint = page.locator(`#endpoint-list > li[data-endpoint-id="${endpointId}"]`);
  await endpoint.getByRole('heading', { name: 'payments' }).waitFor();
  await endpoint.locator('.status', { hasText: /^active$/ }).waitFor();
  const failed = endpoint.locator(`.deliveries > li[data-event-id="${failedEventId}"]`);
  await failed.locator('.status', { hasText: /^FAILED$/ }).waitFor();
  const before = await facts(failed);
  assert.deepEqual(
    { status: before['HTTP status'], error: before.Error, attempts: before.Attempts, event: before.Event },
    { status: '400', error: 'HTTP 400', attempts: '1', event: failedEventId });
  await browser.screenshot(page, '1-failed-delivery');

  await failed.getByRole('button', { name: 'Redeliver', exact: true }).click();
  await page.getByRole('status').filter({ hasText: /^Redeliver .+: done/ }).waitFor();
  // The page reads the deliveries again while one is pending, until the attempt is recorded.
  await failed.locator('.status', { hasText: /^DELIVERED$/ }).waitFor({ timeout: 20_000 });
  const after = await facts(failed);
  assert.deepEqual(
    { status: after['HTTP status'], error: after.Error, attempts: after.Attempts, event: after.Event },
    { status: '200', error: '—', attempts: '1', event: failedEventId });
  await browser.screenshot(page, '2-redelivered');

  // Create an endpoint, deactivate it, delete it.
  await page.getByLabel('Endpoint name').fill('audit-mirror');
  await page.getByLabel('URL', { exact: true }).fill(secondUrl);
  await page.getByRole('button', { name: 'Create endpoint', exact: true }).click();
  await page.getByRole('status').filter({ hasText: 'Create endpoint audit-mirror: done' }).waitFor();
  const second = page.locator('#endpoint-list > li').filter({ has: page.getByRole('heading', { name: 'audit-mirror' }) });
  await second.locator('.status', { hasText: /^active$/ }).waitFor();
  assert.equal(await second.locator('.meta code').textContent(), secondUrl);
  await second.getByRole('button', { name: 'Deactivate', exact: true }).click();
  await second.locator('.status', { hasText: /^inactive$/ }).waitFor();
  await second.getByRole('button', { name: 'Activate', exact: true }).waitFor();

  await page.setViewportSize({ width: 360, height: 740 });
  const overflow = await page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);
  assert.equal(overflow, 0, 'no horizontal scrolling at 360 px');
  await browser.screenshot(page, '3-phone');

  page.once('dialog', (dialog) => dialog.accept());
  await second.getByRole('button', { name: 'Delete endpoint', exact: true }).click();
  await page.getByRole('status').filter({ hasText: 'Delete endpoint audit-mirror: done' }).waitFor();
  await second.waitFor({ state: 'detached' });
  assert.equal(await page.locator('#endpoint-list > li').count(), 1);
});
console.log('console e2e (webhooks): all checks passed');
