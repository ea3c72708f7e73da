// The Users page, passkeys and sub-organizations in a real browser, with Chrome's virtual WebAuthn authenticator
// (DevTools protocol). Run by ConsoleIT, which prepares an operator (root quorum), a sub-organization with its own
// user, and afterwards checks through the API what this flow did; this flow writes the passkey's credential id to
// KEYHAVEN_FLOW_RESULT for that. Exits non-zero on the first failed assertion.
import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { writeFileSync } from 'node:fs';
import { env, openPage, signInWithApiKey, url, withBrowser } from './lib.mjs';

const organizationId = env('KEYHAVEN_ORGANIZATION_ID');
const organizationName = env('KEYHAVEN_ORGANIZATION_NAME');
const operator = {
  organizationId,
  name: env('KEYHAVEN_OPERATOR_NAME'),
  publicKey: env('KEYHAVEN_OPERATOR_PUBLIC_KEY'),
  privateKey: env('KEYHAVEN_OPERATOR_PRIVATE_KEY'),
};
const aliceApiKey = env('KEYHAVEN_ALICE_API_PUBLIC_KEY');
const aliceSecondApiKey = env('KEYHAVEN_ALICE_SECOND_API_PUBLIC_KEY');
const subOrganizationId = env('KEYHAVEN_SUB_ORGANIZATION_ID');
const subOrganizationName = env('KEYHAVEN_SUB_ORGANIZATION_NAME');
const subUser = {
  organizationId: subOrganizationId,
  name: env('KEYHAVEN_SUB_USER_NAME'),
  id: env('KEYHAVEN_SUB_USER_ID'),
  publicKey: env('KEYHAVEN_SUB_USER_PUBLIC_KEY'),
  privateKey: env('KEYHAVEN_SUB_USER_PRIVATE_KEY'),
};
const resultFile = env('KEYHAVEN_FLOW_RESULT');

const base64url = (buffer) => Buffer.from(buffer).toString('base64url');

/** What the console keeps in IndexedDB (keyhaven-console / session / current), or null. */
function storedSession(page) {
  return page.evaluate(async () => {
    const db = await new Promise((resolve, reject) => {
      const request = indexedDB.open('keyhaven-console');
      request.onsuccess = () => resolve(request.result);
      request.onerror = () => reject(request.error);
    });
    const entry = await new Promise((resolve, reject) => {
      const request = db.transaction('session').objectStore('session').get('current');
      request.onsuccess = () => resolve(request.result ?? null);
      request.onerror = () => reject(request.error);
    });
    db.close();
    return entry;
  });
}

async function signOut(page) {
  await page.getByRole('button', { name: 'Sign out', exact: true }).click();
  await page.getByRole('button', { name: 'Sign in with a passkey', exact: true }).waitFor();
}

const userCard = (page, name) => page.locator('#user-list > li').filter({
  has: page.getByRole('heading', { level: 4, name, exact: true }),
});

async function status(page, text) {
  await page.getByRole('status').filter({ hasText: text }).waitFor();
}

async function userNames(page) {
  return page.locator('#user-list > li h4').allTextContents();
}

await withBrowser(async (browser) => {
  const page = await browser.newPage();
  const cdp = await browser.context.newCDPSession(page);
  await cdp.send('WebAuthn.enable');
  const { authenticatorId } = await cdp.send('WebAuthn.addVirtualAuthenticator', {
    options: {
      protocol: 'ctap2', transport: 'internal', hasResidentKey: true, hasUserVerification: true,
      isUserVerified: true,
    },
  });

  // The operator signs in with an API key and opens the Users page.
  await signInWithApiKey(page, operator);
  await openPage(page, 'Users');
  await userCard(page, operator.name).waitFor();
  assert.deepEqual(await userNames(page), ['root', operator.name]);
  await userCard(page, operator.name).getByText('1 credential: 1 API key, 0 passkeys').waitFor();
  await userCard(page, operator.name).getByText('(this session signs with it)').waitFor();

  // A tag, then alice with an email, that tag and an API key.
  await page.getByLabel('Tag name').fill('operators');
  await page.getByRole('button', { name: 'Create tag', exact: true }).click();
  await status(page, 'Create tag operators: done (');
  await page.locator('#tag-list > li').filter({ hasText: 'operators' }).waitFor();

  await page.getByLabel('User name').fill('alice');
  await page.getByLabel('Email (optional)').fill('alice@example.com');
  await page.getByLabel('API public key (optional, P-256, hex)').fill(aliceApiKey);
  await page.getByLabel('API key name').fill('alice laptop key');
  await page.getByRole('group', { name: 'Tags' }).getByLabel('operators').check();
  await page.getByRole('button', { name: 'Create user', exact: true }).click();
  await status(page, 'Create user alice: done (');
  const alice = userCard(page, 'alice');
  await alice.getByText('alice@example.com').waitFor();
  await alice.getByText('1 credential: 1 API key, 0 passkeys').waitFor();
  await alice.getByRole('list', { name: 'Tags of alice' }).getByText('operators').waitFor();
  await alice.getByText(`API key alice laptop key`).waitFor();
  await alice.getByText(aliceApiKey, { exact: false }).waitFor();
  await browser.screenshot(page, '1-users');

  // Detach the tag and attach it again.
  await alice.getByRole('button', { name: 'Detach', exact: true }).click();
  await status(page, 'Detach tag operators from alice: done (');
  await alice.getByText('Tags: none').waitFor();
  await alice.getByLabel('Tag to attach').selectOption({ label: 'operators' });
  await alice.getByRole('button', { name: 'Attach tag', exact: true }).click();
  await status(page, 'Attach tag operators to alice: done (');
  await alice.getByRole('list', { name: 'Tags of alice' }).getByText('operators').waitFor();

  // bob gets a passkey registered from this browser when created; deleting him asks first.
  await page.getByLabel('User name').fill('bob');
  await page.getByLabel('Register a passkey from this browser').check();
  await page.getByLabel('Name of the new user\'s passkey').fill('bob passkey');
  await page.getByRole('button', { name: 'Create user', exact: true }).click();
  await status(page, 'Create user bob: done (');
  const bob = userCard(page, 'bob');
  await bob.getByText('1 credential: 0 API keys, 1 passkey').waitFor();
  await bob.getByText('Passkey bob passkey').waitFor();
  await bob.getByRole('button', { name: 'Delete user', exact: true }).click();
  const question = bob.getByRole('group', { name: /^Delete user bob / });
  await question.waitFor();
  assert.equal(await page.evaluate(() => document.activeElement.textContent), 'Cancel', 'Cancel has the focus');
  await browser.screenshot(page, '2-confirm-delete');
  await question.getByRole('button', { name: 'Cancel', exact: true }).click();
  await bob.getByRole('button', { name: 'Delete user', exact: true }).waitFor();
  await bob.getByRole('button', { name: 'Delete user', exact: true }).click();
  await question.getByRole('button', { name: 'Delete', exact: true }).click();
  await status(page, 'Delete user bob: done (');
  await bob.waitFor({ state: 'detached' });
  assert.deepEqual(await userNames(page), ['root', operator.name, 'alice']);
  // bob's passkey leaves the authenticator too, so that alice's is the only one it offers.
  await cdp.send('WebAuthn.clearCredentials', { authenticatorId });

  // alice's email changes (update_user) and she gets a second API key (create_api_keys); nothing else changes.
  await alice.getByLabel('Change email to').fill('alice@corp.example');
  await alice.getByRole('button', { name: 'Save user', exact: true }).click();
  await status(page, 'Edit user alice: done (');
  await alice.getByText('alice@corp.example').waitFor();
  await alice.getByRole('button', { name: 'Save user', exact: true }).click();
  await status(page, 'Edit alice: nothing changed.');
  await alice.getByLabel('Key name', { exact: true }).fill('alice second key');
  await alice.getByLabel('Public key (P-256, hex)').fill('not a key');
  browser.expectStatus(400, /\/public\/v1\/submit\/create_api_keys$/);
  browser.expectProblem(/status of 400/);
  await alice.getByRole('button', { name: 'Add API key', exact: true }).click();
  await page.getByRole('alert').filter({ hasText: /^Add API key alice second key to alice: .*publicKey/ }).waitFor();
  await alice.getByLabel('Public key (P-256, hex)').fill(aliceSecondApiKey);
  await alice.getByRole('button', { name: 'Add API key', exact: true }).click();
  await status(page, 'Add API key alice second key to alice: done (');
  await alice.getByText('2 credentials: 2 API keys, 0 passkeys').waitFor();
  await alice.getByText('API key alice second key').waitFor();

  // A passkey for alice, registered from this browser.
  await alice.getByLabel('Passkey name').fill('alice passkey');
  await alice.getByRole('button', { name: 'Register passkey', exact: true }).click();
  await status(page, 'Register passkey alice passkey for alice: done (');
  await alice.getByText('3 credentials: 2 API keys, 1 passkey').waitFor();
  const { credentials } = await cdp.send('WebAuthn.getCredentials', { authenticatorId });
  assert.equal(credentials.length, 1);
  assert.equal(credentials[0].isResidentCredential, true);
  assert.equal(credentials[0].rpId, new URL(url).hostname);
  const credentialId = Buffer.from(credentials[0].credentialId, 'base64').toString('base64url');
  await alice.getByText(credentialId, { exact: false }).waitFor();
  await signOut(page);

  // alice signs in with that passkey: every request carries X-Stamp-WebAuthn as @turnkey/webauthn-stamper makes it.
  const stamped = [];
  page.on('request', (request) => {
    if (request.url().includes('/public/v1/')) stamped.push(request);
  });
  await page.getByLabel('Organization id').fill(organizationId);
  await page.getByRole('button', { name: 'Sign in with a passkey', exact: true }).click();
  await page.getByText(`Signed in as alice (`).waitFor();
  const identity = await page.locator('#identity').textContent();
  assert.match(identity, new RegExp(`^Signed in as alice \\([0-9a-f-]{36}\\) to ${organizationName} `
    + `\\(${organizationId}\\) with a passkey$`));
  assert.deepEqual(await storedSession(page), { organizationId, credentialId }, 'only the org and credential ids');
  const whoami = stamped.find((request) => request.url().endsWith('/public/v1/query/whoami'));
  assert.ok(whoami, 'whoami was sent');
  const headers = whoami.headers();
  assert.equal(headers['x-stamp'], undefined);
  const stamp = JSON.parse(headers['x-stamp-webauthn']);
  assert.deepEqual(Object.keys(stamp), ['authenticatorData', 'clientDataJson', 'credentialId', 'signature']);
  assert.equal(stamp.credentialId, credentialId);
  const clientData = JSON.parse(Buffer.from(stamp.clientDataJson, 'base64url').toString('utf8'));
  const digest = createHash('sha256').update(whoami.postData(), 'utf8').digest('hex');
  assert.equal(clientData.type, 'webauthn.get');
  assert.equal(clientData.challenge, base64url(Buffer.from(digest, 'ascii')));
  assert.equal(clientData.origin, new URL(url).origin);
  assert.equal(JSON.parse(whoami.postData()).organizationId, organizationId);

  // A reload keeps the passkey session: the authenticator is asked again for whoami.
  const beforeReload = stamped.length;
  await page.reload();
  await page.getByText(`Signed in as alice (`).waitFor();
  assert.equal(await page.locator('#identity').textContent(), identity);
  assert.ok(stamped.slice(beforeReload).some((request) => request.url().endsWith('/public/v1/query/whoami')));

  // The Activities page does not poll for a passkey session: every read would ask the authenticator.
  await openPage(page, 'Activities');
  await page.getByText('live updates are off, since every read asks your passkey').waitFor();
  const beforeWaiting = stamped.length;
  await page.waitForTimeout(4000); // longer than the 3 s between polls of an API-key session
  assert.equal(stamped.length, beforeWaiting, 'no request while a passkey session waits on Activities');

  // As alice: her own API key may go (users manage their own credentials); a tag needs a policy she lacks.
  await openPage(page, 'Users');
  await alice.getByText('(this session signs with it)').waitFor();
  await alice.locator('li', { hasText: 'API key alice laptop key' })
    .getByRole('button', { name: 'Delete', exact: true }).click();
  await status(page, 'Delete API key alice laptop key of alice: done (');
  await alice.getByText('2 credentials: 1 API key, 1 passkey').waitFor();
  await page.getByLabel('Tag name').fill('alice tag');
  await page.getByRole('button', { name: 'Create tag', exact: true }).click();
  await page.getByRole('alert').filter({ hasText: /^Create tag alice tag failed: / }).waitFor();
  assert.equal(await page.locator('#tag-list > li').count(), 1, 'no tag was created');
  assert.ok(stamped.every((request) => request.headers()['x-stamp-webauthn'] && !request.headers()['x-stamp']));
  assert.ok(stamped.length >= 6, `requests stamped with the passkey: ${stamped.length}`);

  // At phone width the page fits without sideways scrolling.
  await page.setViewportSize({ width: 360, height: 740 });
  const overflow = await page.evaluate(
    () => document.documentElement.scrollWidth - document.documentElement.clientWidth);
  assert.equal(overflow, 0, 'no horizontal scrolling at 360 px');
  await browser.screenshot(page, '3-passkey-phone');
  await page.setViewportSize({ width: 1280, height: 800 });
  await signOut(page);
  assert.equal(await storedSession(page), null, 'signing out forgets the passkey session');

  // The sub-organization, with a key of its own user: its users, and the forms.
  await signInWithApiKey(page, subUser);
  assert.equal(await page.locator('#identity').textContent(),
    `Signed in as ${subUser.name} (${subUser.id}) to ${subOrganizationName} (${subOrganizationId})`);
  await openPage(page, 'Users');
  await userCard(page, subUser.name).waitFor();
  assert.deepEqual(await userNames(page), [subUser.name]);
  await page.getByRole('button', { name: 'Create user', exact: true }).waitFor();
  await signOut(page);

  // The same sub-organization read by the operator, a user of its parent: read-only, no forms.
  await signInWithApiKey(page, { ...operator, organizationId: subOrganizationId });
  assert.match(await page.locator('#identity').textContent(), new RegExp(
    `^Signed in as ${operator.name} \\([0-9a-f-]{36}\\) of ${organizationName} \\(${organizationId}\\), reading `
    + `its sub-organization ${subOrganizationName} \\(${subOrganizationId}\\): read-only$`));
  await openPage(page, 'Users');
  await userCard(page, subUser.name).waitFor();
  assert.deepEqual(await userNames(page), [subUser.name]);
  await page.getByText('Read-only: you are a user of the parent organization').waitFor();
  await status(page, 'Signed in, read-only.');
  assert.equal(await page.getByRole('button', { name: 'Create user' }).count(), 0);
  assert.equal(await page.getByRole('button', { name: 'Delete user' }).count(), 0);
  await browser.screenshot(page, '4-sub-organization-read-only');
  await signOut(page);

  // The sub-organization's user naming the parent is refused, and nothing is stored.
  browser.expectStatus(401, /\/public\/v1\/query\/get_organization$/);
  browser.expectProblem(/status of 401/);
  await page.getByLabel('Organization id').fill(organizationId);
  await page.getByLabel('API public key (hex)').fill(subUser.publicKey);
  await page.getByLabel('API private key (hex)').fill(subUser.privateKey);
  await page.getByRole('button', { name: 'Sign in', exact: true }).click();
  await page.getByRole('alert').filter({
    hasText: `this credential is a user of ${subOrganizationName} (${subOrganizationId}), neither of `
      + `${organizationId} nor of its parent: sign in to ${subOrganizationId}`,
  }).waitFor();
  assert.equal(await storedSession(page), null, 'a refused sign-in stores nothing');

  writeFileSync(resultFile, JSON.stringify({ credentialId }));
});

console.log('console e2e (users): all checks passed');
