// Stamped requests to this server's API: every query and every activity the console sends is an ordinary
// Turnkey-style request, so policies and consensus apply to it as to any client.
import { isPasskeySession, oneAtATime, passkeyStamp } from './passkey.js';
import { stamp } from './stamp.js';

export class ApiError extends Error {
  constructor(status, body) {
    super(body && body.message ? body.message : `HTTP ${status}`);
    this.status = status;
    this.body = body;
  }
}

/** The stamp header of `body`: X-Stamp with an API key, X-Stamp-WebAuthn with a passkey. */
async function stampHeader(session, body) {
  return isPasskeySession(session)
    ? ['X-Stamp-WebAuthn', await passkeyStamp(session, body)]
    : ['X-Stamp', await stamp(session, body)];
}

function post(session, path, payload) {
  return isPasskeySession(session) ? oneAtATime(() => send(session, path, payload)) : send(session, path, payload);
}

async function send(session, path, payload) {
  const body = JSON.stringify(payload);
  const [stampName, stampValue] = await stampHeader(session, body);
  const response = await fetch(path, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json', [stampName]: stampValue },
    body,
    credentials: 'omit',
    cache: 'no-store',
  });
  let parsed = null;
  try {
    parsed = await response.json();
  } catch {
    // Not JSON: reported with the status below.
  }
  if (!response.ok) {
    throw new ApiError(response.status, parsed);
  }
  return parsed;
}

export function query(session, operation, parameters = {}) {
  return post(session, `/public/v1/query/${operation}`, { organizationId: session.organizationId, ...parameters });
}

/** Submits an activity; the answer's `activity`. */
export async function submit(session, operation, type, parameters) {
  const answer = await post(session, `/public/v1/submit/${operation}`, {
    type,
    timestampMs: String(Date.now()),
    organizationId: session.organizationId,
    parameters,
  });
  return answer.activity;
}
