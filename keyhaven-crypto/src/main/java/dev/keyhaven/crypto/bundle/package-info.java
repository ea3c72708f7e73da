/**
 * Turnkey's encrypted bundles (turnkey-api.md §6): HPKE base mode with DHKEM(P-256, HKDF-SHA256), HKDF-SHA256 and
 * AES-256-GCM, {@code info = "turnkey_hpke"} and the additional data {@code enc ‖ pkR} (both uncompressed), and the
 * Base58Check credential bundle. Pure computation; the signed JSON envelope around export and import bundles is the
 * server's.
 */
package dev.keyhaven.crypto.bundle;
