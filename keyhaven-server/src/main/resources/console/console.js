// The console's page logic: sign in and out, whoami, the activity list, and votes on activities waiting for
// consensus. Everything is drawn with DOM methods and textContent: nothing the server returns is parsed as HTML.
import { ApiError, query, submit } from './api.js';
import { importApiKey } from './stamp.js';
import * as keystore from './keystore.js';

const element = (id) => document.getElementById(id);
let session = null;

function say(message) {
  element('status').textContent = message;
}

function complain(error) {
  const detail = error instanceof ApiError ? `${error.message} (HTTP ${error.status})` : error.message;
  element('error').textContent = detail;
}

function show(signedIn) {
  element('sign-in').hidden = signedIn;
  element('activities').hidden = !signedIn;
  element('sign-out').hidden = !signedIn;
  element('identity').hidden = !signedIn;
}

// createdAt is RFC 3339 text, or {seconds, nanos} when the server runs with --activity-timestamps=object.
function millis(time) {
  if (time && typeof time === 'object') {
    return Number(time.seconds) * 1000 + Math.floor(Number(time.nanos || 0) / 1e6);
  }
  return Date.parse(time) || 0;
}

async function vote(activity, approve) {
  element('error').textContent = '';
  const [operation, type] = approve
    ? ['approve_activity', 'ACTIVITY_TYPE_APPROVE_ACTIVITY']
    : ['reject_activity', 'ACTIVITY_TYPE_REJECT_ACTIVITY'];
  try {
    const result = await submit(session, operation, type, { fingerprint: activity.fingerprint });
    say(`${approve ? 'Approved' : 'Rejected'} ${activity.id}: now ${result.status}`);
  } catch (error) {
    complain(error);
  }
  await refresh();
}

function activityItem(activity) {
  const item = document.createElement('li');
  item.dataset.activityId = activity.id;
  const type = document.createElement('div');
  type.className = 'activity-type';
  type.id = `activity-${activity.id}`;
  type.textContent = activity.type;
  const meta = document.createElement('div');
  meta.className = 'activity-meta';
  const status = document.createElement('span');
  status.className = 'status';
  status.textContent = activity.status;
  meta.append(status, ` · ${new Date(millis(activity.createdAt)).toISOString()} · ${activity.id}`);
  item.append(type, meta);
  if (activity.status === 'ACTIVITY_STATUS_CONSENSUS_NEEDED') {
    const actions = document.createElement('div');
    actions.className = 'actions';
    for (const [label, approve] of [['Approve', true], ['Reject', false]]) {
      const button = document.createElement('button');
      button.type = 'button';
      button.textContent = label;
      // The name stays "Approve"/"Reject"; the description says which activity.
      button.setAttribute('aria-describedby', type.id);
      button.addEventListener('click', () => {
        actions.querySelectorAll('button').forEach((b) => { b.disabled = true; });
        vote(activity, approve);
      });
      actions.append(button);
    }
    item.append(actions);
  }
  return item;
}

async function refresh() {
  try {
    const answer = await query(session, 'list_activities', { paginationOptions: { limit: '100' } });
    const activities = (answer.activities || []).slice()
      .sort((a, b) => millis(b.createdAt) - millis(a.createdAt));
    element('activity-list').replaceChildren(...activities.map(activityItem));
    element('activities-empty').hidden = activities.length > 0;
  } catch (error) {
    complain(error);
  }
}

async function start(current, knownIdentity) {
  session = current;
  const me = knownIdentity ?? await query(session, 'whoami');
  element('identity').textContent = `Signed in as ${me.username} (${me.userId}) to ${me.organizationName} `
    + `(${me.organizationId})`;
  show(true);
  await refresh();
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
    const me = await query(candidate, 'whoami');
    await keystore.save(candidate);
    await start(candidate, me);
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
  element('activity-list').replaceChildren();
  element('identity').textContent = '';
  element('error').textContent = '';
  show(false);
  say('Signed out.');
}

async function main() {
  element('sign-in-form').addEventListener('submit', signIn);
  element('sign-out').addEventListener('click', signOut);
  element('refresh').addEventListener('click', () => refresh());
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
