// Verifies the organization's tamper-evident activity log in the browser, with WebCrypto, so that the operator need
// not take the server's word for it: the same checks as keyhaven-client's AuditLogVerifier (whose AuditChain defines
// the hashes; docs/operating.md#audit-log) over the entries get_audit_log pages out.
//
// An entry's hash is SHA-256 over the UTF-8 lines keyhaven-audit-entry-v1, organizationId, seq, kind, activityId,
// recordId, contentHash = SHA-256(content) and prevHash joined by "\n"; the first entry's prevHash is 64 zeros. A signed head is
// the identity key's ECDSA P-256 / SHA-256 signature (raw r ‖ s, hex) over the lines keyhaven-audit-head-v1,
// organizationId, seq and the head's hash.
import { query } from './api.js';
import { bytesToHex, hexToBytes } from './stamp.js';

export const GENESIS = '0'.repeat(64);
const PAGE = 500; // get_audit_log's largest page
const P256 = { name: 'ECDSA', namedCurve: 'P-256' };
const encoder = new TextEncoder();

/** The log does not verify; the message names the first entry or signed head found wrong. */
export class BrokenLog extends Error {}

async function sha256Hex(text) {
  return bytesToHex(new Uint8Array(await crypto.subtle.digest('SHA-256', encoder.encode(text))));
}

/** The hash of one entry as AuditChain.linkHash defines it, from the hash of its content. */
export async function entryHash(organizationId, entry, contentHash) {
  return sha256Hex([
    'keyhaven-audit-entry-v1', organizationId, String(entry.seq), entry.kind, entry.activityId, entry.recordId,
    contentHash, entry.prevHash,
  ].join('\n'));
}

/** What the identity key signs for the head of a chain (AuditChain.headStatement). */
export function headStatement(organizationId, seq, headHash) {
  return ['keyhaven-audit-head-v1', organizationId, String(seq), headHash].join('\n');
}

/** The identity public key (P-256, hex, compressed or uncompressed) as a WebCrypto verification key. */
export async function identityKey(hex) {
  try {
    return await crypto.subtle.importKey('raw', hexToBytes(hex.trim()), P256, false, ['verify']);
  } catch {
    throw new Error('the identity key is not a P-256 public key in hex');
  }
}

async function signatureVerifies(key, organizationId, signed) {
  let raw;
  try {
    raw = hexToBytes(signed.signature);
  } catch {
    return false;
  }
  if (raw.length !== 64) return false;
  return crypto.subtle.verify({ name: 'ECDSA', hash: 'SHA-256' }, key, raw,
    encoder.encode(headStatement(organizationId, signed.seq, signed.headHash)));
}

/**
 * Reads the organization's whole chain and checks it: every entry follows the one before (next seq, prevHash the
 * previous hash) and hashes to its hash; the chain ends at the head the organization records; and the latest signed
 * head verifies against `identity` (a CryptoKey) and names the hash of an entry of the chain. `progress(n)` is told
 * how many entries are checked so far.
 *
 * Returns {entries, head: {seq, hash}, signedHead} (signedHead null when no head is signed yet); throws BrokenLog.
 */
export async function verifyAuditLog(session, identity, progress = () => {}) {
  const organizationId = session.organizationId;
  const hashes = [];
  let prevHash = GENESIS;
  let answer;
  for (;;) {
    answer = await query(session, 'get_audit_log', { afterSeq: hashes.length, limit: PAGE });
    const entries = answer.entries || [];
    for (const entry of entries) {
      const expected = hashes.length + 1;
      const where = `entry ${entry.seq}`;
      if (entry.seq !== expected) {
        throw new BrokenLog(`${where}: expected entry ${expected} here (an entry was deleted, inserted or reordered)`);
      }
      if (entry.prevHash !== prevHash) {
        throw new BrokenLog(`${where}: its prevHash is not the hash of entry ${expected - 1} (an entry was altered, `
          + 'deleted, inserted or reordered)');
      }
      // The hash covers contentHash; content is the record it describes (for a vote or a final activity, the row as
      // it is now, absent when the row is gone), which must hash to it.
      if (await entryHash(organizationId, entry, entry.contentHash) !== entry.hash) {
        throw new BrokenLog(`${where}: its hash does not match its fields (the entry was altered)`);
      }
      const record = `${entry.kind === 'VOTE' ? 'vote' : 'activity'} ${entry.recordId}`;
      if (typeof entry.content !== 'string') {
        throw new BrokenLog(`${where}: ${record} is missing (the row was deleted)`);
      }
      if (await sha256Hex(entry.content) !== entry.contentHash) {
        throw new BrokenLog(`${where}: ${record} does not match the hash its entry keeps (the row was edited)`);
      }
      hashes.push(entry.hash);
      prevHash = entry.hash;
    }
    progress(hashes.length);
    if (entries.length < PAGE) break;
  }
  // The last page and the head come from one read, so they agree unless the log was cut or extended behind it.
  const head = answer.head || {};
  if (head.seq !== hashes.length || (hashes.length > 0 && head.hash !== prevHash)) {
    throw new BrokenLog(`the chain ends at entry ${hashes.length} but the organization records its head at entry `
      + `${head.seq} (entries were cut off or the head was rewritten)`);
  }
  const signed = answer.latestSignedHead ?? null;
  if (signed) {
    const where = `signed head ${signed.seq}`;
    if (!await signatureVerifies(identity, organizationId, signed)) {
      throw new BrokenLog(`${where}: the signature does not verify against the identity key`);
    }
    if (!(signed.seq >= 1 && signed.seq <= hashes.length)) {
      throw new BrokenLog(`${where}: the chain has no entry ${signed.seq} (entries were deleted)`);
    }
    if (hashes[signed.seq - 1] !== signed.headHash) {
      throw new BrokenLog(`${where}: entry ${signed.seq} is not the entry that was signed (the chain was rewritten)`);
    }
  }
  return { entries: hashes.length, head: { seq: head.seq, hash: head.hash ?? null }, signedHead: signed };
}
