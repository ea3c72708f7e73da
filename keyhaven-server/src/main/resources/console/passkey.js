// Passkeys in the console (docs/console.md): X-Stamp-WebAuthn made exactly as Turnkey's @turnkey/webauthn-stamper
// makes it, and passkey registrations as Turnkey's browser SDK sends them to create_users and create_authenticators.
// A passkey session holds no secret: the organization id and the credential id (base64url) are all the console
// keeps; every request is a new assertion, so every request asks the authenticator.
import { base64url, base64urlToBytes, bytesToHex } from './stamp.js';

/** Turnkey's stamper and SDK wait five minutes for the authenticator. */
const TIMEOUT_MS = 5 * 60 * 1000;

/** The W3C transport names and the API's (as @turnkey/http maps them). */
const TRANSPORTS = {
  ble: 'AUTHENTICATOR_TRANSPORT_BLE',
  internal: 'AUTHENTICATOR_TRANSPORT_INTERNAL',
  nfc: 'AUTHENTICATOR_TRANSPORT_NFC',
  usb: 'AUTHENTICATOR_TRANSPORT_USB',
  hybrid: 'AUTHENTICATOR_TRANSPORT_HYBRID',
};

/**
 * The relying-party id of every ceremony: this page's host. The server learns a passkey's rpId from the origin of
 * its registration and checks each assertion against it, so a passkey registered here signs here.
 */
export function rpId() {
  return location.hostname;
}

/** Whether a session signs with a passkey ({organizationId, credentialId}) rather than an API key. */
export function isPasskeySession(session) {
  return Object.hasOwn(session, 'credentialId');
}

function requireWebAuthn() {
  if (!window.PublicKeyCredential || !navigator.credentials) {
    throw new Error('this browser offers no passkeys here (WebAuthn needs https:// or http://localhost)');
  }
}

// The ceremony's own error names what went wrong (NotAllowedError: cancelled or timed out; SecurityError: the rpId
// is not this page's host, e.g. an IP address).
function ceremonyError(what, error) {
  return new Error(`${what}: ${error.name ? `${error.name}: ` : ''}${error.message}`);
}

/** The challenge of a stamp: the ASCII bytes of the lowercase hex SHA-256 of the exact body. */
async function challengeOf(body) {
  const digest = await crypto.subtle.digest('SHA-256', new TextEncoder().encode(body));
  return new TextEncoder().encode(bytesToHex(new Uint8Array(digest)));
}

/**
 * The X-Stamp-WebAuthn value for `body`: JSON (not base64) of the assertion's authenticatorData, clientDataJson,
 * credentialId and signature, each base64url. A session whose credentialId is still null (signing in) lets the
 * operator pick any passkey of this site, and keeps the one picked; afterwards only that passkey may answer.
 */
export async function passkeyStamp(session, body) {
  requireWebAuthn();
  const allowCredentials = session.credentialId
    ? [{ type: 'public-key', id: base64urlToBytes(session.credentialId) }]
    : [];
  let assertion;
  try {
    assertion = await navigator.credentials.get({
      publicKey: {
        rpId: rpId(),
        challenge: await challengeOf(body),
        allowCredentials,
        timeout: TIMEOUT_MS,
        userVerification: 'preferred',
      },
    });
  } catch (error) {
    throw ceremonyError('the passkey did not sign the request', error);
  }
  if (!assertion) throw new Error('the passkey did not sign the request');
  const credentialId = base64url(new Uint8Array(assertion.rawId));
  if (session.credentialId && credentialId !== session.credentialId) {
    throw new Error('the authenticator answered with another passkey than the one signed in');
  }
  session.credentialId = credentialId;
  const response = assertion.response;
  return JSON.stringify({
    authenticatorData: base64url(new Uint8Array(response.authenticatorData)),
    clientDataJson: base64url(new Uint8Array(response.clientDataJSON)),
    credentialId,
    signature: base64url(new Uint8Array(response.signature)),
  });
}

let lane = Promise.resolve();

/**
 * Runs passkey-stamped requests one at a time: a browser runs one passkey ceremony at a time, and an authenticator
 * that counts its signatures must reach the server in the order it signed (the server refuses a counter that did
 * not increase).
 */
export function oneAtATime(task) {
  const run = lane.then(task, task);
  lane = run.catch(() => {});
  return run;
}

/**
 * Registers a new passkey on this browser's authenticator for a user, as @turnkey/sdk-browser's createUserPasskey
 * does: 32 random challenge bytes, a random user handle, ES256 (or Ed25519, the other key type the server keeps),
 * a discoverable credential so that it can sign in without naming it. `exclude` lists credential ids (base64url)
 * the authenticator must not already hold. Returns the `challenge` and `attestation` of v1AuthenticatorParamsV2;
 * transports the API has no name for are left out (they are hints for later ceremonies, not checked).
 */
export async function registerPasskey({ userName, displayName, exclude = [] }) {
  requireWebAuthn();
  const challenge = crypto.getRandomValues(new Uint8Array(32));
  let credential;
  try {
    // In the same lane as the stamps: the browser runs one ceremony at a time.
    credential = await oneAtATime(() => navigator.credentials.create({
      publicKey: {
        rp: { id: rpId(), name: 'Keyhaven console' },
        user: { id: crypto.getRandomValues(new Uint8Array(32)), name: userName, displayName },
        challenge,
        pubKeyCredParams: [{ type: 'public-key', alg: -7 }, { type: 'public-key', alg: -8 }],
        authenticatorSelection: { requireResidentKey: true, residentKey: 'required', userVerification: 'preferred' },
        excludeCredentials: exclude.map((id) => ({ type: 'public-key', id: base64urlToBytes(id) })),
        timeout: TIMEOUT_MS,
      },
    }));
  } catch (error) {
    throw ceremonyError('the passkey was not created', error);
  }
  if (!credential) throw new Error('the passkey was not created');
  const response = credential.response;
  const transports = (response.getTransports ? response.getTransports() : [])
    .map((name) => TRANSPORTS[name])
    .filter(Boolean);
  return {
    challenge: base64url(challenge),
    attestation: {
      credentialId: base64url(new Uint8Array(credential.rawId)),
      clientDataJson: base64url(new Uint8Array(response.clientDataJSON)),
      attestationObject: base64url(new Uint8Array(response.attestationObject)),
      transports,
    },
  };
}
