// The Organization page: name and id, the root quorum (threshold and users by name), the sub-organizations, and the
// audit log verified in this browser (audit.js) against the identity key the operator pinned.
import { query } from './api.js';
import { BrokenLog, identityKey, verifyAuditLog } from './audit.js';
import { h } from './dom.js';

export const title = 'Organization';

const SUBORG_PAGE = 25;

// The pinned identity key is public, not a secret; it is kept in an IndexedDB database of its own so that it
// survives a reload and a sign-out (it belongs to the deployment, not to the operator).
const PINS = 'keyhaven-console-pins';

function pins(mode, use) {
  return new Promise((resolve, reject) => {
    const open = indexedDB.open(PINS, 1);
    open.onupgradeneeded = () => open.result.createObjectStore('pins');
    open.onerror = () => reject(open.error);
    open.onsuccess = () => {
      const db = open.result;
      const request = use(db.transaction('pins', mode).objectStore('pins'));
      request.onsuccess = () => { db.close(); resolve(request.result); };
      request.onerror = () => { db.close(); reject(request.error); };
    };
  });
}

const pinnedKey = () => pins('readonly', (store) => store.get('identityKey'));
const pinKey = (hex) => pins('readwrite',
  (store) => (hex ? store.put(hex, 'identityKey') : store.delete('identityKey')));

function facts(rows) {
  return h('dl', { className: 'facts' },
    rows.flatMap(([term, value]) => [h('dt', {}, term), h('dd', {}, value)]));
}

async function quorumSection(context) {
  const { organizationData: org } = await query(context.session, 'get_organization');
  const names = new Map((org.users || []).map((user) => [user.userId, user.userName]));
  const quorum = org.rootQuorum || { threshold: 0, userIds: [] };
  return [
    h('section', { 'aria-labelledby': 'organization-heading' },
      h('h3', { id: 'organization-heading' }, 'Details'),
      facts([['Name', h('span', { id: 'organization-name' }, org.name)], ['Id', h('code', {}, org.organizationId)]])),
    h('section', { 'aria-labelledby': 'quorum-heading' },
      h('h3', { id: 'quorum-heading' }, 'Root quorum'),
      h('p', { id: 'quorum-threshold' },
        `${quorum.threshold} of ${quorum.userIds.length} must approve what needs the root quorum:`),
      h('ul', { id: 'quorum-users', 'aria-labelledby': 'quorum-heading' },
        quorum.userIds.map((id) => h('li', { dataset: { userId: id } },
          h('span', { className: 'user-name' }, names.get(id) ?? '(unknown user)'), ' ',
          h('code', { className: 'meta' }, id))))),
  ];
}

function subOrganizationsSection(context) {
  const list = h('ul', { id: 'suborg-list', className: 'cards', 'aria-labelledby': 'suborgs-heading' });
  const empty = h('p', { hidden: true }, 'No sub-organizations.');
  const more = h('button', { type: 'button', hidden: true }, 'Show more');
  let after = null;
  const load = async () => {
    more.disabled = true;
    try {
      const paginationOptions = after ? { limit: String(SUBORG_PAGE), after } : { limit: String(SUBORG_PAGE) };
      const { organizationIds = [] } = await query(context.session, 'list_suborgs', { paginationOptions });
      // A parent's user may read its sub-organizations: their names come from each one's get_organization.
      const items = await Promise.all(organizationIds.map(async (id) => {
        let name;
        try {
          const { organizationData } = await query({ ...context.session, organizationId: id }, 'get_organization');
          name = organizationData.name;
        } catch (error) {
          name = `(name not readable: ${error.message})`;
        }
        return h('li', { dataset: { organizationId: id } }, h('div', { className: 'suborg-name' }, name),
          h('code', { className: 'meta' }, id));
      }));
      list.append(...items);
      empty.hidden = list.children.length > 0;
      after = organizationIds.length ? organizationIds[organizationIds.length - 1] : after;
      more.hidden = organizationIds.length < SUBORG_PAGE;
    } catch (error) {
      context.complain(error);
    } finally {
      more.disabled = false;
    }
  };
  more.addEventListener('click', load);
  const section = h('section', { 'aria-labelledby': 'suborgs-heading' },
    h('h3', { id: 'suborgs-heading' }, 'Sub-organizations'), empty, list, more);
  return { section, load };
}

function auditSection(context) {
  const input = h('input', { id: 'identity-key', autocomplete: 'off', spellcheck: false });
  const button = h('button', { type: 'submit' }, 'Verify audit log');
  const result = h('p', { id: 'audit-result', className: 'audit-result' });
  const details = h('dl', { id: 'audit-details', className: 'facts', hidden: true });
  const form = h('form', { id: 'audit-form', noValidate: true },
    h('label', { htmlFor: input.id }, 'Identity public key (hex)'), input,
    h('p', { className: 'meta', id: 'identity-key-help' },
      'Pin the key that serve printed ("identity key: 04…"): the signed head is checked against it. Left empty, the '
      + 'key this server reports in its boot proof is used, which only proves the log is consistent with what the '
      + 'server says.'),
    button);
  input.setAttribute('aria-describedby', 'identity-key-help');

  const verify = async () => {
    button.disabled = true;
    details.hidden = true;
    result.className = 'audit-result';
    result.textContent = 'Verifying…';
    try {
      const pinned = input.value.trim();
      let reported = null;
      try {
        reported = (await query(context.session, 'get_latest_boot_proof', { appName: 'keyhaven' }))
          .bootProof.identityPublicKey;
      } catch (error) {
        if (!pinned) throw new Error(`no identity key is pinned and the server's cannot be read: ${error.message}`);
      }
      const keyHex = pinned || reported;
      const source = pinned ? 'pinned in this browser' : 'reported by this server, not pinned';
      const key = await identityKey(keyHex);
      await pinKey(pinned);
      const log = await verifyAuditLog(context.session, key, (n) => {
        result.textContent = `Verifying… ${n} entries`;
      });
      const signed = log.signedHead;
      if (!log.entries) {
        result.textContent = 'Verified: the audit log has no entries yet.';
      } else if (signed) {
        result.textContent = `Verified: ${log.entries} entries, head ${log.head.hash}, signed at ${signed.signedAt}`
          + (signed.seq < log.entries ? ` (up to entry ${signed.seq}; the newer entries are protected by the chain `
            + 'until the next signature, within seconds)' : '');
      } else {
        result.textContent = `Chain verified: ${log.entries} entries, head ${log.head.hash}; no head signed yet `
          + '(heads are signed every 10 seconds).';
      }
      result.classList.add('verified');
      details.replaceChildren(...facts([
        ['Entries', String(log.entries)],
        ['Head', `entry ${log.head.seq}: ${log.head.hash ?? '—'}`],
        ['Signed head', signed ? `entry ${signed.seq}: ${signed.headHash}, signed at ${signed.signedAt}` : 'none yet'],
        ['Identity key', `${keyHex} (${source})`],
      ]).children);
      if (pinned && reported && pinned.toLowerCase() !== reported.toLowerCase()) {
        details.append(h('dt', {}, 'Warning'),
          h('dd', {}, `this server reports another identity key in its boot proof: ${reported}`));
      }
      details.hidden = false;
    } catch (error) {
      result.classList.add('broken');
      result.textContent = error instanceof BrokenLog
        ? `Audit log broken: ${error.message}`
        : `Could not verify the audit log: ${error.message}`;
    } finally {
      button.disabled = false;
    }
  };
  form.addEventListener('submit', (event) => {
    event.preventDefault();
    verify();
  });
  const section = h('section', { 'aria-labelledby': 'audit-heading' },
    h('h3', { id: 'audit-heading' }, 'Audit log'),
    h('p', {}, 'This browser reads the whole chain, recomputes every entry\'s hash and link, and checks the newest '
      + 'signed head\'s signature with WebCrypto.'),
    form, h('div', { role: 'status', 'aria-live': 'polite' }, result), details);
  return {
    section,
    start: async () => {
      input.value = (await pinnedKey().catch(() => undefined)) ?? '';
      await verify();
    },
  };
}

export async function render(context) {
  const suborgs = subOrganizationsSection(context);
  const audit = auditSection(context);
  const top = await quorumSection(context);
  context.container.append(...top, suborgs.section, audit.section);
  await Promise.all([suborgs.load(), audit.start()]);
}
