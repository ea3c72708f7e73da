// The signed-in key, kept in IndexedDB: a non-extractable CryptoKey is stored as a handle the browser keeps, so no
// script (this page's included) can read the private key back. Nothing goes to localStorage.

const DATABASE = 'keyhaven-console';
const STORE = 'session';
const ENTRY = 'current';

function open() {
  return new Promise((resolve, reject) => {
    const request = indexedDB.open(DATABASE, 1);
    request.onupgradeneeded = () => request.result.createObjectStore(STORE);
    request.onsuccess = () => resolve(request.result);
    request.onerror = () => reject(request.error);
  });
}

async function run(mode, action) {
  const db = await open();
  try {
    return await new Promise((resolve, reject) => {
      const tx = db.transaction(STORE, mode);
      const request = action(tx.objectStore(STORE));
      tx.oncomplete = () => resolve(request.result);
      tx.onerror = () => reject(tx.error);
      tx.onabort = () => reject(tx.error);
    });
  } finally {
    db.close();
  }
}

/** {privateKey: CryptoKey, publicKey, organizationId} of the signed-in operator, or undefined. */
export function load() {
  return run('readonly', (store) => store.get(ENTRY));
}

export function save(session) {
  return run('readwrite', (store) => store.put(session, ENTRY));
}

/** Signing out forgets the key: the entry is deleted. */
export function forget() {
  return run('readwrite', (store) => store.delete(ENTRY));
}
