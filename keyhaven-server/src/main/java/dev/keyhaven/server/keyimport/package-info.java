/**
 * Import (turnkey-api.md §6.2): {@code init_import_wallet} / {@code init_import_private_key} issue a signed,
 * single-use, expiring target key for one user; {@code import_wallet} / {@code import_private_key} open the client's
 * bundle with it in custody and store the wallet or key marked {@code imported}. Builds on {@code wallet},
 * {@code privatekey}, {@code user} and {@code custody}.
 */
package dev.keyhaven.server.keyimport;
