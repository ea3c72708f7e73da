// The operator console in a real browser: sign in with an API key, approve and reject. Run by ConsoleIT, which
// starts the server, prepares an approver and two activities waiting for consensus, then checks through the API
// what this flow did. Exits non-zero on the first failed assertion.
import assert from 'node:assert/strict';
import { CSP, env, url, withBrowser } from './lib.mjs';

const organizationId = env('KEYHAVEN_ORGANIZATION_ID');
const publicKey = env('KEYHAVEN_APPROVER_PUBLIC_KEY');
const privateKey = env('KEYHAVEN_APPROVER_PRIVATE_KEY');
const approverName = env('KEYHAVEN_APPROVER_NAME');
const toApprove = env('KEYHAVEN_APPROVE_ACTIVITY_ID');
const toReject = env('KEYHAVEN_REJECT_ACTIVITY_ID');
const otherPublicKey = env('KEYHAVEN_OTHER_PUBLIC_KEY');

await withBrowser(async (browser) => {
  const page = await browser.newPage();
  const response = await page.goto(`${url}/console`);
  assert.equal(response.status(), 200);
  const headers = response.headers();
  assert.equal(headers['content-security-policy'], CSP);
  assert.equal(headers['x-content-type-options'], 'nosniff');
  assert.equal(headers['referrer-policy'], 'no-referrer');
  assert.equal(headers['content-type'], 'text/html; charset=utf-8');

  const signInButton = page.getByRole('button', { name: 'Sign in', exact: true });
  await signInButton.waitFor();
  await browser.screenshot(page, '1-sign-in');

  // A public key that is not the private key's is refused before anything is stored or sent.
  await page.getByLabel('Organization id').fill(organizationId);
  await page.getByLabel('API public key (hex)').fill(otherPublicKey);
  await page.getByLabel('API private key (hex)').fill(privateKey);
  await signInButton.click();
  await page.getByRole('alert').filter({ hasText: 'does not belong to this private key' }).waitFor();

  await page.getByLabel('API public key (hex)').fill(publicKey);
  await page.getByLabel('API private key (hex)').fill(privateKey);
  await signInButton.click();
  await page.getByText(`Signed in as ${approverName}`).waitFor();
  assert.equal(await page.getByLabel('API private key (hex)').inputValue(), '', 'the private key field is cleared');

  // No secret in Web Storage; the key kept in IndexedDB cannot be exported.
  const storage = await page.evaluate(() => ({ local: localStorage.length, session: sessionStorage.length }));
  assert.deepEqual(storage, { local: 0, session: 0 });
  const stored = await page.evaluate(async () => {
    const db = await new Promise((resolve, reject) => {
      const request = indexedDB.open('keyhaven-console');
      request.onsuccess = () => resolve(request.result);
      request.onerror = () => reject(request.error);
    });
    const entry = await new Promise((resolve, reject) => {
      const request = db.transaction('session').objectStore('session').get('current');
      request.onsuccess = () => resolve(request.result);
      request.onerror = () => reject(request.error);
    });
    db.close();
    const refusals = [];
    for (const format of ['jwk', 'pkcs8']) {
      try {
        await crypto.subtle.exportKey(format, entry.privateKey);
        refusals.push(`${format}: exported`);
      } catch (error) {
        refusals.push(`${format}: ${error.name}`);
      }
    }
    return {
      isCryptoKey: entry.privateKey instanceof CryptoKey,
      extractable: entry.privateKey.extractable,
      usages: entry.privateKey.usages,
      fields: Object.keys(entry).sort(),
      refusals,
    };
  });
  assert.deepEqual(stored, {
    isCryptoKey: true,
    extractable: false,
    usages: ['sign'],
    fields: ['organizationId', 'privateKey', 'publicKey'],
    refusals: ['jwk: InvalidAccessError', 'pkcs8: InvalidAccessError'],
  });

  // Approve the first waiting activity.
  const approveItem = page.locator(`li[data-activity-id="${toApprove}"]`);
  await approveItem.locator('.status', { hasText: 'ACTIVITY_STATUS_CONSENSUS_NEEDED' }).waitFor();
  await browser.screenshot(page, '2-activities');
  await approveItem.getByRole('button', { name: 'Approve', exact: true }).click();
  await approveItem.locator('.status', { hasText: 'ACTIVITY_STATUS_COMPLETED' }).waitFor();
  await page.getByRole('status').filter({ hasText: `Approved ${toApprove}: now ACTIVITY_STATUS_COMPLETED` }).waitFor();
  assert.equal(await approveItem.getByRole('button', { name: /^(Approve|Reject)$/ }).count(), 0,
    'a completed activity offers no vote');

  // Reject the second.
  const rejectItem = page.locator(`li[data-activity-id="${toReject}"]`);
  await rejectItem.getByRole('button', { name: 'Reject', exact: true }).click();
  await rejectItem.locator('.status', { hasText: 'ACTIVITY_STATUS_REJECTED' }).waitFor();
  await page.getByRole('status').filter({ hasText: `Rejected ${toReject}: now ACTIVITY_STATUS_REJECTED` }).waitFor();
  await browser.screenshot(page, '3-voted');

  // Newest first.
  const ids = await page.locator('#activity-list > li').evaluateAll((items) => items.map((i) => i.dataset.activityId));
  assert.ok(ids.indexOf(toReject) < ids.indexOf(toApprove), `newest first: ${ids}`);

  // A reload keeps the session (the key is in IndexedDB); at phone width nothing scrolls sideways.
  await page.setViewportSize({ width: 360, height: 740 });
  await page.reload();
  await page.getByText(`Signed in as ${approverName}`).waitFor();
  await approveItem.locator('.status', { hasText: 'ACTIVITY_STATUS_COMPLETED' }).waitFor();
  const overflow = await page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);
  assert.equal(overflow, 0, 'no horizontal scrolling at 360 px');
  await browser.screenshot(page, '4-phone');

  // Sign out forgets the key.
  await page.getByRole('button', { name: 'Sign out', exact: true }).click();
  await signInButton.waitFor();
  const left = await page.evaluate(async () => {
    const db = await new Promise((resolve) => {
      const request = indexedDB.open('keyhaven-console');
      request.onsuccess = () => resolve(request.result);
    });
    const count = await new Promise((resolve) => {
      const request = db.transaction('session').objectStore('session').count();
      request.onsuccess = () => resolve(request.result);
    });
    db.close();
    return count;
  });
  assert.equal(left, 0, 'signing out deletes the stored key');
});
console.log('console e2e (approvals): all checks passed');
