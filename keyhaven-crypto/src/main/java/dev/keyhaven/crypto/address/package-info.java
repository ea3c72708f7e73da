/**
 * Addresses of wallet accounts: one {@link dev.keyhaven.crypto.address.AddressEncoder} per family of Turnkey's
 * {@code ADDRESS_FORMAT_*} values behind the {@link dev.keyhaven.crypto.address.Addresses} facade, which also checks the
 * curve against the format (addresses.md §2.4) and normalises address strings clients send back.
 *
 * <p>The codecs the formats share are written here rather than pulled from chain SDKs (addresses.md §4): Base58 over
 * either alphabet and Base58Check, Bech32/Bech32m, CRC16-XMODEM, the BIP-341 Taproot tweak and TON cell hashing.
 * Hashes come from {@link dev.keyhaven.crypto.Digests}; curves from BouncyCastle. The three choices Turnkey leaves
 * undocumented (P2SH redeem script, P2WSH witness script, TON string form) are single constants so each can be flipped
 * in one line once checked against a real Turnkey organisation.
 */
package dev.keyhaven.crypto.address;
