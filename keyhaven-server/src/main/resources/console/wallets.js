// The Wallets page: the organization's wallets with their accounts and addresses, "Create wallet" and, on each
// wallet, "Create accounts". Nothing secret is ever shown: the server never returns a mnemonic or a private key to
// these queries, and the console offers no export.
import { query } from './api.js';
import { copyButton, perform } from './actions.js';
import { h, when } from './dom.js';

export const title = 'Wallets';

/**
 * The accounts the console offers, as create_wallet and create_wallet_accounts take them (v1WalletAccountParams):
 * the curve, the BIP-32 path of account `index` on the chain's usual scheme (the last index for the secp256k1
 * chains, the account level for Solana's fully hardened SLIP-0010 path) and the address format.
 */
export const PRESETS = [
  { id: 'ethereum', label: 'Ethereum', curve: 'CURVE_SECP256K1', addressFormat: 'ADDRESS_FORMAT_ETHEREUM',
    path: (index) => `m/44'/60'/0'/0/${index}` },
  { id: 'solana', label: 'Solana', curve: 'CURVE_ED25519', addressFormat: 'ADDRESS_FORMAT_SOLANA',
    path: (index) => `m/44'/501'/${index}'/0'` },
  { id: 'bitcoin-segwit', label: 'Bitcoin segwit (P2WPKH)', curve: 'CURVE_SECP256K1',
    addressFormat: 'ADDRESS_FORMAT_BITCOIN_MAINNET_P2WPKH', path: (index) => `m/84'/0'/0'/0/${index}` },
  { id: 'bitcoin-taproot', label: 'Bitcoin Taproot (P2TR)', curve: 'CURVE_SECP256K1',
    addressFormat: 'ADDRESS_FORMAT_BITCOIN_MAINNET_P2TR', path: (index) => `m/86'/0'/0'/0/${index}` },
  { id: 'cosmos', label: 'Cosmos', curve: 'CURVE_SECP256K1', addressFormat: 'ADDRESS_FORMAT_COSMOS',
    path: (index) => `m/44'/118'/0'/0/${index}` },
  { id: 'tron', label: 'Tron', curve: 'CURVE_SECP256K1', addressFormat: 'ADDRESS_FORMAT_TRON',
    path: (index) => `m/44'/195'/0'/0/${index}` },
];

const MNEMONIC_LENGTHS = [12, 15, 18, 21, 24];
const MAX_NEW_ACCOUNTS = 20;
const PAGE = 100;

function accountParams(preset, index) {
  return { curve: preset.curve, pathFormat: 'PATH_FORMAT_BIP32', path: preset.path(index),
    addressFormat: preset.addressFormat };
}

/** The first index of `preset` that no account of the wallet has taken. */
function nextIndex(preset, accounts) {
  const taken = new Set(accounts.filter((a) => a.addressFormat === preset.addressFormat).map((a) => a.path));
  let index = 0;
  while (taken.has(preset.path(index))) index++;
  return index;
}

/** Every account of one wallet, following the pages (100 at a time) until a short one. */
async function walletAccounts(session, walletId) {
  const accounts = [];
  let after;
  for (;;) {
    const paginationOptions = after ? { limit: String(PAGE), after } : { limit: String(PAGE) };
    const answer = await query(session, 'list_wallet_accounts', { walletId, paginationOptions });
    const page = answer.accounts || [];
    accounts.push(...page);
    if (page.length < PAGE) return accounts;
    after = page[page.length - 1].walletAccountId;
  }
}

function accountItem(context, account) {
  const addressId = `address-${account.walletAccountId}`;
  return h('li', { dataset: { address: account.address } },
    h('div', { className: 'address-line' },
      h('code', { id: addressId, className: 'address' }, account.address),
      copyButton(context, account.address, addressId)),
    h('div', { className: 'meta' },
      `${account.addressFormat} · ${account.curve} · ${account.path}`));
}

function field(id, label, control) {
  control.id = id;
  return [h('label', { htmlFor: id }, label), control];
}

function createAccountsForm(context, wallet, accounts, reload) {
  const key = wallet.walletId;
  const preset = h('select', { name: 'preset' },
    PRESETS.map((p) => h('option', { value: p.id }, p.label)));
  const first = h('input', { name: 'first', type: 'number', min: '0', step: '1', required: true,
    value: String(nextIndex(PRESETS[0], accounts)) });
  const count = h('input', { name: 'count', type: 'number', min: '1', max: String(MAX_NEW_ACCOUNTS), step: '1',
    required: true, value: '1' });
  // The first free index follows the chain chosen, so that the default never collides with an account.
  preset.addEventListener('change', () => {
    first.value = String(nextIndex(PRESETS.find((p) => p.id === preset.value), accounts));
  });
  const button = h('button', { type: 'submit', 'aria-describedby': `wallet-${key}` }, 'Create accounts');
  const form = h('form', { className: 'create-accounts', noValidate: true },
    field(`preset-${key}`, 'Chain', preset),
    field(`first-${key}`, 'First account index', first),
    field(`count-${key}`, 'Number of accounts', count),
    button);
  form.addEventListener('submit', async (event) => {
    event.preventDefault();
    const chosen = PRESETS.find((p) => p.id === preset.value);
    const start = Number(first.value);
    const n = Number(count.value);
    if (!Number.isInteger(start) || start < 0 || start >= 2 ** 31) {
      context.complain(new Error('the first account index must be a whole number from 0 to 2147483647'));
      return;
    }
    if (!Number.isInteger(n) || n < 1 || n > MAX_NEW_ACCOUNTS || start + n > 2 ** 31) {
      context.complain(new Error(`the number of accounts must be 1 to ${MAX_NEW_ACCOUNTS}`));
      return;
    }
    button.disabled = true;
    const newAccounts = Array.from({ length: n }, (_, i) => accountParams(chosen, start + i));
    const done = await perform(context, `Create accounts in ${wallet.walletName}`, 'create_wallet_accounts',
      'ACTIVITY_TYPE_CREATE_WALLET_ACCOUNTS', { walletId: wallet.walletId, accounts: newAccounts });
    button.disabled = false;
    if (done) await reload();
  });
  return form;
}

async function walletItem(context, wallet, reload) {
  const accounts = await walletAccounts(context.session, wallet.walletId);
  const flags = [wallet.imported ? 'imported' : null, wallet.exported ? 'exported' : null].filter(Boolean);
  return h('li', { dataset: { walletId: wallet.walletId } },
    h('h4', { id: `wallet-${wallet.walletId}` }, wallet.walletName),
    h('div', { className: 'meta' },
      `${wallet.walletId} · created ${when(wallet.createdAt)}${flags.length ? ` · ${flags.join(', ')}` : ''}`),
    accounts.length
      ? h('ul', { className: 'accounts', 'aria-label': `Accounts of ${wallet.walletName}` },
        accounts.map((account) => accountItem(context, account)))
      : h('p', {}, 'No accounts.'),
    createAccountsForm(context, wallet, accounts, reload));
}

function createWalletForm(context, reload) {
  const name = h('input', { name: 'walletName', autocomplete: 'off', required: true });
  const length = h('select', { name: 'mnemonicLength' },
    MNEMONIC_LENGTHS.map((n) => h('option', { value: String(n) }, `${n} words`)));
  const choices = PRESETS.map((preset) => h('label', { className: 'choice' },
    h('input', { type: 'checkbox', name: 'preset', value: preset.id, checked: preset.id === 'ethereum' }),
    ` ${preset.label}`));
  const button = h('button', { type: 'submit' }, 'Create wallet');
  const form = h('form', { id: 'create-wallet-form', noValidate: true },
    field('wallet-name', 'Wallet name', name),
    field('mnemonic-length', 'Mnemonic length', length),
    h('fieldset', {}, h('legend', {}, 'First accounts'), choices),
    button);
  form.addEventListener('submit', async (event) => {
    event.preventDefault();
    const walletName = name.value.trim();
    if (!walletName) {
      context.complain(new Error('the wallet name is required'));
      return;
    }
    const chosen = PRESETS.filter((preset) => form.querySelector(`input[value="${preset.id}"]`).checked);
    button.disabled = true;
    const done = await perform(context, `Create wallet ${walletName}`, 'create_wallet',
      'ACTIVITY_TYPE_CREATE_WALLET', {
        walletName,
        mnemonicLength: Number(length.value),
        accounts: chosen.map((preset) => accountParams(preset, 0)),
      });
    button.disabled = false;
    if (done) {
      name.value = '';
      await reload();
    }
  });
  return form;
}

export async function render(context) {
  const list = h('ul', { id: 'wallet-list', className: 'cards', 'aria-labelledby': 'wallet-list-heading' });
  const empty = h('p', { hidden: true }, 'No wallets.');
  const reload = async () => {
    try {
      const answer = await query(context.session, 'list_wallets');
      const wallets = answer.wallets || [];
      const items = await Promise.all(wallets.map((wallet) => walletItem(context, wallet, reload)));
      list.replaceChildren(...items);
      empty.hidden = wallets.length > 0;
    } catch (error) {
      context.complain(error);
    }
  };
  context.container.append(
    h('section', { 'aria-labelledby': 'wallet-list-heading' },
      h('h3', { id: 'wallet-list-heading' }, 'All wallets'),
      h('button', { type: 'button', onclick: () => reload() }, 'Refresh'),
      empty, list),
    h('section', { 'aria-labelledby': 'create-wallet-heading' },
      h('h3', { id: 'create-wallet-heading' }, 'Create wallet'),
      createWalletForm(context, reload)));
  await reload();
}
