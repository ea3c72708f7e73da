// The console's shell: sign in and out, whoami, and the page table. Each page is one module exporting `title` and
// `render(context)`, where context = {session, me, container, say, complain}; the shell draws the navigation from
// the table below and shows the page named by the location's hash (#activities, ...).
import { ApiError, query } from './api.js';
import { h } from './dom.js';
import { importApiKey } from './stamp.js';
import * as keystore from './keystore.js';
import * as activities from './activities.js';
import * as policies from './policies.js';

/** The pages, in navigation order: the hash that shows each, and its module. The first is the default. */
const PAGES = [
  ['activities', activities],
  ['policies', policies],
];

const element = (id) => document.getElementById(id);
let session = null;
let me = null;
let shown = 0; // Bumped per render, so a slow page that finishes after the operator moved on draws nothing.

function say(message) {
  element('status').textContent = message;
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
      current: () => render === shown,
    });
  } catch (error) {
    complain(error);
  }
}

async function start(current, knownIdentity) {
  session = current;
  me = knownIdentity ?? await query(session, 'whoami');
  element('identity').textContent = `Signed in as ${me.username} (${me.userId}) to ${me.organizationName} `
    + `(${me.organizationId})`;
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
    const identity = await query(candidate, 'whoami');
    await keystore.save(candidate);
    await start(candidate, identity);
    say('Signed in.');
  } catch (error) {
    session = null;
    show(false);
    complain(error);
  }
}

async function signOut() {
  await keystore.forget();
  session = null;
  me = null;
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
