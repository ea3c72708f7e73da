// The Activities page: the organization's activities, newest first, filtered by status, type and time; the detail
// of each (intent, result, votes, policy evaluations, app proofs); votes on those waiting for the viewer. The list
// reads itself again every few seconds while the page is shown and the browser tab is visible, so new activities and
// votes appear without a reload.
import { query, submit } from './api.js';
import { h, millis, when } from './dom.js';
import { isPasskeySession } from './passkey.js';

export const title = 'Activities';

const STATUSES = ['ACTIVITY_STATUS_CONSENSUS_NEEDED', 'ACTIVITY_STATUS_COMPLETED', 'ACTIVITY_STATUS_FAILED',
  'ACTIVITY_STATUS_REJECTED', 'ACTIVITY_STATUS_PENDING', 'ACTIVITY_STATUS_CREATED',
  'ACTIVITY_STATUS_AUTHENTICATORS_NEEDED'];
const POLL_MILLIS = 3000;
const PAGE_SIZE = 100;
// With a start time, older pages are read until one reaches past it; at most this many.
const MAX_PAGES = 10;

/** The type filter as typed: "sign_raw_payload_v2" reads as ACTIVITY_TYPE_SIGN_RAW_PAYLOAD_V2. */
function activityType(typed) {
  const upper = typed.trim().toUpperCase();
  if (!upper) return '';
  return upper.startsWith('ACTIVITY_TYPE_') ? upper : `ACTIVITY_TYPE_${upper}`;
}

/** A datetime-local value (the browser's local time) as milliseconds, or null when empty. */
function localTime(value) {
  if (!value) return null;
  const time = new Date(value).getTime();
  return Number.isNaN(time) ? null : time;
}

/** Reads the activities the filters select: statuses and types by list_activities itself, times here. */
async function readActivities(session, filters) {
  const found = [];
  let after = null;
  let searchedAll = false;
  for (let pages = 0; pages < (filters.from === null ? 1 : MAX_PAGES); pages++) {
    const parameters = { paginationOptions: { limit: String(PAGE_SIZE), ...(after ? { after } : {}) } };
    if (filters.status) parameters.filterByStatus = [filters.status];
    if (filters.type) parameters.filterByType = [filters.type];
    const page = (await query(session, 'list_activities', parameters)).activities || [];
    found.push(...page);
    if (page.length < PAGE_SIZE) {
      searchedAll = true;
      break;
    }
    const oldest = page[page.length - 1];
    if (filters.from !== null && millis(oldest.createdAt) < filters.from) {
      searchedAll = true;
      break;
    }
    after = oldest.id;
  }
  const shown = found
    .filter((a) => (filters.from === null || millis(a.createdAt) >= filters.from)
      && (filters.to === null || millis(a.createdAt) <= filters.to))
    .sort((a, b) => millis(b.createdAt) - millis(a.createdAt));
  return { activities: shown, read: found.length, searchedAll };
}

/** What, if it changed, makes an activity's card be drawn again. */
function signature(activity) {
  return [activity.status, millis(activity.updatedAt), activity.canApprove, activity.canReject,
    (activity.votes || []).length].join('|');
}

function json(value) {
  return h('pre', { className: 'json' }, JSON.stringify(value, null, 2));
}

/** A proof payload: JSON shown indented, anything else as it is. */
function payload(text) {
  try {
    return json(JSON.parse(text));
  } catch {
    return h('pre', { className: 'json' }, String(text));
  }
}

function section(heading, ...content) {
  return h('section', { className: 'detail-section' }, h('h3', {}, heading), ...content);
}

function voterName(vote) {
  const user = vote.user || {};
  return user.userName ? `${user.userName} (${vote.userId})` : vote.userId;
}

/** The detail of one activity: read afresh, with its policy evaluations and, when it has any, its app proofs. */
async function renderDetail(session, activityId, into) {
  const [{ activity }, { policyEvaluations }, { policies }] = await Promise.all([
    query(session, 'get_activity', { activityId }),
    query(session, 'get_policy_evaluations', { activityId }),
    query(session, 'list_policies'),
  ]);
  const names = new Map((policies || []).map((p) => [p.policyId, p.policyName]));
  const votesById = new Map((activity.votes || []).map((v) => [v.id, v]));
  const parts = [section('Intent', json(activity.intent))];
  if (activity.result && Object.keys(activity.result).length > 0) parts.push(section('Result', json(activity.result)));
  if (activity.failure) parts.push(section('Failure', h('p', { className: 'failure' }, activity.failure.message)));
  parts.push(section('Votes', h('ul', { className: 'votes' }, (activity.votes || []).map((vote) => h('li', {},
    h('span', { className: 'selection' }, vote.selection), ` by ${voterName(vote)} at ${when(vote.createdAt)}`)))));
  const evaluations = (policyEvaluations || []).map((evaluation) => {
    const vote = votesById.get(evaluation.voteId);
    const outcomes = evaluation.policyEvaluations || [];
    const overall = outcomes.find((o) => !o.policyId);
    const each = outcomes.filter((o) => o.policyId).map((o) => h('li', { dataset: { policyId: o.policyId } },
      `${names.get(o.policyId) ?? 'deleted policy'} (${o.policyId}): `,
      h('span', { className: 'outcome' }, o.outcome),
      o.error ? ` — ${o.error}` : null,
      o.failsClosed ? ' — fails closed: a DENY that cannot be evaluated denies' : null));
    return h('li', {},
      h('div', {}, `After the vote of ${vote ? voterName(vote) : evaluation.voteId}: `,
        h('span', { className: 'outcome overall' }, overall ? overall.outcome : 'no overall outcome')),
      each.length ? h('ul', { className: 'policy-outcomes' }, each) : h('div', { className: 'hint' },
        'No policy was evaluated (the root quorum or an implicit rule decided).'));
  });
  parts.push(section('Policy evaluations', evaluations.length
    ? h('ol', { className: 'evaluations' }, evaluations)
    : h('p', {}, 'No evaluation was recorded.')));
  if (activity.appProofs) {
    const { appProofs } = await query(session, 'list_app_proofs', { activityId });
    parts.push(section('App proofs', h('ul', { className: 'proofs' }, (appProofs || []).map((proof) => h('li', {},
      h('div', {}, `${proof.scheme}, signed by ${proof.publicKey}`), payload(proof.proofPayload))))));
  } else {
    parts.push(section('App proofs', h('p', {}, 'None: the request did not ask for app proofs.')));
  }
  into.replaceChildren(...parts);
}

async function vote(context, activity, approve) {
  const [operation, type] = approve
    ? ['approve_activity', 'ACTIVITY_TYPE_APPROVE_ACTIVITY']
    : ['reject_activity', 'ACTIVITY_TYPE_REJECT_ACTIVITY'];
  try {
    const result = await submit(context.session, operation, type, { fingerprint: activity.fingerprint });
    context.say(`${approve ? 'Approved' : 'Rejected'} ${activity.id}: now ${result.status}`);
  } catch (error) {
    context.complain(error);
  }
}

export async function render(context) {
  const { session } = context;
  const filters = { status: '', type: '', from: null, to: null };
  const cards = new Map(); // activity id → {node, signature, open}
  const typesSeen = new Set();

  const statusSelect = h('select', { id: 'filter-status', name: 'status' },
    h('option', { value: '' }, 'Any status'), STATUSES.map((s) => h('option', { value: s }, s)));
  const types = h('datalist', { id: 'activity-types' });
  const typeInput = h('input', {
    id: 'filter-type', name: 'type', autocomplete: 'off', spellcheck: false, 'aria-describedby': 'filter-type-hint',
  });
  typeInput.setAttribute('list', types.id); // `list` is a read-only property: only the attribute sets it
  const fromInput = h('input', { id: 'filter-from', name: 'from', type: 'datetime-local' });
  const toInput = h('input', { id: 'filter-to', name: 'to', type: 'datetime-local' });
  const form = h('form', { id: 'activity-filters', className: 'filters', 'aria-label': 'Filter activities' },
    h('label', { htmlFor: 'filter-status' }, 'Status'), statusSelect,
    h('label', { htmlFor: 'filter-type' }, 'Type'), typeInput, types,
    h('p', { id: 'filter-type-hint', className: 'hint' }, 'An activity type, e.g. SIGN_RAW_PAYLOAD_V2'),
    h('label', { htmlFor: 'filter-from' }, 'Created from (local time)'), fromInput,
    h('label', { htmlFor: 'filter-to' }, 'Created until (local time)'), toInput,
    h('div', { className: 'actions' },
      h('button', { type: 'submit' }, 'Apply filters'),
      h('button', { type: 'button', onclick: () => clearFilters() }, 'Clear filters')));

  const list = h('ul', { id: 'activity-list', className: 'cards' });
  const empty = h('p', { hidden: true }, 'No activities match.');
  const coverage = h('p', { id: 'activity-coverage', className: 'hint' });
  const arrivals = h('p', { id: 'activity-arrivals', className: 'hint', 'aria-live': 'polite' });
  let known = null; // ids of the last listing with the same filters, to announce arrivals
  let refreshing = null;

  const toggle = async (card, activity) => {
    card.open = !card.open;
    card.detailsButton.setAttribute('aria-expanded', String(card.open));
    card.detail.hidden = !card.open;
    if (card.open) await loadDetail(card, activity.id);
  };

  const loadDetail = async (card, activityId) => {
    card.detail.replaceChildren(h('p', {}, 'Reading…'));
    try {
      await renderDetail(session, activityId, card.detail);
    } catch (error) {
      card.detail.replaceChildren(h('p', {}, 'The detail could not be read.'));
      context.complain(error);
    }
  };

  const makeCard = (activity, open) => {
    const type = h('div', { className: 'activity-type', id: `activity-${activity.id}` }, activity.type);
    const meta = h('div', { className: 'activity-meta' },
      h('span', { className: 'status' }, activity.status), ` · ${when(activity.createdAt)} · ${activity.id}`);
    const detail = h('div', { className: 'activity-detail', id: `detail-${activity.id}`, hidden: !open });
    const card = { signature: signature(activity), open, detail };
    card.detailsButton = h('button', {
      type: 'button', 'aria-expanded': String(open), 'aria-controls': detail.id, 'aria-describedby': type.id,
      dataset: { action: 'details' }, onclick: () => toggle(card, activity),
    }, 'Details');
    const actions = h('div', { className: 'actions' }, card.detailsButton);
    for (const [label, approve, allowed] of [['Approve', true, activity.canApprove], ['Reject', false,
      activity.canReject]]) {
      if (!allowed) continue;
      // The name stays "Approve"/"Reject"; the description says which activity.
      actions.append(h('button', {
        type: 'button',
        'aria-describedby': type.id,
        dataset: { action: label.toLowerCase() },
        onclick: async () => {
          actions.querySelectorAll('button[data-action="approve"], button[data-action="reject"]')
            .forEach((b) => { b.disabled = true; });
          await vote(context, activity, approve);
          await refresh();
          // The card was drawn again; keep the keyboard where it was.
          const now = cards.get(activity.id);
          if (now && (!document.activeElement || document.activeElement === document.body)) {
            now.detailsButton.focus();
          }
        },
      }, label));
    }
    card.node = h('li', { dataset: { activityId: activity.id } }, type, meta, actions, detail);
    if (open) loadDetail(card, activity.id);
    return card;
  };

  /** Puts the cards in order, keeping unchanged ones (and the focus in them) as they are. */
  const draw = (activities) => {
    const focused = list.contains(document.activeElement) ? document.activeElement : null;
    const focusedCard = focused?.closest('li')?.dataset.activityId;
    const focusedAction = focused?.dataset.action;
    const wanted = activities.map((activity) => {
      const card = cards.get(activity.id);
      if (card && card.signature === signature(activity)) return card;
      const fresh = makeCard(activity, card ? card.open : false);
      cards.set(activity.id, fresh);
      return fresh;
    });
    const keep = new Set(wanted.map((card) => card.node));
    for (const child of [...list.children]) if (!keep.has(child)) child.remove();
    wanted.forEach((card, index) => {
      if (list.children[index] !== card.node) list.insertBefore(card.node, list.children[index] ?? null);
    });
    for (const id of [...cards.keys()]) if (!activities.some((a) => a.id === id)) cards.delete(id);
    if (focused && !focused.isConnected && focusedCard && cards.has(focusedCard)) {
      const node = cards.get(focusedCard).node;
      (node.querySelector(`button[data-action="${focusedAction}"]`) ?? node.querySelector('button')).focus();
    }
    empty.hidden = activities.length > 0;
  };

  const read = async (live) => {
    try {
      const { activities, read: count, searchedAll } = await readActivities(session, filters);
      if (!context.current()) return;
      activities.forEach((a) => typesSeen.add(a.type));
      types.replaceChildren(...[...typesSeen].sort().map((t) => h('option', { value: t })));
      if (live && known) {
        const arrived = activities.filter((a) => !known.has(a.id));
        if (arrived.length) {
          arrivals.textContent = `${arrived.length} new ${arrived.length === 1 ? 'activity' : 'activities'}: `
            + arrived.map((a) => a.type).join(', ');
        }
      }
      known = new Set(activities.map((a) => a.id));
      draw(activities);
      const updates = isPasskeySession(session)
        ? 'live updates are off, since every read asks your passkey: use Refresh.'
        : `updates every ${POLL_MILLIS / 1000} s while this page is visible.`;
      coverage.textContent = searchedAll
        ? `${activities.length} shown. Updated ${new Date().toLocaleTimeString()}; ${updates}`
        : `${activities.length} shown of the newest ${count} read; set "Created from" to reach older ones. Updated `
          + `${new Date().toLocaleTimeString()}; ${updates}`;
    } catch (error) {
      context.complain(error);
    }
  };

  // One read at a time: a poll that comes while a read runs waits for it instead.
  const refresh = async (live = false) => {
    while (refreshing) await refreshing;
    refreshing = read(live);
    try {
      await refreshing;
    } finally {
      refreshing = null;
    }
  };

  const applyFilters = async (event) => {
    event?.preventDefault();
    filters.status = statusSelect.value;
    filters.type = activityType(typeInput.value);
    typeInput.value = filters.type;
    filters.from = localTime(fromInput.value);
    filters.to = localTime(toInput.value);
    known = null;
    arrivals.textContent = '';
    await refresh();
  };

  const clearFilters = async () => {
    form.reset();
    await applyFilters();
  };
  form.addEventListener('submit', applyFilters);

  // Live updates: a stamped list_activities every few seconds while this page is shown and the tab visible. Not for
  // a passkey session: each read would be a prompt of the authenticator.
  let timer = null;
  const stop = () => {
    clearTimeout(timer);
    timer = null;
    document.removeEventListener('visibilitychange', onVisibility);
  };
  const schedule = () => {
    clearTimeout(timer);
    timer = null;
    if (!context.current()) {
      stop();
      return;
    }
    if (document.visibilityState === 'visible' && !isPasskeySession(session)) timer = setTimeout(poll, POLL_MILLIS);
  };
  const poll = async () => {
    if (!context.current()) {
      stop();
      return;
    }
    await refresh(true);
    schedule();
  };
  function onVisibility() {
    if (!context.current()) {
      stop();
    } else if (document.visibilityState === 'visible') {
      poll();
    } else {
      clearTimeout(timer);
      timer = null;
    }
  }

  context.container.append(form,
    h('div', { className: 'actions' }, h('button', { type: 'button', onclick: () => refresh() }, 'Refresh')),
    coverage, arrivals, empty, list);
  await refresh();
  document.addEventListener('visibilitychange', onVisibility);
  schedule();
}
