// Two operators in two browser profiles. The root user creates a two-approver policy in the browser; alice's signing
// requests then wait for bob, who is signed in in a second, separate browser profile: each appears on his Activities
// page without a reload, he opens its detail (votes, policy evaluations), approves the first (and sees it complete)
// and rejects the second. Run by ConsoleIT, which prepares the users and the wallet and checks the outcome through
// the API. Exits non-zero on the first failed assertion.
import assert from 'node:assert/strict';
import { env, openPage, signInWithApiKey, withBrowser } from './lib.mjs';

const organizationId = env('KEYHAVEN_ORGANIZATION_ID');
const root = {
  organizationId, name: env('KEYHAVEN_ROOT_NAME'),
  publicKey: env('KEYHAVEN_ROOT_PUBLIC_KEY'), privateKey: env('KEYHAVEN_ROOT_PRIVATE_KEY'),
};
const alice = {
  organizationId, name: 'alice', id: env('KEYHAVEN_ALICE_ID'),
  publicKey: env('KEYHAVEN_ALICE_PUBLIC_KEY'), privateKey: env('KEYHAVEN_ALICE_PRIVATE_KEY'),
};
const bob = {
  organizationId, name: 'bob', id: env('KEYHAVEN_BOB_ID'),
  publicKey: env('KEYHAVEN_BOB_PUBLIC_KEY'), privateKey: env('KEYHAVEN_BOB_PRIVATE_KEY'),
};
const walletId = env('KEYHAVEN_WALLET_ID');
const signWith = env('KEYHAVEN_SIGN_WITH');
const policyName = 'treasury needs two';
const condition = `activity.action == 'SIGN' && wallet.id == '${walletId}'`;
const consensus = `approvers.any(u, u.id == '${alice.id}') && approvers.any(u, u.id == '${bob.id}')`;

/** alice signs from her browser, through the console's own stamped requests; the activity's id and status. */
function aliceSigns(page, payload) {
  return page.evaluate(async ({ signWith: account, payload: text }) => {
    const { submit } = await import('/console/api.js');
    const { load } = await import('/console/keystore.js');
    const activity = await submit(await load(), 'sign_raw_payload', 'ACTIVITY_TYPE_SIGN_RAW_PAYLOAD_V2', {
      signWith: account, payload: text, encoding: 'PAYLOAD_ENCODING_TEXT_UTF8', hashFunction: 'HASH_FUNCTION_KECCAK256',
    });
    return { id: activity.id, status: activity.status };
  }, { signWith, payload });
}

await withBrowser(async (browser) => {
  // bob, in his own browser profile, watches the Activities page.
  const bobProfile = await browser.newContext();
  const bobPage = await bobProfile.newPage();
  await signInWithApiKey(bobPage, bob);
  await bobPage.getByRole('heading', { level: 2, name: 'Activities', exact: true }).waitFor();
  // Gone if the page were ever loaded again: everything below arrives without a reload.
  await bobPage.evaluate(() => { window.keyhavenNoReload = true; });

  // The root user creates the policy in the browser.
  const page = await browser.newPage();
  await signInWithApiKey(page, root);
  await openPage(page, 'Policies');
  await page.getByRole('button', { name: 'Create policy', exact: true }).click();
  await page.getByLabel('Name', { exact: true }).fill(policyName);
  await page.getByLabel('Effect', { exact: true }).selectOption('EFFECT_ALLOW');
  await page.getByLabel('Condition', { exact: true }).fill(condition);
  await page.getByLabel('Consensus', { exact: true }).fill(consensus);
  await page.getByText('The expressions are valid.').waitFor();
  await browser.screenshot(page, '1-create-policy');
  await page.getByRole('button', { name: 'Save', exact: true }).click();
  await page.getByRole('status').filter({ hasText: `Create policy ${policyName}: done (` }).waitFor();
  const card = page.locator('#policy-list > li', { has: page.getByRole('heading', { name: policyName }) });
  await card.getByText(consensus).waitFor();
  const policyId = await card.getAttribute('data-policy-id');
  assert.match(policyId, /^[0-9a-f-]{36}$/);

  // alice signs in (the same profile, after the root user signs out) and signs twice.
  await page.getByRole('button', { name: 'Sign out', exact: true }).click();
  // The key is forgotten before the form shows again; only then may the page load anew.
  await page.getByRole('button', { name: 'Sign in', exact: true }).waitFor();
  await signInWithApiKey(page, alice);
  const first = await aliceSigns(page, 'approve me');
  assert.equal(first.status, 'ACTIVITY_STATUS_CONSENSUS_NEEDED');

  // It appears on bob's page by itself.
  const firstItem = bobPage.locator(`li[data-activity-id="${first.id}"]`);
  await firstItem.locator('.status', { hasText: 'ACTIVITY_STATUS_CONSENSUS_NEEDED' }).waitFor();
  // (The policy's creation may arrive in the same read.)
  await bobPage.locator('#activity-arrivals', { hasText: /new activit(y|ies): .*ACTIVITY_TYPE_SIGN_RAW_PAYLOAD_V2/ })
    .waitFor();

  // Its detail: alice's vote, and the policy that waits for bob.
  const details = firstItem.getByRole('button', { name: 'Details', exact: true });
  await details.click();
  assert.equal(await details.getAttribute('aria-expanded'), 'true');
  const detail = firstItem.locator('.activity-detail');
  await detail.getByText(`VOTE_SELECTION_APPROVED by alice (${alice.id})`).waitFor();
  await detail.locator(`li[data-policy-id="${policyId}"]`,
    { hasText: `${policyName} (${policyId}): OUTCOME_REQUIRES_CONSENSUS` }).waitFor();
  await detail.getByText(`"signWith": "${signWith}"`).waitFor();
  await browser.screenshot(bobPage, '2-waiting-detail');

  await firstItem.getByRole('button', { name: 'Approve', exact: true }).click();
  await bobPage.getByRole('status').filter({ hasText: `Approved ${first.id}: now ACTIVITY_STATUS_COMPLETED` })
    .waitFor();
  await firstItem.locator('.status', { hasText: 'ACTIVITY_STATUS_COMPLETED' }).waitFor();
  // The detail stays open and shows the second vote, the policy now allowing, and the signature.
  await detail.getByText(`VOTE_SELECTION_APPROVED by bob (${bob.id})`).waitFor();
  await detail.locator(`li[data-policy-id="${policyId}"]`,
    { hasText: `${policyName} (${policyId}): OUTCOME_ALLOW` }).waitFor();
  await detail.getByRole('heading', { name: 'Result', exact: true }).waitFor();
  await detail.getByText('"signRawPayloadResult"').waitFor();
  assert.equal(await firstItem.getByRole('button', { name: /^(Approve|Reject)$/ }).count(), 0);
  await browser.screenshot(bobPage, '3-approved');

  // The second is rejected.
  const second = await aliceSigns(page, 'reject me');
  assert.equal(second.status, 'ACTIVITY_STATUS_CONSENSUS_NEEDED');
  const secondItem = bobPage.locator(`li[data-activity-id="${second.id}"]`);
  await secondItem.getByRole('button', { name: 'Reject', exact: true }).click();
  await bobPage.getByRole('status').filter({ hasText: `Rejected ${second.id}: now ACTIVITY_STATUS_REJECTED` })
    .waitFor();
  await secondItem.locator('.status', { hasText: 'ACTIVITY_STATUS_REJECTED' }).waitFor();
  assert.equal(await bobPage.evaluate(() => window.keyhavenNoReload), true, 'bob\'s page was never reloaded');

  // alice's own list shows both, without a vote of hers to cast.
  await page.locator(`li[data-activity-id="${second.id}"] .status`, { hasText: 'ACTIVITY_STATUS_REJECTED' })
    .waitFor();
  await page.locator(`li[data-activity-id="${first.id}"] .status`, { hasText: 'ACTIVITY_STATUS_COMPLETED' }).waitFor();

  // Filters: by status and by type (list_activities' own), and by time (here).
  const ids = async () => bobPage.locator('#activity-list > li')
    .evaluateAll((items) => items.map((item) => item.dataset.activityId));
  await bobPage.getByLabel('Status', { exact: true }).selectOption('ACTIVITY_STATUS_REJECTED');
  await bobPage.getByRole('button', { name: 'Apply filters', exact: true }).click();
  await bobPage.locator('#activity-coverage', { hasText: '1 shown.' }).waitFor();
  assert.deepEqual(await ids(), [second.id]);
  await bobPage.getByLabel('Status', { exact: true }).selectOption('');
  await bobPage.getByLabel('Type', { exact: true }).fill('sign_raw_payload_v2');
  await bobPage.getByRole('button', { name: 'Apply filters', exact: true }).click();
  await bobPage.locator('#activity-coverage', { hasText: '2 shown.' }).waitFor();
  assert.deepEqual(await ids(), [second.id, first.id]);
  assert.equal(await bobPage.getByLabel('Type', { exact: true }).inputValue(), 'ACTIVITY_TYPE_SIGN_RAW_PAYLOAD_V2');
  await bobPage.getByLabel('Created from (local time)').fill('2999-01-01T00:00');
  await bobPage.getByRole('button', { name: 'Apply filters', exact: true }).click();
  await bobPage.getByText('No activities match.').waitFor();
  assert.deepEqual(await ids(), []);
  await bobPage.getByRole('button', { name: 'Clear filters', exact: true }).click();
  await firstItem.waitFor();
  assert.equal(await bobPage.getByLabel('Type', { exact: true }).inputValue(), '');

  // At phone width nothing scrolls sideways, with a detail open.
  await firstItem.getByRole('button', { name: 'Details', exact: true }).click();
  await firstItem.getByRole('heading', { name: 'Policy evaluations', exact: true }).waitFor();
  await bobPage.setViewportSize({ width: 360, height: 740 });
  const overflow = await bobPage.evaluate(
    () => document.documentElement.scrollWidth - document.documentElement.clientWidth);
  assert.equal(overflow, 0, 'no horizontal scrolling at 360 px');
  await browser.screenshot(bobPage, '4-phone');
});
console.log('console e2e (two-operators): all checks passed');
