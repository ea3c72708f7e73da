// Helpers for pages that change things: submitting an activity and telling the operator what became of it, and the
// "Copy" button of an address.
import { submit } from './api.js';
import { h } from './dom.js';

/**
 * Submits an activity and reports its outcome on the status line: done, waiting for consensus (its id, so that the
 * approvers can find it), or failed (the failure's message, as an alert). Returns the activity when it completed,
 * else null. A request the server refuses is reported as its error and also gives null.
 */
export async function perform(context, what, operation, type, parameters) {
  let activity;
  try {
    activity = await submit(context.session, operation, type, parameters);
  } catch (error) {
    context.complain(error);
    return null;
  }
  switch (activity.status) {
    case 'ACTIVITY_STATUS_COMPLETED':
      context.say(`${what}: done (activity ${activity.id}).`);
      return activity;
    case 'ACTIVITY_STATUS_CONSENSUS_NEEDED':
      context.say(`${what}: waiting for consensus (activity ${activity.id}); it takes effect once approved.`);
      return null;
    default: {
      const reason = activity.failure && activity.failure.message ? `: ${activity.failure.message}` : '';
      context.complain(new Error(`${what}: ${activity.status} (activity ${activity.id})${reason}`));
      return null;
    }
  }
}

/**
 * A "Copy" button that puts `text` on the clipboard; `describedBy` is the id of the element showing the text, so that
 * a screen reader announces which value the button copies.
 */
export function copyButton(context, text, describedBy) {
  return h('button', {
    type: 'button',
    className: 'copy',
    'aria-describedby': describedBy,
    onclick: async () => {
      try {
        await navigator.clipboard.writeText(text);
        context.say(`Copied ${text}`);
      } catch (error) {
        context.complain(new Error(`could not copy to the clipboard: ${error.message}`));
      }
    },
  }, 'Copy');
}
