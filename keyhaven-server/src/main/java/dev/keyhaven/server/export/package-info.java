/**
 * Export (turnkey-api.md §6.1): {@code export_wallet} (the mnemonic), {@code export_wallet_account} and
 * {@code export_private_key} (the raw key), each encrypted by custody to the client's target key and signed by the
 * bundle signer, and each marking what it exported. Builds on {@code wallet}, {@code privatekey} and {@code custody}.
 */
package dev.keyhaven.server.export;
