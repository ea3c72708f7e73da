// The browser APIs @turnkey/core 2.8.1 needs, for node. Import this module first, before anything that imports
// @turnkey/core: the package decides at load time (dist/__polyfills__/window.mjs) whether `window` exists, and
// keeps a stand-in localStorage that stores nothing when it does not.
//
// What core uses, and what provides it here:
// - isWeb() (dist/utils.mjs) is `typeof window !== "undefined" && typeof document !== "undefined"`; without it
//   init() throws "Unsupported environment for storage manager." (dist/__storage__/base.mjs). `window` is the
//   global object, as in a browser. `document` is only tested for existence on the paths the tests drive, so it is
//   an object that throws if anything reads from it: a test then fails naming what it read, instead of running on
//   a made-up DOM.
// - WebStorageManager keeps sessions in window.localStorage: a small in-memory Storage below (node 20 has none).
// - IndexedDbStamper keeps the non-extractable WebCrypto key pairs in indexedDB: fake-indexeddb, whose values go
//   through node's structuredClone, which clones CryptoKey objects as a browser's IndexedDB does.
// - crypto.subtle (P-256 ECDSA), fetch, atob, TextEncoder: node's own.
// Every test file runs in a process of its own, so these globals reach no other file.
import "fake-indexeddb/auto";

/** The Web Storage interface (https://html.spec.whatwg.org/multipage/webstorage.html) over a Map. */
class MemoryStorage {
  #items = new Map();

  get length() {
    return this.#items.size;
  }

  key(index) {
    return [...this.#items.keys()][index] ?? null;
  }

  getItem(key) {
    const value = this.#items.get(String(key));
    return value === undefined ? null : value;
  }

  setItem(key, value) {
    this.#items.set(String(key), String(value));
  }

  removeItem(key) {
    this.#items.delete(String(key));
  }

  clear() {
    this.#items.clear();
  }
}

const noDom = new Proxy({}, {
  get(_, member) {
    throw new Error(`document.${String(member)} was read, and this node environment has no DOM`);
  },
});

if (typeof globalThis.window !== "undefined" || typeof globalThis.document !== "undefined") {
  throw new Error("browser-globals.mjs expects plain node: window or document is already defined");
}
globalThis.window = globalThis;
globalThis.document = noDom;
globalThis.localStorage = new MemoryStorage();
