// The Webhooks page: the organization's endpoints (create, activate or deactivate, delete) and each endpoint's recent
// deliveries with their status, HTTP status, error, attempts and times, and "Redeliver" (docs/webhooks.md). While a
// delivery is pending the page reads them again every few seconds, so an attempt's outcome shows without a click.
import { query } from './api.js';
import { perform } from './actions.js';
import { h, when } from './dom.js';
import { isPasskeySession } from './passkey.js';

export const title = 'Webhooks';

const DELIVERIES_SHOWN = 20;
const PENDING_REFRESH_MS = 2000;

function deliveryItem(context, delivery, reload) {
  const statusId = `delivery-${delivery.deliveryId}`;
  const facts = [
    ['HTTP status', delivery.lastStatusCode === undefined ? '—' : String(delivery.lastStatusCode)],
    ['Error', delivery.lastError ?? '—'],
    ['Attempts', String(delivery.attempts)],
    ['Created', when(delivery.createdAt)],
    ['Updated', when(delivery.updatedAt)],
  ];
  if (delivery.nextAttemptAt) facts.push(['Next attempt', when(delivery.nextAttemptAt)]);
  facts.push(['Event', delivery.eventId], ['Delivery', delivery.deliveryId]);
  // Each term with its value in a div (allowed in a dl), so that the pairs wrap as units on a narrow screen.
  const item = h('li', { dataset: { deliveryId: delivery.deliveryId, eventId: delivery.eventId } },
    h('div', { id: statusId, className: `status delivery-${delivery.status.toLowerCase()}` }, delivery.status),
    h('dl', { className: 'pairs' },
      facts.map(([term, value]) => h('div', {}, h('dt', {}, term), h('dd', {}, value)))));
  // A pending delivery is still being attempted; the server refuses to queue it twice.
  if (delivery.status !== 'PENDING') {
    item.append(h('div', { className: 'actions' }, h('button', {
      type: 'button',
      'aria-describedby': statusId,
      onclick: async (event) => {
        event.target.disabled = true;
        const done = await perform(context, `Redeliver ${delivery.deliveryId}`, 'redeliver_webhook_delivery',
          'ACTIVITY_TYPE_REDELIVER_WEBHOOK_DELIVERY', { deliveryId: delivery.deliveryId });
        if (done) await reload();
        else event.target.disabled = false;
      },
    }, 'Redeliver')));
  }
  return item;
}

async function endpointItem(context, endpoint, reload) {
  const headingId = `endpoint-${endpoint.endpointId}`;
  const answer = await query(context.session, 'list_webhook_deliveries',
    { endpointId: endpoint.endpointId, limit: DELIVERIES_SHOWN });
  const deliveries = answer.deliveries || [];
  const events = (endpoint.subscriptions || []).map((s) => s.eventType).join(', ') || 'no events';
  const toggle = h('button', {
    type: 'button',
    'aria-describedby': headingId,
    onclick: async (event) => {
      event.target.disabled = true;
      const done = await perform(context, `${endpoint.isActive ? 'Deactivate' : 'Activate'} ${endpoint.name}`,
        'update_webhook_endpoint', 'ACTIVITY_TYPE_UPDATE_WEBHOOK_ENDPOINT',
        { endpointId: endpoint.endpointId, isActive: !endpoint.isActive });
      if (done) await reload();
      else event.target.disabled = false;
    },
  }, endpoint.isActive ? 'Deactivate' : 'Activate');
  const remove = h('button', {
    type: 'button',
    'aria-describedby': headingId,
    onclick: async (event) => {
      if (!window.confirm(`Delete the webhook endpoint ${endpoint.name}? Its deliveries stop.`)) return;
      event.target.disabled = true;
      const done = await perform(context, `Delete endpoint ${endpoint.name}`, 'delete_webhook_endpoint',
        'ACTIVITY_TYPE_DELETE_WEBHOOK_ENDPOINT', { endpointId: endpoint.endpointId });
      if (done) await reload();
      else event.target.disabled = false;
    },
  }, 'Delete endpoint');
  const item = h('li', { dataset: { endpointId: endpoint.endpointId } },
    h('h4', { id: headingId }, endpoint.name),
    h('div', { className: 'meta' }, h('code', {}, endpoint.url)),
    h('div', { className: 'meta' },
      h('span', { className: 'status' }, endpoint.isActive ? 'active' : 'inactive'),
      ` · ${events} · ${endpoint.endpointId}`),
    h('div', { className: 'actions' }, toggle, remove),
    h('h5', {}, 'Recent deliveries'),
    deliveries.length
      ? h('ul', { className: 'deliveries', 'aria-label': `Deliveries to ${endpoint.name}` },
        deliveries.map((delivery) => deliveryItem(context, delivery, reload)))
      : h('p', {}, 'No deliveries yet.'));
  return { item, pending: deliveries.some((d) => d.status === 'PENDING') };
}

function createEndpointForm(context, reload) {
  const name = h('input', { id: 'endpoint-name', autocomplete: 'off', required: true });
  const url = h('input', { id: 'endpoint-url', type: 'url', autocomplete: 'off', spellcheck: false, required: true,
    placeholder: 'https://hooks.example.com/keyhaven' });
  const button = h('button', { type: 'submit' }, 'Create endpoint');
  const form = h('form', { id: 'create-endpoint-form', noValidate: true },
    h('label', { htmlFor: name.id }, 'Endpoint name'), name,
    h('label', { htmlFor: url.id }, 'URL'), url,
    h('p', { className: 'meta' }, 'Subscribed to ACTIVITY_UPDATES: every status of every activity.'),
    button);
  form.addEventListener('submit', async (event) => {
    event.preventDefault();
    if (!name.value.trim() || !url.value.trim()) {
      context.complain(new Error('the endpoint name and URL are required'));
      return;
    }
    button.disabled = true;
    const done = await perform(context, `Create endpoint ${name.value.trim()}`, 'create_webhook_endpoint',
      'ACTIVITY_TYPE_CREATE_WEBHOOK_ENDPOINT', {
        name: name.value.trim(),
        url: url.value.trim(),
        subscriptions: [{ eventType: 'ACTIVITY_UPDATES' }],
      });
    button.disabled = false;
    if (done) {
      name.value = '';
      url.value = '';
      await reload();
    }
  });
  return form;
}

export async function render(context) {
  const list = h('ul', { id: 'endpoint-list', className: 'cards', 'aria-labelledby': 'endpoint-list-heading' });
  const empty = h('p', { hidden: true }, 'No webhook endpoints.');
  let timer = null;
  const reload = async () => {
    clearTimeout(timer);
    if (!context.current()) return;
    try {
      const answer = await query(context.session, 'list_webhook_endpoints');
      const endpoints = answer.webhookEndpoints || [];
      const shown = await Promise.all(endpoints.map((endpoint) => endpointItem(context, endpoint, reload)));
      if (!context.current()) return;
      list.replaceChildren(...shown.map((s) => s.item));
      empty.hidden = endpoints.length > 0;
      // A passkey session re-reads only when asked: each read is a prompt of the authenticator.
      if (shown.some((s) => s.pending) && !isPasskeySession(context.session)) {
        timer = setTimeout(reload, PENDING_REFRESH_MS);
      }
    } catch (error) {
      context.complain(error);
    }
  };
  context.container.append(
    h('section', { 'aria-labelledby': 'endpoint-list-heading' },
      h('h3', { id: 'endpoint-list-heading' }, 'Endpoints'),
      h('button', { type: 'button', onclick: () => reload() }, 'Refresh'),
      empty, list),
    h('section', { 'aria-labelledby': 'create-endpoint-heading' },
      h('h3', { id: 'create-endpoint-heading' }, 'Create endpoint'),
      createEndpointForm(context, reload)));
  await reload();
}
