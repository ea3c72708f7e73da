// Wallets and wallet accounts through @turnkey/sdk-server's apiClient() (flat parameters, the SDK's own
// DEFAULT_*_ACCOUNTS / default*AccountAtIndex helpers) and @turnkey/http's TurnkeyClient (whole request bodies):
// create_wallet, create_wallet_accounts, list_wallets, get_wallet, get_wallet_account, list_wallet_accounts with its
// filters and cursor pagination, update_wallet, delete_wallet_accounts and delete_wallets, and the errors of each.
import assert from "node:assert/strict";
import { before, describe, test } from "node:test";
import { TurnkeyClient } from "@turnkey/http";
import {
  DEFAULT_ETHEREUM_ACCOUNTS,
  DEFAULT_SOLANA_ACCOUNTS,
  defaultEthereumAccountAtIndex,
} from "@turnkey/sdk-server";
import { secp256k1 } from "@noble/curves/secp256k1";
import { getAddress } from "viem";
import { publicKeyToAddress } from "viem/accounts";
import bs58 from "bs58";
import {
  assertCompleted,
  assertRequestError,
  assertWalletAccountShape,
  assertWalletShape,
  baseUrl,
  organizationId,
  rootKey,
  sdkClientFor,
  stamperFor,
  unique,
} from "../lib/keyhaven.mjs";

const sdk = sdkClientFor();
const http = new TurnkeyClient({ baseUrl }, stamperFor(rootKey));
const now = () => String(Date.now());

/** The EIP-55 address of a compressed secp256k1 public key (hex), computed by viem. */
const ethereumAddressOf = (compressedHex) =>
  publicKeyToAddress(`0x${secp256k1.ProjectivePoint.fromHex(compressedHex).toHex(false)}`);

/** Ethereum accounts 0..count-1 from the SDK's helper (index in the 4th path segment). */
const ethereumAccounts = (from, count) =>
  Array.from({ length: count }, (_, i) => defaultEthereumAccountAtIndex(from + i));

/** Every account of `walletId`, walking list_wallet_accounts forward `limit` at a time, as the SDK's core does. */
async function allAccountsForward(walletId, limit, extra = {}) {
  const pages = [];
  let after;
  for (;;) {
    const { accounts } = await sdk.getWalletAccounts({
      walletId, ...extra, paginationOptions: { limit: String(limit), ...(after ? { after } : {}) },
    });
    assert.ok(accounts.length <= limit, `a page holds at most ${limit} accounts`);
    pages.push(accounts);
    if (accounts.length < limit) {
      return pages;
    }
    after = accounts.at(-1).walletAccountId;
  }
}

describe("wallets through @turnkey/sdk-server and @turnkey/http", () => {
  const walletName = unique("wallet");
  let walletId;
  /** The accounts asked for, in order: Ethereum 0 and 1 (SDK helpers), Solana 0; then Ethereum 2..6 added later. */
  const initialAccounts = [...DEFAULT_ETHEREUM_ACCOUNTS, defaultEthereumAccountAtIndex(1), ...DEFAULT_SOLANA_ACCOUNTS];
  const addedAccounts = ethereumAccounts(2, 5);
  let addresses;
  let createActivity;
  let previewed;

  before(async () => {
    const response = await sdk.createWallet({ walletName, accounts: initialAccounts, mnemonicLength: 24 });
    const result = assertCompleted(response.activity, {
      type: "ACTIVITY_TYPE_CREATE_WALLET", intentKey: "createWalletIntent", resultKey: "createWalletResult",
    });
    assert.equal(response.walletId, result.walletId);
    assert.deepEqual(response.addresses, result.addresses);
    walletId = response.walletId;
    createActivity = response.activity;
    addresses = [...response.addresses];
  });

  test("createWallet returns one address per account, in order, in each format", async () => {
    assert.equal(addresses.length, initialAccounts.length);
    const [eth0, eth1, sol0] = addresses;
    assert.equal(getAddress(eth0), eth0, "Ethereum addresses are EIP-55 checksummed");
    assert.equal(getAddress(eth1), eth1);
    assert.notEqual(eth0.toLowerCase(), eth1.toLowerCase(), "account index 1 is another key");
    assert.equal(bs58.decode(sol0).length, 32, "a Solana address is a base58 32-byte key");
    const { activity } = await sdk.getActivity({ activityId: createActivity.id });
    assert.deepEqual(activity, createActivity);
    assert.deepEqual(activity.intent.createWalletIntent.accounts, initialAccounts,
      "the intent records the accounts as sent");
    assert.equal(activity.intent.createWalletIntent.mnemonicLength, 24);
    assert.equal(activity.intent.createWalletIntent.walletName, walletName);
  });

  test("getWallet and getWallets return the new wallet", async () => {
    const { wallet } = await sdk.getWallet({ walletId });
    assertWalletShape(wallet);
    assert.equal(wallet.walletId, walletId);
    assert.equal(wallet.walletName, walletName);
    assert.equal(wallet.exported, false);
    assert.equal(wallet.imported, false);

    const { wallets } = await sdk.getWallets();
    wallets.forEach(assertWalletShape);
    assert.deepEqual(wallets.find((w) => w.walletId === walletId), wallet);

    const viaHttp = await http.getWallet({ organizationId, walletId });
    assert.deepEqual(viaHttp.wallet, wallet);
    const listedViaHttp = await http.getWallets({ organizationId });
    assert.deepEqual(listedViaHttp.wallets.find((w) => w.walletId === walletId), wallet);
  });

  test("createWalletAccounts (@turnkey/http) adds accounts and returns their addresses in order", async () => {
    const response = await http.createWalletAccounts({
      type: "ACTIVITY_TYPE_CREATE_WALLET_ACCOUNTS",
      timestampMs: now(),
      organizationId,
      parameters: { walletId, accounts: addedAccounts },
    });
    const result = assertCompleted(response.activity, {
      type: "ACTIVITY_TYPE_CREATE_WALLET_ACCOUNTS", intentKey: "createWalletAccountsIntent",
      resultKey: "createWalletAccountsResult",
    });
    assert.equal(result.addresses.length, addedAccounts.length);
    assert.equal(new Set([...addresses, ...result.addresses].map((a) => a.toLowerCase())).size,
      addresses.length + addedAccounts.length, "every account has its own address");
    addresses.push(...result.addresses);
  });

  test("createWalletAccounts with persist: false previews an address without storing the account", async () => {
    const before = (await sdk.getWalletAccounts({ walletId, paginationOptions: { limit: "100" } })).accounts;
    const preview = await sdk.createWalletAccounts({
      walletId, accounts: [defaultEthereumAccountAtIndex(7)], persist: false,
    });
    assertCompleted(preview.activity, {
      type: "ACTIVITY_TYPE_CREATE_WALLET_ACCOUNTS", intentKey: "createWalletAccountsIntent",
      resultKey: "createWalletAccountsResult",
    });
    assert.equal(preview.addresses.length, 1);
    assert.equal(getAddress(preview.addresses[0]), preview.addresses[0]);
    const again = await sdk.createWalletAccounts({
      walletId, accounts: [defaultEthereumAccountAtIndex(7)], persist: false,
    });
    assert.deepEqual(again.addresses, preview.addresses, "the same seed and path give the same address");
    assert.deepEqual((await sdk.getWalletAccounts({ walletId, paginationOptions: { limit: "100" } })).accounts, before);
    await assertRequestError(sdk.getWalletAccount({ walletId, address: preview.addresses[0] }), { code: 5 });
    previewed = preview.addresses[0];
  });

  test("createWalletAccounts through the SDK adds an account; the same path twice is an error", async () => {
    const response = await sdk.createWalletAccounts({ walletId, accounts: [defaultEthereumAccountAtIndex(7)] });
    assertCompleted(response.activity, {
      type: "ACTIVITY_TYPE_CREATE_WALLET_ACCOUNTS", intentKey: "createWalletAccountsIntent",
      resultKey: "createWalletAccountsResult",
    });
    assert.equal(response.addresses.length, 1);
    assert.equal(response.addresses[0], previewed, "the stored account has the previewed address");
    addresses.push(response.addresses[0]);
    await assertRequestError(sdk.createWalletAccounts({ walletId, accounts: [defaultEthereumAccountAtIndex(7)] }),
      { code: 3, turnkeyErrorCode: "REQUEST_INVALID" });
  });

  test("getWalletAccount finds an account by address and by path; its public key gives its address", async () => {
    const byAddress = await sdk.getWalletAccount({ walletId, address: addresses[1] });
    assertWalletAccountShape(byAddress.account);
    assert.equal(byAddress.account.address, addresses[1]);
    assert.equal(byAddress.account.path, "m/44'/60'/1'/0/0");
    assert.equal(byAddress.account.curve, "CURVE_SECP256K1");
    assert.equal(byAddress.account.addressFormat, "ADDRESS_FORMAT_ETHEREUM");
    assert.equal(byAddress.account.walletId, walletId);
    assert.equal(byAddress.account.organizationId, organizationId);
    assert.match(byAddress.account.publicKey, /^0[23][0-9a-f]{64}$/, "a compressed secp256k1 key");
    assert.equal(ethereumAddressOf(byAddress.account.publicKey), addresses[1]);

    const byPath = await http.getWalletAccount({ organizationId, walletId, path: "m/44'/60'/1'/0/0" });
    assert.deepEqual(byPath.account, byAddress.account);

    const solana = await sdk.getWalletAccount({ walletId, path: DEFAULT_SOLANA_ACCOUNTS[0].path });
    assert.equal(solana.account.address, addresses[2]);
    assert.equal(solana.account.curve, "CURVE_ED25519");
    assert.equal(bs58.encode(Buffer.from(solana.account.publicKey, "hex")), solana.account.address);
  });

  test("getWalletAccounts (list_wallet_accounts) lists the wallet's accounts in creation order", async () => {
    const { accounts } = await sdk.getWalletAccounts({ walletId, paginationOptions: { limit: "100" } });
    accounts.forEach((a) => assertWalletAccountShape(a));
    assert.deepEqual(accounts.map((a) => a.address), addresses);
    assert.deepEqual(accounts.map((a) => a.path),
      [...initialAccounts, ...addedAccounts, defaultEthereumAccountAtIndex(7)].map((a) => a.path));
    assert.ok(accounts.every((a) => a.walletId === walletId));

    const withDetails = await sdk.getWalletAccounts({
      walletId, includeWalletDetails: true, paginationOptions: { limit: "100" },
    });
    withDetails.accounts.forEach((a) => assertWalletAccountShape(a, { walletDetails: true }));
    assert.ok(withDetails.accounts.every((a) => a.walletDetails.walletName === walletName));
    assert.deepEqual(withDetails.accounts.map(({ walletDetails, ...rest }) => rest), accounts);

    const defaultPage = await sdk.getWalletAccounts({ walletId });
    assert.deepEqual(defaultPage.accounts, accounts.slice(0, 10), "without paginationOptions: the first 10");
  });

  test("getWalletAccounts without walletId lists the accounts of every wallet of the organization", async () => {
    const other = await sdk.createWallet({ walletName: unique("other-wallet"), accounts: DEFAULT_ETHEREUM_ACCOUNTS });
    const seen = new Map();
    let after;
    for (;;) {
      const { accounts } = await sdk.getWalletAccounts({
        paginationOptions: { limit: "100", ...(after ? { after } : {}) },
      });
      accounts.forEach((a) => seen.set(a.walletAccountId, a));
      if (accounts.length < 100) {
        break;
      }
      after = accounts.at(-1).walletAccountId;
    }
    const mine = [...seen.values()].filter((a) => a.walletId === walletId).map((a) => a.address);
    assert.deepEqual(mine, addresses);
    assert.deepEqual([...seen.values()].filter((a) => a.walletId === other.walletId).map((a) => a.address),
      other.addresses);
    // An address of another wallet is not found in this one.
    await assertRequestError(sdk.getWalletAccount({ walletId: other.walletId, address: addresses[0] }), { code: 5 });
    await sdk.deleteWallets({ walletIds: [other.walletId], deleteWithoutExport: true });
  });

  test("paginationOptions: after walks forward, before walks back, pages never overlap or skip", async () => {
    const all = (await sdk.getWalletAccounts({ walletId, paginationOptions: { limit: "100" } })).accounts;
    const ids = all.map((a) => a.walletAccountId);
    assert.equal(ids.length, 9);

    const forward = await allAccountsForward(walletId, 2);
    assert.deepEqual(forward.map((p) => p.length), [2, 2, 2, 2, 1]);
    assert.deepEqual(forward.flat().map((a) => a.walletAccountId), ids);

    const exact = await allAccountsForward(walletId, 3);
    assert.deepEqual(exact.map((p) => p.length), [3, 3, 3, 0], "a full last page is followed by an empty one");
    assert.deepEqual(exact.flat().map((a) => a.walletAccountId), ids);

    // Backwards from the last account: each page holds the items just before the cursor, still in list order.
    const backward = [];
    let cursor = ids.at(-1);
    for (;;) {
      const { accounts } = await sdk.getWalletAccounts({ walletId, paginationOptions: { limit: "4", before: cursor } });
      if (accounts.length === 0) {
        break;
      }
      backward.unshift(...accounts.map((a) => a.walletAccountId));
      cursor = accounts[0].walletAccountId;
    }
    assert.deepEqual(backward, ids.slice(0, -1));

    const middle = await sdk.getWalletAccounts({ walletId, paginationOptions: { limit: "2", before: ids[5] } });
    assert.deepEqual(middle.accounts.map((a) => a.walletAccountId), ids.slice(3, 5));
    const withDetails = await sdk.getWalletAccounts({
      walletId, includeWalletDetails: true, paginationOptions: { limit: "2", after: ids[2] },
    });
    assert.deepEqual(withDetails.accounts.map((a) => a.walletAccountId), ids.slice(3, 5));
    assert.ok(withDetails.accounts.every((a) => a.walletDetails?.walletId === walletId));

    // @turnkey/http sends the same query with the whole body spelled out.
    const viaHttp = await http.getWalletAccounts({
      organizationId, walletId, includeWalletDetails: true, paginationOptions: { limit: "2", after: ids[2] },
    });
    assert.deepEqual(viaHttp.accounts, withDetails.accounts);
    const allViaHttp = await http.getWalletAccounts({ organizationId, walletId, paginationOptions: { limit: "100" } });
    assert.deepEqual(allViaHttp.accounts, all);
  });

  test("bad paginationOptions are TurnkeyRequestError 3", async () => {
    const [first, second] = (await sdk.getWalletAccounts({ walletId, paginationOptions: { limit: "2" } })).accounts;
    for (const paginationOptions of [
      { limit: "0" },
      { limit: "101" },
      { limit: "ten" },
      { limit: "2", before: second.walletAccountId, after: first.walletAccountId },
      { limit: "2", after: crypto.randomUUID() },
    ]) {
      await assertRequestError(sdk.getWalletAccounts({ walletId, paginationOptions }),
        { code: 3, turnkeyErrorCode: "REQUEST_INVALID" });
    }
  });

  test("updateWallet renames the wallet; a name already taken is an error", async () => {
    const newName = unique("renamed-wallet");
    const response = await sdk.updateWallet({ walletId, walletName: newName });
    const result = assertCompleted(response.activity, {
      type: "ACTIVITY_TYPE_UPDATE_WALLET", intentKey: "updateWalletIntent", resultKey: "updateWalletResult",
    });
    assert.equal(result.walletId, walletId);
    assert.equal(response.walletId, walletId);
    const { wallet } = await sdk.getWallet({ walletId });
    assert.equal(wallet.walletName, newName);
    const same = await sdk.updateWallet({ walletId, walletName: newName });
    assert.equal(same.activity.status, "ACTIVITY_STATUS_COMPLETED", "renaming to the current name is no conflict");
    assert.ok(BigInt(wallet.updatedAt.seconds) >= BigInt(wallet.createdAt.seconds));
    const { accounts } = await sdk.getWalletAccounts({ walletId, includeWalletDetails: true });
    assert.ok(accounts.every((a) => a.walletDetails.walletName === newName), "walletDetails follow the rename");

    const taken = unique("taken-wallet");
    const other = await sdk.createWallet({ walletName: taken, accounts: [] });
    assert.deepEqual(other.addresses, [], "a wallet may start without accounts");
    await assertRequestError(sdk.updateWallet({ walletId, walletName: taken }),
      { code: 3, turnkeyErrorCode: "REQUEST_INVALID", message: /already exists/ });
    await assertRequestError(sdk.createWallet({ walletName: taken, accounts: DEFAULT_ETHEREUM_ACCOUNTS }),
      { code: 3, turnkeyErrorCode: "REQUEST_INVALID", message: /already exists/ });
    assert.equal((await sdk.getWallet({ walletId })).wallet.walletName, newName, "the failed rename changed nothing");
    await sdk.deleteWallets({ walletIds: [other.walletId], deleteWithoutExport: true });
  });

  test("an account whose curve does not fit its address format is an error, and nothing is created", async () => {
    const name = unique("bad-wallet");
    await assertRequestError(sdk.createWallet({
      walletName: name,
      accounts: [...DEFAULT_ETHEREUM_ACCOUNTS, { ...DEFAULT_ETHEREUM_ACCOUNTS[0], curve: "CURVE_ED25519" }],
    }), { code: 3, turnkeyErrorCode: "REQUEST_INVALID", message: /curve/ });
    assert.ok(!(await sdk.getWallets()).wallets.some((w) => w.walletName === name));

    const before = (await sdk.getWalletAccounts({ walletId, paginationOptions: { limit: "100" } })).accounts;
    await assertRequestError(sdk.createWalletAccounts({
      walletId,
      accounts: [defaultEthereumAccountAtIndex(50), { ...DEFAULT_SOLANA_ACCOUNTS[0], curve: "CURVE_SECP256K1" }],
    }), { code: 3, turnkeyErrorCode: "REQUEST_INVALID" });
    const after = (await sdk.getWalletAccounts({ walletId, paginationOptions: { limit: "100" } })).accounts;
    assert.deepEqual(after, before, "create_wallet_accounts is all or nothing");

    await assertRequestError(sdk.createWallet({
      walletName: unique("bad-path"),
      accounts: [{ ...DEFAULT_ETHEREUM_ACCOUNTS[0], path: "m/44'/60'/not-a-number" }],
    }), { code: 3, turnkeyErrorCode: "REQUEST_INVALID", message: /path/ });
  });

  test("unknown ids are TurnkeyRequestError 5 in both clients", async () => {
    const missing = crypto.randomUUID();
    await assertRequestError(sdk.getWallet({ walletId: missing }), { code: 5 });
    await assertRequestError(http.getWallet({ organizationId, walletId: missing }), { code: 5 });
    await assertRequestError(sdk.getWalletAccount({ walletId, address: "0x000000000000000000000000000000000000dEaD" }),
      { code: 5 });
    await assertRequestError(sdk.getWalletAccount({ walletId, path: "m/44'/60'/99'/0/0" }), { code: 5 });
    await assertRequestError(sdk.getWalletAccounts({ walletId: missing }), { code: 5 });
    await assertRequestError(sdk.createWalletAccounts({ walletId: missing, accounts: DEFAULT_ETHEREUM_ACCOUNTS }),
      { code: 5 });
    await assertRequestError(sdk.updateWallet({ walletId: missing, walletName: unique("x") }), { code: 5 });
    await assertRequestError(sdk.deleteWallets({ walletIds: [missing], deleteWithoutExport: true }), { code: 5 });
  });

  test("deleteWalletAccounts needs deleteWithoutExport for accounts never exported", async () => {
    const { accounts } = await sdk.getWalletAccounts({ walletId, paginationOptions: { limit: "100" } });
    const doomed = accounts.slice(-2);
    const doomedIds = doomed.map((a) => a.walletAccountId);

    await assertRequestError(sdk.deleteWalletAccounts({ walletAccountIds: doomedIds }),
      { code: 3, turnkeyErrorCode: "REQUEST_INVALID", message: /not been exported/ });
    assert.equal((await sdk.getWalletAccounts({ walletId, paginationOptions: { limit: "100" } })).accounts.length,
      accounts.length, "the refused delete removed nothing");

    const response = await http.deleteWalletAccounts({
      type: "ACTIVITY_TYPE_DELETE_WALLET_ACCOUNTS",
      timestampMs: now(),
      organizationId,
      parameters: { walletAccountIds: doomedIds, deleteWithoutExport: true },
    });
    const result = assertCompleted(response.activity, {
      type: "ACTIVITY_TYPE_DELETE_WALLET_ACCOUNTS", intentKey: "deleteWalletAccountsIntent",
      resultKey: "deleteWalletAccountsResult",
    });
    assert.deepEqual(result.walletAccountIds, doomedIds);

    const left = (await sdk.getWalletAccounts({ walletId, paginationOptions: { limit: "100" } })).accounts;
    assert.deepEqual(left, accounts.slice(0, -2));
    await assertRequestError(sdk.getWalletAccount({ walletId, address: doomed[0].address }), { code: 5 });
    await assertRequestError(sdk.deleteWalletAccounts({ walletAccountIds: doomedIds, deleteWithoutExport: true }),
      { code: 5 });
  });

  test("deleteWallets needs deleteWithoutExport; then the wallet and its accounts are gone", async () => {
    await assertRequestError(sdk.deleteWallets({ walletIds: [walletId] }),
      { code: 3, turnkeyErrorCode: "REQUEST_INVALID", message: /not been exported/ });
    assertWalletShape((await sdk.getWallet({ walletId })).wallet);

    const response = await sdk.deleteWallets({ walletIds: [walletId], deleteWithoutExport: true });
    const result = assertCompleted(response.activity, {
      type: "ACTIVITY_TYPE_DELETE_WALLETS", intentKey: "deleteWalletsIntent", resultKey: "deleteWalletsResult",
    });
    assert.deepEqual(result.walletIds, [walletId]);
    assert.deepEqual(response.walletIds, [walletId]);
    await assertRequestError(sdk.getWallet({ walletId }), { code: 5 });
    await assertRequestError(sdk.getWalletAccount({ walletId, address: addresses[0] }), { code: 5 });
    assert.ok(!(await sdk.getWallets()).wallets.some((w) => w.walletId === walletId));
  });
});
