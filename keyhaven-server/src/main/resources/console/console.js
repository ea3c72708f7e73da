// The console's shell: sign in and out, whoami, and the page table. Each page is one module exporting `title` and
// `render(context)`, where context = {session, me, container, say, complain, clear, current, readOnly}; the shell
// draws the navigation from the table below and shows the page named by the location's hash (#activities, ...).
// `readOnly` is true when the operator is a user of the parent of the organization signed in to: the server lets
// them read it and refuses their activities there. With a passkey session every request asks the authenticator, so
// a page sends none the operator did not ask for.
import { ApiError, query } from './api.js';
import { h } from './dom.js';
import { isPasskeySession } from './passkey.js';
import { importApiKey } from './stamp.js';
import * as keystore from './keystore.js';
import * as activities from './activities.js';
import * as policies from './policies.js';
import * as users from './users.js';
import * as wallets from './wallets.js';
import * as privatekeys from './privatekeys.js';
import * as webhooks from './webhooks.js';
import * as organization from './organization.js';

/** The pages, in navigation order: the hash that shows each, and its module. The first is the default. */
const PAGES = [
  ['activities', activities],
  ['policies', policies],
  ['users', users],
  ['wallets', wallets],
  ['private-keys', privatekeys],
  ['webhooks', webhooks],
  ['organization', organization],
];

const element = (id) => document.getElementById(id);
let session = null;
let me = null;
let reading = null; // {organizationId, name} of a sub-organization read by a user of its parent, else null.
let shown = 0; // Bumped per render, so a slow page that finishes after the operator moved on draws nothing.

function say(message) {
  element('status').textContent = message;
}

function clearError() {
  element('error').textContent = '';
}

function complain(error) {
  const detail = error instanceof ApiError ? `${error.message} (HTTP ${error.status})` : error.message;
  element('error').textContent = detail;
}

function show(signedIn) {
  element('sign-in').hidden = signedIn;
  element('pages').hidden = !signedIn;
  element('page').hidden = !signedIn;
  element('sign-out').hidden = !signedIn;
  element('identity').hidden = !signedIn;
}

function currentPage() {
  const name = location.hash.replace(/^#/, '');
  return PAGES.find(([hash]) => hash === name) ?? PAGES[0];
}

async function renderPage() {
  if (!session) return;
  const [hash, page] = currentPage();
  const render = ++shown;
  for (const link of element('pages').querySelectorAll('a')) {
    if (link.hash === `#${hash}`) link.setAttribute('aria-current', 'page');
    else link.removeAttribute('aria-current');
  }
  const container = h('div', { className: 'page-body' });
  const heading = h('h2', { id: 'page-heading' }, page.title);
  element('page').replaceChildren(heading, container);
  element('error').textContent = '';
  try {
    await page.render({
      session, me, container, say, complain,
      clear: clearError,
      current: () => render === shown,
      readOnly: reading !== null,
    });
  } catch (error) {
    complain(error);
  }
}

/**
 * Who the session's credential is, relative to the organization it names: whoami answers with the credential's own
 * organization. When that is another one, the credential is either a user of the named organization's parent, who
 * may read it (the server answers get_organization for them) and is signed in read-only, or a user of one of its
 * sub-organizations (whoami looks there too, get_organization does not), who is refused: they sign in to their own.
 * Any other answer refuses the sign-in.
 */
async function establish(candidate) {
  const identity = await query(candidate, 'whoami');
  if (identity.organizationId === candidate.organizationId) return { identity, readOnly: null };
  let named;
  try {
    named = (await query(candidate, 'get_organization')).organizationData;
  } catch {
    throw new Error(`this credential is a user of ${identity.organizationName} (${identity.organizationId}), `
      + `neither of ${candidate.organizationId} nor of its parent: sign in to ${identity.organizationId}`);
  }
  if (!named || named.organizationId !== candidate.organizationId) {
    throw new Error(`the server answered for another organization than ${candidate.organizationId}`);
  }
  return { identity, readOnly: { organizationId: named.organizationId, name: named.name } };
}

function describe(identity, readOnly, passkey) {
  const who = `Signed in as ${identity.username} (${identity.userId})`;
  const how = passkey ? ' with a passkey' : '';
  if (!readOnly) return `${who} to ${identity.organizationName} (${identity.organizationId})${how}`;
  return `${who} of ${identity.organizationName} (${identity.organizationId})${how}, reading its sub-organization `
    + `${readOnly.name} (${readOnly.organizationId}): read-only`;
}

async function start(current, established) {
  session = current;
  const { identity, readOnly } = established ?? await establish(session);
  me = identity;
  reading = readOnly;
  element('identity').textContent = describe(me, reading, isPasskeySession(session));
  show(true);
  await renderPage();
}

async function signIn(event) {
  event.preventDefault();
  element('error').textContent = '';
  const form = event.target;
  const organizationId = form.organizationId.value.trim();
  try {
    if (!organizationId) throw new Error('the organization id is required');
    const key = await importApiKey(form.privateKey.value, form.publicKey.value);
    form.privateKey.value = '';
    const candidate = { ...key, organizationId };
    // whoami proves the key is registered before it is kept.
    const established = await establish(candidate);
    await keystore.save(candidate);
    await start(candidate, established);
    say(established.readOnly ? 'Signed in, read-only.' : 'Signed in.');
  } catch (error) {
    session = null;
    show(false);
    complain(error);
  }
}

/**
 * Signs in with a passkey of this site: whoami is stamped by whichever passkey the operator picks (a discoverable
 * credential), and only the organization id and that passkey's credential id are kept.
 */
async function signInWithPasskey() {
  element('error').textContent = '';
  const organizationId = element('organization-id').value.trim();
  const button = element('passkey-sign-in');
  button.disabled = true;
  try {
    if (!organizationId) throw new Error('the organization id is required');
    const candidate = { organizationId, credentialId: null };
    const established = await establish(candidate);
    await keystore.save({ organizationId, credentialId: candidate.credentialId });
    await start(candidate, established);
    say(established.readOnly ? 'Signed in with a passkey, read-only.' : 'Signed in with a passkey.');
  } catch (error) {
    session = null;
    show(false);
    complain(error);
  } finally {
    button.disabled = false;
  }
}

async function signOut() {
  await keystore.forget();
  session = null;
  me = null;
  reading = null;
  shown++;
  element('page').replaceChildren();
  element('identity').textContent = '';
  element('error').textContent = '';
  show(false);
  say('Signed out.');
}

async function main() {
  element('pages').replaceChildren(...PAGES.map(([hash, page]) => h('a', { href: `#${hash}` }, page.title)));
  element('sign-in-form').addEventListener('submit', signIn);
  element('passkey-sign-in').addEventListener('click', signInWithPasskey);
  element('sign-out').addEventListener('click', signOut);
  window.addEventListener('hashchange', () => renderPage());
  let stored;
  try {
    stored = await keystore.load();
  } catch (error) {
    complain(error);
  }
  if (!stored) {
    show(false);
    return;
  }
  try {
    await start(stored);
  } catch (error) {
    show(false);
    complain(error);
  }
}

main();
