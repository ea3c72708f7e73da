// @turnkey/react-wallet-kit 2.4.3, unchanged, mounted in jsdom against the running server: <TurnkeyProvider> with
// an auth proxy config id fetches the wallet kit config and client params (POST /v1/wallet_kit_config and
// /v1/wallet_kit_client_params), builds its master config from them, initialises @turnkey/core's TurnkeyClient,
// looks for stored sessions and only then sets clientState to ClientState.Ready (dist/providers/client/Provider.mjs:
// the effect that runs once client and masterConfig exist). A failed fetch sets ClientState.Error instead, so
// reaching Ready proves the kit accepted what the server answered; the test also reads back what the kit derived
// from enabledProviders (config.ui.authModal.methods).
//
// The browser the kit needs, and where it comes from here:
// - window, document, navigator, localStorage, HTMLElement and friends: jsdom, at an https page address (the kit's
//   modal root checks the DOM for its stylesheet; core keeps sessions in window.localStorage).
// - indexedDB (core's IndexedDbStamper keeps its non-extractable key pair there): fake-indexeddb.
// - crypto.subtle (jsdom's window.crypto has getRandomValues only): node's webcrypto.
// - fetch: node's own (jsdom has none).
// - matchMedia (the kit's theme and mobile checks): a stand-in that matches no query (a desktop in light mode).
import assert from "node:assert/strict";
import { describe, test } from "node:test";
import { webcrypto } from "node:crypto";
import { createRequire } from "node:module";
import { JSDOM } from "jsdom";
import { indexedDB, IDBKeyRange } from "fake-indexeddb";
import { authProxyConfigId, authProxyUrl, baseUrl, newKeyPair, organizationId } from "../lib/keyhaven.mjs";

const dom = new JSDOM("<!doctype html><html><head></head><body><div id=\"root\"></div></body></html>", {
  url: "https://app.keyhaven.test/",
  pretendToBeVisual: true,
});
const { window } = dom;
Object.defineProperty(window, "crypto", { value: webcrypto, configurable: true });
window.indexedDB = indexedDB;
window.IDBKeyRange = IDBKeyRange;
window.fetch = globalThis.fetch;
window.matchMedia = (query) => ({
  matches: false, media: query, onchange: null,
  addListener() {}, removeListener() {}, addEventListener() {}, removeEventListener() {}, dispatchEvent: () => false,
});
// The globals a browser module sees: jsdom's, except the ones node already has that jsdom lacks or that are better.
for (const name of Object.getOwnPropertyNames(window)) {
  if (!(name in globalThis)) {
    globalThis[name] = window[name];
  }
}
// Events too: wallet-standard (core's Solana wallet discovery) dispatches a subclass of the global Event on window,
// and jsdom's dispatchEvent accepts only jsdom's own.
for (const name of ["window", "document", "navigator", "localStorage", "sessionStorage", "location", "matchMedia",
  "indexedDB", "IDBKeyRange", "Event", "CustomEvent", "EventTarget"]) {
  Object.defineProperty(globalThis, name, { value: window[name], configurable: true, writable: true });
}
globalThis.self = window;

// Loaded only now: core decides at load time whether it runs in a browser. The kit is loaded through its CommonJS
// build: its ES module build (dist/index.mjs) imports '@turnkey/core/dist/__types__/enums' without a file extension,
// which bundlers resolve and node's ES module loader refuses (ERR_MODULE_NOT_FOUND). react and react-dom come
// through the same require, so the kit and this test share one React.
const require = createRequire(import.meta.url);
const React = require("react");
const { createRoot } = require("react-dom/client");
const { AuthState, ClientState, TurnkeyProvider, useTurnkey } = require("@turnkey/react-wallet-kit");

/** Renders the kit and resolves with its context once clientState leaves loading (or rejects after `ms`). */
function mountKit(config, ms = 30_000) {
  return new Promise((resolve, reject) => {
    const errors = [];
    const timer = setTimeout(() => reject(new Error(`the kit did not reach Ready in ${ms} ms; onError: `
      + errors.map((e) => e?.stack ?? String(e)).join("\n"))), ms);
    function Probe() {
      const kit = useTurnkey();
      React.useEffect(() => {
        if (kit.clientState === ClientState.Ready || kit.clientState === ClientState.Error) {
          clearTimeout(timer);
          resolve({ kit, errors });
        }
      }, [kit.clientState]);
      return null;
    }
    const root = createRoot(document.getElementById("root"));
    root.render(React.createElement(TurnkeyProvider, {
      config, callbacks: { onError: (error) => errors.push(error) },
    }, React.createElement(Probe)));
  });
}

describe("@turnkey/react-wallet-kit in jsdom", () => {
  test("TurnkeyProvider with authProxyConfigId reaches ClientState.Ready with the server's wallet kit config",
    async () => {
      const { kit, errors } = await mountKit({ authProxyConfigId, authProxyUrl, apiBaseUrl: baseUrl, organizationId });
      assert.deepEqual(errors.map(String), [], "onError was never called");
      assert.equal(kit.clientState, ClientState.Ready);
      assert.equal(kit.authState, AuthState.Unauthenticated);
      assert.equal(kit.config.organizationId, organizationId);
      assert.equal(kit.config.authProxyConfigId, authProxyConfigId);
      // The server's default configuration enables email only: the kit's auth modal offers that and nothing else.
      const { methods, methodOrder } = kit.config.ui.authModal;
      assert.equal(methods.emailOtpAuthEnabled, true);
      assert.equal(methods.passkeyAuthEnabled, false);
      assert.equal(methods.googleOauthEnabled, false);
      assert.deepEqual(methodOrder, ["email"]);
      // Settings the kit takes only from the auth proxy (they override the provider's own).
      assert.equal(kit.config.auth.otpLength, "6");
      assert.equal(Number(kit.config.auth.sessionExpirationSeconds) > 0, true);
      assert.equal(kit.session, undefined, "no one is signed in");
      // The kit's own TurnkeyClient talks to the auth proxy: /v1/account knows no account for a fresh key.
      assert.deepEqual(await kit.httpClient.proxyGetAccount({ filterType: "PUBLIC_KEY",
        filterValue: newKeyPair().publicKey }), {});
    });
});
