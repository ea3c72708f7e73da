/**
 * Standalone private keys (not derived from a wallet) and private-key tags: create_private_keys,
 * delete_private_keys, the tag activities and the queries. Keys are generated and sealed by {@code custody}.
 */
package dev.keyhaven.server.privatekey;
