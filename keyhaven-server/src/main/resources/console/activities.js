// The Activities page: the organization's activities, newest first, and votes on those waiting for consensus.
import { query, submit } from './api.js';
import { h, millis, when } from './dom.js';

export const title = 'Activities';

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

function activityItem(context, activity, reload) {
  const type = h('div', { className: 'activity-type', id: `activity-${activity.id}` }, activity.type);
  const meta = h('div', { className: 'activity-meta' },
    h('span', { className: 'status' }, activity.status), ` · ${when(activity.createdAt)} · ${activity.id}`);
  const item = h('li', { dataset: { activityId: activity.id } }, type, meta);
  if (activity.status === 'ACTIVITY_STATUS_CONSENSUS_NEEDED') {
    const actions = h('div', { className: 'actions' });
    for (const [label, approve] of [['Approve', true], ['Reject', false]]) {
      // The name stays "Approve"/"Reject"; the description says which activity.
      actions.append(h('button', {
        type: 'button',
        'aria-describedby': type.id,
        onclick: async () => {
          actions.querySelectorAll('button').forEach((b) => { b.disabled = true; });
          await vote(context, activity, approve);
          await reload();
        },
      }, label));
    }
    item.append(actions);
  }
  return item;
}

export async function render(context) {
  const list = h('ul', { id: 'activity-list', className: 'cards' });
  const empty = h('p', { hidden: true }, 'No activities.');
  const reload = async () => {
    try {
      const answer = await query(context.session, 'list_activities', { paginationOptions: { limit: '100' } });
      const activities = (answer.activities || []).slice()
        .sort((a, b) => millis(b.createdAt) - millis(a.createdAt));
      list.replaceChildren(...activities.map((activity) => activityItem(context, activity, reload)));
      empty.hidden = activities.length > 0;
    } catch (error) {
      context.complain(error);
    }
  };
  context.container.append(h('button', { type: 'button', onclick: () => reload() }, 'Refresh'), empty, list);
  await reload();
}
