// Helpers for pages that change things: submitting an activity and telling the operator what became of it, and the
// "Copy" button of an address.
import { ApiError, submit } from './api.js';
import { h } from './dom.js';

/** The error with what the operator was doing in front of it (an ApiError keeps its status and body). */
export function about(what, error) {
  if (error instanceof ApiError) {
    return new ApiError(error.status, { ...(error.body || {}), message: `${what}: ${error.message}` });
  }
  return new Error(`${what}: ${error.message}`);
}

/**
 * Submits an activity and reports its outcome, each message starting with `what`: done (with the activity's id),
 * waiting for consensus (its id, so that the approvers can find it), failed (the failure's message, as an alert), or
 * refused by the server (its error, as an alert). Returns the activity when it completed, else null. `accepted`, if
 * given, runs once the server took the request, whatever became of the activity: a refused request leaves the page
 * (and what the operator typed) as it was.
 */
export async function perform(context, what, operation, type, parameters, accepted = async () => {}) {
  context.clear(); // An earlier error is no longer the news once the operator acts again.
  let activity;
  try {
    activity = await submit(context.session, operation, type, parameters);
  } catch (error) {
    context.complain(about(what, error));
    return null;
  }
  await accepted();
  switch (activity.status) {
    case 'ACTIVITY_STATUS_COMPLETED':
      context.say(`${what}: done (activity ${activity.id}).`);
      return activity;
    case 'ACTIVITY_STATUS_CONSENSUS_NEEDED':
      context.say(`${what}: waits for consensus (activity ${activity.id}, ACTIVITY_STATUS_CONSENSUS_NEEDED). `
        + 'It is carried out once enough approvers approve it on the Activities page.');
      return null;
    case 'ACTIVITY_STATUS_FAILED':
      context.complain(new Error(`${what} failed: ${activity.failure?.message ?? activity.status} `
        + `(activity ${activity.id})`));
      return null;
    default:
      context.complain(new Error(`${what}: ${activity.status} (activity ${activity.id})`));
      return null;
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
