// The Wallets and Private keys pages in a real browser: create a wallet with an Ethereum and a Solana account, copy
// an address (read back from the clipboard), create two more Ethereum accounts; tag a private key, remove a tag and
// delete it. Run by ConsoleIT, which prepares the operator and a private key, and afterwards checks through the API
// that what this flow wrote to KEYHAVEN_FLOW_OUTPUT (the wallet and the addresses the page showed) exists exactly.
import assert from 'node:assert/strict';
import { writeFileSync } from 'node:fs';
import { env, openPage, signInWithApiKey, url, withBrowser } from './lib.mjs';

const operator = {
  organizationId: env('KEYHAVEN_ORGANIZATION_ID'),
  publicKey: env('KEYHAVEN_OPERATOR_PUBLIC_KEY'),
  privateKey: env('KEYHAVEN_OPERATOR_PRIVATE_KEY'),
  name: env('KEYHAVEN_OPERATOR_NAME'),
};
const privateKeyId = env('KEYHAVEN_PRIVATE_KEY_ID');
const output = env('KEYHAVEN_FLOW_OUTPUT');

/** The accounts a wallet's card shows: [{address, meta}], in the page's order. */
async function shownAccounts(card) {
  return card.locator('.accounts > li').evaluateAll((items) => items.map((item) => ({
    address: item.querySelector('.address').textContent,
    meta: item.querySelector('.meta').textContent,
  })));
}

async function noSidewaysScroll(page) {
  return page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);
}

await withBrowser(async (browser) => {
  await browser.context.grantPermissions(['clipboard-read', 'clipboard-write'], { origin: new URL(url).origin });
  const page = await browser.newPage();
  await signInWithApiKey(page, operator);
  await openPage(page, 'Wallets');
  await page.getByText('No wallets.').waitFor();

  // Create wallet: an Ethereum account is chosen by default; add Solana.
  await page.getByLabel('Wallet name').fill('Treasury');
  await page.getByLabel('Mnemonic length').selectOption('24');
  await page.getByRole('group', { name: 'First accounts' }).getByLabel('Solana').check();
  await page.getByRole('button', { name: 'Create wallet', exact: true }).click();
  await page.getByRole('status').filter({ hasText: 'Create wallet Treasury: done' }).waitFor();
  const card = page.locator('#wallet-list > li').filter({ has: page.getByRole('heading', { name: 'Treasury' }) });
  await card.locator('.accounts > li').nth(1).waitFor();
  const created = await shownAccounts(card);
  assert.equal(created.length, 2, JSON.stringify(created));
  assert.equal(created[0].meta, "ADDRESS_FORMAT_ETHEREUM · CURVE_SECP256K1 · m/44'/60'/0'/0/0");
  assert.match(created[0].address, /^0x[0-9a-fA-F]{40}$/);
  assert.equal(created[1].meta, "ADDRESS_FORMAT_SOLANA · CURVE_ED25519 · m/44'/501'/0'/0'");
  assert.match(created[1].address, /^[1-9A-HJ-NP-Za-km-z]{32,44}$/);
  const walletId = await card.getAttribute('data-wallet-id');

  // Copy puts the address on the clipboard.
  const ethereum = card.locator('.accounts > li').first();
  await ethereum.getByRole('button', { name: 'Copy', exact: true }).click();
  await page.getByRole('status').filter({ hasText: `Copied ${created[0].address}` }).waitFor();
  assert.equal(await page.evaluate(() => navigator.clipboard.readText()), created[0].address);
  await browser.screenshot(page, '1-wallet-created');

  // A wallet the server refuses (the name is taken) is reported with the server's message; nothing is added.
  browser.expectStatus(400, /\/public\/v1\/submit\/create_wallet$/);
  browser.expectProblem(/the server responded with a status of 400/);
  await page.getByLabel('Wallet name').fill('Treasury');
  await page.getByRole('button', { name: 'Create wallet', exact: true }).click();
  await page.getByRole('alert').filter({ hasText: "a wallet named 'Treasury' already exists (HTTP 400)" }).waitFor();
  assert.equal(await page.locator('#wallet-list > li').count(), 1);

  // Create accounts: the next free Ethereum index is offered; two more accounts from there.
  assert.equal(await card.getByLabel('First account index').inputValue(), '1');
  await card.getByLabel('Chain').selectOption({ label: 'Solana' });
  assert.equal(await card.getByLabel('First account index').inputValue(), '1');
  await card.getByLabel('Chain').selectOption({ label: 'Ethereum' });
  await card.getByLabel('Number of accounts').fill('2');
  await card.getByRole('button', { name: 'Create accounts', exact: true }).click();
  await page.getByRole('status').filter({ hasText: 'Create accounts in Treasury: done' }).waitFor();
  await card.locator('.accounts > li').nth(3).waitFor();
  const accounts = await shownAccounts(card);
  assert.deepEqual(accounts.map((a) => a.meta), [
    "ADDRESS_FORMAT_ETHEREUM · CURVE_SECP256K1 · m/44'/60'/0'/0/0",
    "ADDRESS_FORMAT_SOLANA · CURVE_ED25519 · m/44'/501'/0'/0'",
    "ADDRESS_FORMAT_ETHEREUM · CURVE_SECP256K1 · m/44'/60'/0'/0/1",
    "ADDRESS_FORMAT_ETHEREUM · CURVE_SECP256K1 · m/44'/60'/0'/0/2",
  ]);
  assert.deepEqual(accounts.slice(0, 2), created, 'the first accounts are unchanged');
  assert.equal(await card.getByLabel('First account index').inputValue(), '3');
  await browser.screenshot(page, '2-accounts-added');
  // The screenshot the README shows: docs/images/console.png is a copy of it, whose size ConsoleIT checks.
  await page.setViewportSize({ width: 1024, height: 768 });
  await page.evaluate(() => window.scrollTo(0, 0));
  await page.screenshot({ path: `${env('KEYHAVEN_SCREENSHOTS')}/readme.png` });
  await page.setViewportSize({ width: 1280, height: 800 });

  // A wrong count is refused in the page, before anything is sent.
  await card.getByLabel('Number of accounts').fill('0');
  await card.getByRole('button', { name: 'Create accounts', exact: true }).click();
  await page.getByRole('alert').filter({ hasText: 'the number of accounts must be 1 to 20' }).waitFor();

  // Private keys: tag the key prepared by the test, then add, remove and delete a second tag.
  await openPage(page, 'Private keys');
  const key = page.locator(`#private-key-list > li[data-private-key-id="${privateKeyId}"]`);
  await key.getByText('No tags.').waitFor();
  const keyAddress = await key.locator('.address').first().textContent();
  for (const tag of ['cold storage', 'temporary']) {
    await page.getByLabel('Tag name').fill(tag);
    await page.getByRole('button', { name: 'Create tag', exact: true }).click();
    await page.getByRole('status').filter({ hasText: `Create tag ${tag}: done` }).waitFor();
    await key.getByLabel('Tag', { exact: true }).selectOption({ label: tag });
    await key.getByRole('button', { name: 'Add tag', exact: true }).click();
    await key.locator('.tags > li').filter({ hasText: tag }).waitFor();
  }
  await browser.screenshot(page, '3-private-key-tagged');
  await key.locator('.tags > li').filter({ hasText: 'temporary' })
    .getByRole('button', { name: 'Remove tag', exact: true }).click();
  await page.getByRole('status').filter({ hasText: 'Remove tag temporary from' }).waitFor();
  await key.locator('.tags > li').filter({ hasText: 'temporary' }).waitFor({ state: 'detached' });
  page.once('dialog', (dialog) => dialog.accept());
  await page.locator('#private-key-tag-list > li').filter({ hasText: 'temporary' })
    .getByRole('button', { name: 'Delete tag', exact: true }).click();
  await page.getByRole('status').filter({ hasText: 'Delete tag temporary: done' }).waitFor();
  await page.locator('#private-key-tag-list > li').filter({ hasText: 'temporary' }).waitFor({ state: 'detached' });
  assert.deepEqual(await key.locator('.tags > li span').allTextContents(), ['cold storage']);

  // At phone width neither page scrolls sideways.
  await page.setViewportSize({ width: 360, height: 740 });
  assert.equal(await noSidewaysScroll(page), 0, 'Private keys: no horizontal scrolling at 360 px');
  await openPage(page, 'Wallets');
  await card.locator('.accounts > li').nth(3).waitFor();
  assert.equal(await noSidewaysScroll(page), 0, 'Wallets: no horizontal scrolling at 360 px');
  await browser.screenshot(page, '4-phone');

  writeFileSync(output, JSON.stringify({ walletId, accounts, privateKeyAddress: keyAddress }));
});
console.log('console e2e (wallets): all checks passed');
