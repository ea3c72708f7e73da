// Turnkey's X-Stamp, made in the browser with a non-extractable WebCrypto key (docs/console.md).
// The stamp is base64url (no padding) of {"publicKey","scheme","signature"}: the compressed P-256 public key in hex,
// SIGNATURE_SCHEME_TK_API_P256, and the DER-encoded ECDSA-SHA256 signature over the exact body bytes, in hex.

const SCHEME = 'SIGNATURE_SCHEME_TK_API_P256';
const P256 = { name: 'ECDSA', namedCurve: 'P-256' };

export function hexToBytes(hex) {
  if (typeof hex !== 'string' || hex.length % 2 !== 0 || !/^[0-9a-fA-F]*$/.test(hex)) {
    throw new Error('not hexadecimal');
  }
  const bytes = new Uint8Array(hex.length / 2);
  for (let i = 0; i < bytes.length; i++) {
    bytes[i] = parseInt(hex.substr(i * 2, 2), 16);
  }
  return bytes;
}

export function bytesToHex(bytes) {
  return Array.from(bytes, (b) => b.toString(16).padStart(2, '0')).join('');
}

export function base64url(bytes) {
  let binary = '';
  for (const b of bytes) binary += String.fromCharCode(b);
  return btoa(binary).replace(/\+/g, '-').replace(/\//g, '_').replace(/=+$/, '');
}

export function base64urlToBytes(text) {
  const padded = text.replace(/-/g, '+').replace(/_/g, '/') + '='.repeat((4 - (text.length % 4)) % 4);
  return Uint8Array.from(atob(padded), (c) => c.charCodeAt(0));
}

/**
 * Imports an API key pair given in hex as Turnkey's dashboard shows it: the 32-byte private scalar and the public
 * key (compressed, 33 bytes, or uncompressed, 65). The browser decodes the public point (WebCrypto's raw import);
 * the private key is imported from a JWK of the scalar and that point, non-extractable, so that no script can read
 * it back; a signature it makes must verify under the public key given, or the pair is refused.
 * Returns {privateKey: CryptoKey, publicKey: compressed hex}.
 */
export async function importApiKey(privateKeyHex, publicKeyHex) {
  let scalar;
  let point;
  try {
    scalar = hexToBytes(privateKeyHex.trim());
    point = hexToBytes(publicKeyHex.trim());
  } catch {
    throw new Error('the API keys must be hexadecimal');
  }
  if (scalar.length !== 32) {
    throw new Error('the API private key must be 32 bytes (64 hexadecimal characters)');
  }
  let publicKey;
  let jwk;
  try {
    publicKey = await crypto.subtle.importKey('raw', point, P256, true, ['verify']);
    jwk = await crypto.subtle.exportKey('jwk', publicKey);
  } catch {
    throw new Error('the API public key is not a P-256 public key');
  }
  let privateKey;
  try {
    privateKey = await crypto.subtle.importKey(
      'jwk', { kty: 'EC', crv: 'P-256', x: jwk.x, y: jwk.y, d: base64url(scalar), ext: false }, P256, false,
      ['sign']);
  } catch {
    throw new Error('the API public key does not belong to this private key (or the private key is not P-256)');
  } finally {
    scalar.fill(0);
  }
  const probe = new TextEncoder().encode('keyhaven console key check');
  const signature = await crypto.subtle.sign({ name: 'ECDSA', hash: 'SHA-256' }, privateKey, probe);
  if (!await crypto.subtle.verify({ name: 'ECDSA', hash: 'SHA-256' }, publicKey, signature, probe)) {
    throw new Error('the API public key does not belong to this private key');
  }
  const x = base64urlToBytes(jwk.x);
  const y = base64urlToBytes(jwk.y);
  return { privateKey, publicKey: bytesToHex(Uint8Array.of(y[31] & 1 ? 3 : 2)) + bytesToHex(x) };
}

// One DER INTEGER of an unsigned big-endian number: no superfluous leading zero, one added if the top bit is set.
function derInteger(bytes) {
  let start = 0;
  while (start < bytes.length - 1 && bytes[start] === 0) start++;
  const body = bytes.slice(start);
  const padded = body[0] & 0x80 ? Uint8Array.of(0, ...body) : body;
  return Uint8Array.of(0x02, padded.length, ...padded);
}

/** WebCrypto's raw r ‖ s as the DER SEQUENCE of two INTEGERs that stamps carry. */
export function rawToDer(raw) {
  const r = derInteger(raw.slice(0, 32));
  const s = derInteger(raw.slice(32, 64));
  return Uint8Array.of(0x30, r.length + s.length, ...r, ...s);
}

/** The X-Stamp header value for `body` (a string, sent as UTF-8 exactly as signed). */
export async function stamp(key, body) {
  const bytes = new TextEncoder().encode(body);
  const raw = new Uint8Array(
    await crypto.subtle.sign({ name: 'ECDSA', hash: 'SHA-256' }, key.privateKey, bytes));
  const json = JSON.stringify({ publicKey: key.publicKey, scheme: SCHEME, signature: bytesToHex(rawToDer(raw)) });
  return base64url(new TextEncoder().encode(json));
}
