// @turnkey/core 2.8.1 signing a user up and in with an Ethereum wallet, unchanged: loginOrSignupWithWallet. The
// wallet is a minimal EIP-1193 provider over a viem account with a local private key (no network), announced to
// core the way browser wallets announce themselves (EIP-6963 "eip6963:announceProvider" in answer to
// "eip6963:requestProvider" on window). What core does with it:
// - buildWalletLoginRequest: a stamp_login request for a fresh session key (organizationId = the parent), stamped by
//   the wallet: personal_sign (EIP-191) of the body, the secp256k1 key recovered from the signature, X-Stamp
//   {publicKey, scheme: SIGNATURE_SCHEME_TK_API_SECP256K1_EIP191, signature (DER)}; not sent yet.
// - /v1/account with filterType PUBLIC_KEY (the wallet's compressed key) on the auth proxy;
// - no account: /v1/signup_v2 with the wallet's key as an API key (API_KEY_CURVE_SECP256K1, "wallet-auth:<key>"),
//   which the auth proxy configuration must allow ("wallet" in enabledProviders);
// - then the stamp_login request signed earlier: the server finds the wallet's key in the sub-organization and
//   opens a session there.
import "../lib/browser-globals.mjs";
import assert from "node:assert/strict";
import { describe, test } from "node:test";
import { AuthAction, Chain, TurnkeyClient } from "@turnkey/core";
import { generatePrivateKey, privateKeyToAccount } from "viem/accounts";
import { recoverPublicKey, hashMessage, verifyMessage } from "viem";
import { authProxyUrl, baseUrl, organizationId, rawPost, sdkClientFor, unique } from "../lib/keyhaven.mjs";

globalThis.location = new URL("https://app.keyhaven.test/");

// window's events (window is node's global object here, which is no EventTarget).
const windowEvents = new EventTarget();
globalThis.addEventListener = windowEvents.addEventListener.bind(windowEvents);
globalThis.removeEventListener = windowEvents.removeEventListener.bind(windowEvents);
globalThis.dispatchEvent = windowEvents.dispatchEvent.bind(windowEvents);

/** The wallet the page has installed: changed by each test. */
let installed;

windowEvents.addEventListener("eip6963:requestProvider", () => {
  windowEvents.dispatchEvent(new CustomEvent("eip6963:announceProvider", { detail: Object.freeze({
    info: { uuid: "8f4c1f3e-0000-4000-8000-000000000001", name: "Test Wallet", icon: "data:image/svg+xml,<svg/>",
      rdns: "test.keyhaven.wallet" },
    provider: installed.provider,
  }) }));
});

/** A wallet holding one local key: an EIP-1193 provider answering what core asks, and what it was asked to sign. */
function testWallet() {
  const account = privateKeyToAccount(generatePrivateKey());
  const signed = [];
  const provider = {
    request: async ({ method, params }) => {
      switch (method) {
        case "eth_accounts":
        case "eth_requestAccounts":
          return [account.address];
        case "eth_chainId":
          return "0x1";
        case "personal_sign": {
          const [message, address] = params;
          assert.equal(address, account.address, "core asks the connected account to sign");
          signed.push(message);
          return account.signMessage({ message });
        }
        default:
          throw Object.assign(new Error(`the test wallet does not do ${method}`), { code: 4200 });
      }
    },
  };
  return { account, provider, signed };
}

/** The compressed secp256k1 public key of a wallet, hex: what core puts in the stamp and registers. */
async function compressedKey(wallet) {
  const signature = await wallet.account.signMessage({ message: "key" });
  const uncompressed = (await recoverPublicKey({ hash: hashMessage("key"), signature })).slice(2);
  const y = BigInt(`0x${uncompressed.slice(66)}`);
  return `${y % 2n === 0n ? "02" : "03"}${uncompressed.slice(2, 66)}`;
}

/** A configuration of the root organization with sign-up on and the given wallet-kit methods. */
async function config(enabledProviders) {
  const response = await rawPost("/public/v1/submit/update_auth_proxy_config", {
    type: "ACTIVITY_TYPE_UPDATE_AUTH_PROXY_CONFIG", timestampMs: String(Date.now()), organizationId,
    parameters: { signupEnabled: true, emailEnabled: true, enabledProviders },
  });
  const body = await response.json();
  assert.equal(response.status, 200, JSON.stringify(body));
  return body.activity.result.updateAuthProxyConfigResult.configId;
}

/**
 * A core client of `configId` with native Ethereum wallets for sign-in, initialised on a fresh page (nothing stored
 * yet), and the announced wallet.
 */
async function walletClient(configId) {
  localStorage.clear();
  const client = new TurnkeyClient({ apiBaseUrl: baseUrl, authProxyUrl, authProxyConfigId: configId, organizationId,
    walletConfig: { features: { auth: true }, chains: { ethereum: { native: true } } } });
  await client.init();
  const providers = await client.fetchWalletProviders(Chain.Ethereum);
  const walletProvider = providers.find((p) => p.info.rdns === "test.keyhaven.wallet");
  assert.ok(walletProvider, `core discovered the test wallet: ${JSON.stringify(providers.map((p) => p.info))}`);
  assert.deepEqual(walletProvider.connectedAddresses, [installed.account.address]);
  return { client, walletProvider };
}

const ethereumAccount = { curve: "CURVE_SECP256K1", pathFormat: "PATH_FORMAT_BIP32", path: "m/44'/60'/0'/0/0",
  addressFormat: "ADDRESS_FORMAT_ETHEREUM" };

describe("@turnkey/core wallet sign-in through the auth proxy", () => {
  test("loginOrSignupWithWallet signs a new wallet up (signup_v2), then signs the same wallet in (stamp_login)",
    async () => {
      const configId = await config(["wallet"]);
      installed = testWallet();
      const walletKey = await compressedKey(installed);
      const walletName = unique("core-wallet");

      // Sign-up: no account has the wallet's key yet.
      const first = await walletClient(configId);
      const signedUp = await first.client.loginOrSignupWithWallet({ walletProvider: first.walletProvider,
        createSubOrgParams: { customWallet: { walletName, walletAccounts: [ethereumAccount] } } });
      assert.equal(signedUp.action, AuthAction.SIGNUP);
      assert.equal(signedUp.address, installed.account.address.toLowerCase(), "core answers the address in lower case");
      const session = await first.client.getSession();
      assert.equal(session.token, signedUp.sessionToken);
      assert.notEqual(session.organizationId, organizationId, "the session is in a new sub-organization");
      // What the wallet signed is the stamp_login request for the session's key, in the parent organization.
      const loginRequest = JSON.parse(installed.signed.at(-1));
      assert.equal(loginRequest.type, "ACTIVITY_TYPE_STAMP_LOGIN");
      assert.equal(loginRequest.organizationId, organizationId);
      assert.equal(loginRequest.parameters.publicKey, session.publicKey);

      const user = await first.client.fetchUser();
      assert.equal(user.userId, session.userId);
      const walletApiKey = user.apiKeys.find((k) => k.credential.publicKey === walletKey);
      assert.ok(walletApiKey, `the wallet's key is the user's: ${JSON.stringify(user.apiKeys)}`);
      assert.equal(walletApiKey.apiKeyName, `wallet-auth:${walletKey}`);
      assert.equal(walletApiKey.credential.type, "CREDENTIAL_TYPE_API_KEY_SECP256K1");
      // The sub-organization's wallet signs under the session.
      const wallets = await first.client.fetchWallets();
      const [account] = wallets.find((w) => w.walletName === walletName).accounts;
      const { r, s, v } = await first.client.signMessage({ walletAccount: account, message: "wallet sign-up",
        addEthereumPrefix: true });
      assert.equal(await verifyMessage({ address: account.address, message: "wallet sign-up",
        signature: `0x${r}${s}${(27 + parseInt(v, 16)).toString(16)}` }), true);
      await first.client.logout();

      // Sign-in: a fresh page, the same wallet. /v1/account finds its sub-organization; no second sign-up.
      const second = await walletClient(configId);
      assert.deepEqual(await second.client.httpClient.proxyGetAccount({ filterType: "PUBLIC_KEY",
        filterValue: walletKey }), { organizationId: session.organizationId });
      const signedIn = await second.client.loginOrSignupWithWallet({ walletProvider: second.walletProvider });
      assert.equal(signedIn.action, AuthAction.LOGIN);
      const again = await second.client.getSession();
      assert.equal(again.organizationId, session.organizationId);
      assert.equal(again.userId, session.userId);
      assert.notEqual(again.publicKey, session.publicKey, "a new session key");
      const listed = await second.client.fetchWallets();
      assert.equal(listed.find((w) => w.walletName === walletName).accounts[0].address, account.address);
      // The parent sees one sub-organization for the wallet's user.
      const { user: stored } = await sdkClientFor(undefined, session.organizationId)
        .getUser({ userId: session.userId });
      assert.equal(stored.apiKeys.filter((k) => k.credential.publicKey === walletKey).length, 1);
      await second.client.logout();
    });

  test("a configuration without wallet sign-up refuses the wallet's key, naming apiKeys[0]", async () => {
    const configId = await config([]);
    installed = testWallet();
    const { client, walletProvider } = await walletClient(configId);
    await assert.rejects(client.loginOrSignupWithWallet({ walletProvider }), (error) => {
      assert.equal(error.name, "TurnkeyError");
      assert.match(String(error.cause?.message ?? error.message), /apiKeys\[0\]/);
      return true;
    });
    assert.equal(await client.getSession(), undefined, "no session");
  });
});
