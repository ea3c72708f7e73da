// The Policies page in a real browser: a broken condition shows its parse error with the column as it is typed; a
// draft policy (a new one, then an edit of an existing one) is dry-run against a past activity, showing each
// policy's outcome and the decision; an edit is saved; a policy is deleted after a confirmation step. Run by
// ConsoleIT, which prepares the policies and the past activity and checks through the API that the dry runs saved
// nothing. Exits non-zero on the first failed assertion.
import assert from 'node:assert/strict';
import { env, openPage, signInWithApiKey, withBrowser } from './lib.mjs';

const root = {
  organizationId: env('KEYHAVEN_ORGANIZATION_ID'), name: env('KEYHAVEN_ROOT_NAME'),
  publicKey: env('KEYHAVEN_ROOT_PUBLIC_KEY'), privateKey: env('KEYHAVEN_ROOT_PRIVATE_KEY'),
};
const aliceSigns = env('KEYHAVEN_POLICY_ID');
const obsolete = env('KEYHAVEN_OBSOLETE_POLICY_ID');
const activityId = env('KEYHAVEN_ACTIVITY_ID');
const aliceId = env('KEYHAVEN_ALICE_ID');
const bobId = env('KEYHAVEN_BOB_ID');
const editedNotes = env('KEYHAVEN_EDITED_NOTES');

await withBrowser(async (browser) => {
  const page = await browser.newPage();
  await signInWithApiKey(page, root);
  await openPage(page, 'Policies');
  const card = (id) => page.locator(`#policy-list > li[data-policy-id="${id}"]`);
  await card(aliceSigns).getByRole('heading', { name: 'alice signs', exact: true }).waitFor();
  await card(obsolete).getByRole('heading', { name: 'obsolete', exact: true }).waitFor();
  await browser.screenshot(page, '1-policies');

  // A new DENY policy; its condition is checked as it is typed.
  await page.getByRole('button', { name: 'Create policy', exact: true }).click();
  await page.getByRole('heading', { level: 3, name: 'Create policy', exact: true }).waitFor();
  await page.getByLabel('Name', { exact: true }).fill('no signing');
  await page.getByLabel('Effect', { exact: true }).selectOption('EFFECT_DENY');
  const condition = page.getByLabel('Condition', { exact: true });
  const broken = "activity.action == 'SIGN' && (wallet.id == 'w'";
  await condition.pressSequentially(broken);
  const problems = page.locator('#policy-condition-problems');
  await problems.getByText("column 47: expected ')'").waitFor();
  assert.equal(await condition.getAttribute('aria-invalid'), 'true');
  assert.equal(await problems.locator('pre.caret').textContent(), `${broken}\n${' '.repeat(46)}^`);
  await page.getByText('1 problem in the expressions.').waitFor();
  await browser.screenshot(page, '2-parse-error');
  // Saving is refused while a problem stands; nothing is sent.
  await page.getByRole('button', { name: 'Save', exact: true }).click();
  await page.getByRole('alert').filter({ hasText: 'Fix the problems shown under the expressions first.' }).waitFor();

  await condition.fill("activity.action == 'SIGN'");
  await page.getByText('The expressions are valid.').waitFor();
  assert.equal(await condition.getAttribute('aria-invalid'), null);
  assert.equal(await problems.locator('li').count(), 0);

  // Dry run of the new policy against alice's past signature: the DENY would have won.
  await page.getByLabel('Past activity', { exact: true }).selectOption(activityId);
  await page.getByRole('button', { name: 'Dry run', exact: true }).click();
  const decision = page.locator('#dry-run-decision');
  await decision.getByText('OUTCOME_DENY_EXPLICIT').waitFor();
  assert.equal(await decision.textContent(), 'Decision: OUTCOME_DENY_EXPLICIT — the activity would be '
    + 'ACTIVITY_STATUS_FAILED. (request denied by policy draft)');
  assert.equal(await page.locator('#dry-run-recorded').textContent().then((t) => t.split(',')[0]),
    'Recorded: ACTIVITY_STATUS_COMPLETED (OUTCOME_ALLOW)');
  const outcomes = () => page.locator('#dry-run-policies > li').allTextContents();
  assert.deepEqual(await outcomes(), [
    'alice signs · EFFECT_ALLOW · OUTCOME_ALLOW',
    'obsolete · EFFECT_ALLOW · OUTCOME_DENY_IMPLICIT',
    'no signing (draft) · EFFECT_DENY · OUTCOME_DENY_EXPLICIT',
  ]);
  await page.getByText('Nothing was saved.').waitFor();
  await browser.screenshot(page, '3-dry-run-new');

  // Leaving "alice signs" out as well: still denied, now with two policies.
  await page.getByRole('group', { name: 'Leave out' }).getByLabel('alice signs', { exact: true }).check();
  await page.getByRole('button', { name: 'Dry run', exact: true }).click();
  await page.locator('#dry-run-policies > li').nth(1).getByText('no signing (draft)').waitFor();
  assert.deepEqual(await outcomes(), [
    'obsolete · EFFECT_ALLOW · OUTCOME_DENY_IMPLICIT',
    'no signing (draft) · EFFECT_DENY · OUTCOME_DENY_EXPLICIT',
  ]);
  await page.getByRole('button', { name: 'Cancel', exact: true }).click();
  await page.getByRole('button', { name: 'Create policy', exact: true }).waitFor();

  // An edit of "alice signs" needing bob too, dry-run in its place: the signature would have waited for bob.
  await card(aliceSigns).getByRole('button', { name: 'Edit', exact: true }).click();
  await page.getByRole('heading', { level: 3, name: 'Edit policy alice signs', exact: true }).waitFor();
  await page.getByLabel('Consensus', { exact: true })
    .fill(`approvers.any(u, u.id == '${aliceId}') && approvers.any(u, u.id == '${bobId}')`);
  await page.getByText('The expressions are valid.').waitFor();
  await page.getByLabel('Past activity', { exact: true }).selectOption(activityId);
  await page.getByRole('button', { name: 'Dry run', exact: true }).click();
  await decision.getByText('OUTCOME_REQUIRES_CONSENSUS').waitFor();
  assert.equal(await decision.textContent(), 'Decision: OUTCOME_REQUIRES_CONSENSUS — the activity would be '
    + `ACTIVITY_STATUS_CONSENSUS_NEEDED. (policy ${aliceSigns} needs more approvals)`);
  assert.deepEqual(await outcomes(), [
    'alice signs (draft) · EFFECT_ALLOW · OUTCOME_REQUIRES_CONSENSUS',
    'obsolete · EFFECT_ALLOW · OUTCOME_DENY_IMPLICIT',
  ]);
  await browser.screenshot(page, '4-dry-run-edit');
  await page.getByRole('button', { name: 'Cancel', exact: true }).click();

  // An edit that is saved: the notes only.
  await card(aliceSigns).getByRole('button', { name: 'Edit', exact: true }).click();
  await page.getByLabel('Notes', { exact: true }).fill(editedNotes);
  await page.getByRole('button', { name: 'Save', exact: true }).click();
  await page.getByRole('status').filter({ hasText: 'Save policy alice signs: done (' }).waitFor();
  await card(aliceSigns).getByText(editedNotes).waitFor();

  // Delete asks first; Cancel keeps the policy.
  await card(obsolete).getByRole('button', { name: 'Delete', exact: true }).click();
  await card(obsolete).getByRole('alert').filter({ hasText: 'Delete the policy “obsolete”?' }).waitFor();
  await card(obsolete).getByRole('button', { name: 'Cancel', exact: true }).click();
  assert.equal(await card(obsolete).getByRole('alert').count(), 0);
  await card(obsolete).getByRole('button', { name: 'Delete', exact: true }).click();
  await browser.screenshot(page, '5-confirm-delete');
  await card(obsolete).getByRole('button', { name: 'Confirm delete', exact: true }).click();
  await page.getByRole('status').filter({ hasText: 'Delete policy obsolete: done (' }).waitFor();
  await card(obsolete).waitFor({ state: 'detached' });
  assert.deepEqual(await page.locator('#policy-list > li').evaluateAll((items) => items.map((i) => i.dataset.policyId)),
    [aliceSigns]);

  // At phone width, with the editor open, nothing scrolls sideways.
  await page.setViewportSize({ width: 360, height: 740 });
  await page.getByRole('button', { name: 'Create policy', exact: true }).click();
  await page.getByLabel('Condition', { exact: true }).fill(broken);
  await problems.getByText("column 47: expected ')'").waitFor();
  const overflow = await page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);
  assert.equal(overflow, 0, 'no horizontal scrolling at 360 px');
  await browser.screenshot(page, '6-phone');
});
console.log('console e2e (policies): all checks passed');
