/**
 * HD wallets and their accounts: create_wallet, create_wallet_accounts, update_wallet, delete_wallets,
 * delete_wallet_accounts and the wallet queries. Keys are derived and sealed by {@code custody}; this package keeps
 * only public keys, addresses and sealed blobs.
 */
package dev.keyhaven.server.wallet;
