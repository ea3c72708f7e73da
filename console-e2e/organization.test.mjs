// The Organization page in a real browser (ConsoleIT runs it on PostgreSQL): name, root quorum by name, a
// sub-organization, and the audit log verified by the browser itself: against the key the server reports, against the
// pinned identity key (kept across a reload), refused against another key. With KEYHAVEN_TAMPERED set, ConsoleIT has
// tampered with the log in the database (an entry, or the row an entry keeps only the hash of), and the page must say
// exactly what KEYHAVEN_TAMPERED says.
import assert from 'node:assert/strict';
import { env, openPage, signInWithApiKey, withBrowser } from './lib.mjs';

const operator = {
  organizationId: env('KEYHAVEN_ORGANIZATION_ID'),
  publicKey: env('KEYHAVEN_OPERATOR_PUBLIC_KEY'),
  privateKey: env('KEYHAVEN_OPERATOR_PRIVATE_KEY'),
  name: env('KEYHAVEN_OPERATOR_NAME'),
};
const tampered = process.env.KEYHAVEN_TAMPERED;

async function verifyWith(page, key) {
  await page.getByLabel('Identity public key (hex)').fill(key);
  await page.getByRole('button', { name: 'Verify audit log', exact: true }).click();
  await page.locator('#audit-result').filter({ hasText: /^(Verified|Chain verified|Audit log broken|Could not)/ })
    .waitFor();
  return page.locator('#audit-result').textContent();
}

async function details(page) {
  return page.locator('#audit-details').evaluate((list) => Object.fromEntries(
    Array.from(list.querySelectorAll('dt'), (term) => [term.textContent, term.nextElementSibling.textContent])));
}

await withBrowser(async (browser) => {
  const page = await browser.newPage();
  await signInWithApiKey(page, operator);
  await openPage(page, 'Organization');
  const result = page.locator('#audit-result');

  if (tampered) {
    await result.filter({ hasText: /^Audit log broken/ }).waitFor();
    assert.equal(await result.textContent(), `Audit log broken: ${tampered}`);
    await browser.screenshot(page, 'tampered');
    return;
  }

  const identityKey = env('KEYHAVEN_IDENTITY_KEY');
  const entries = env('KEYHAVEN_AUDIT_ENTRIES');
  const headHash = env('KEYHAVEN_AUDIT_HEAD');
  const signedAt = env('KEYHAVEN_AUDIT_SIGNED_AT');
  const verified = `Verified: ${entries} entries, head ${headHash}, signed at ${signedAt}`;

  assert.equal(await page.locator('#organization-name').textContent(), env('KEYHAVEN_ORGANIZATION_NAME'));
  assert.equal(await page.locator('#quorum-threshold').textContent(),
    '2 of 2 must approve what needs the root quorum:');
  assert.deepEqual(await page.locator('#quorum-users .user-name').allTextContents(),
    JSON.parse(env('KEYHAVEN_QUORUM_NAMES')));
  const suborg = page.locator(`#suborg-list > li[data-organization-id="${env('KEYHAVEN_SUBORG_ID')}"]`);
  assert.equal(await suborg.locator('.suborg-name').textContent(), env('KEYHAVEN_SUBORG_NAME'));

  // Nothing pinned yet: the key the server reports is used, and the page says so.
  await result.filter({ hasText: /^Verified/ }).waitFor();
  assert.equal(await result.textContent(), verified);
  assert.equal((await details(page))['Identity key'], `${identityKey} (reported by this server, not pinned)`);

  // Another P-256 key: the signed head does not verify against it.
  assert.equal(await verifyWith(page, env('KEYHAVEN_OTHER_PUBLIC_KEY')),
    `Audit log broken: signed head ${entries}: the signature does not verify against the identity key`);
  assert.equal(await verifyWith(page, 'not a key'),
    'Could not verify the audit log: the identity key is not a P-256 public key in hex');

  // The pinned key verifies, and stays pinned across a reload.
  assert.equal(await verifyWith(page, identityKey), verified);
  assert.deepEqual(await details(page), {
    Entries: entries,
    Head: `entry ${entries}: ${headHash}`,
    'Signed head': `entry ${entries}: ${headHash}, signed at ${signedAt}`,
    'Identity key': `${identityKey} (pinned in this browser)`,
  });
  await page.reload();
  await openPage(page, 'Organization');
  await result.filter({ hasText: /^Verified/ }).waitFor();
  assert.equal(await page.getByLabel('Identity public key (hex)').inputValue(), identityKey);
  assert.equal((await details(page))['Identity key'], `${identityKey} (pinned in this browser)`);
  await browser.screenshot(page, '1-organization');

  await page.setViewportSize({ width: 360, height: 740 });
  const overflow = await page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);
  assert.equal(overflow, 0, 'no horizontal scrolling at 360 px');
  await browser.screenshot(page, '2-phone');
});
console.log(`console e2e (organization${tampered ? ', tampered' : ''}): all checks passed`);
