/**
 * Signing raw payloads: sign_raw_payload and sign_raw_payloads. Resolves {@code signWith} (a wallet-account
 * address, a private-key address or a private-key id) to a key handle, turns the payload into what the curve signs
 * (a digest for ECDSA, the message for Ed25519) and lets {@code custody} sign.
 */
package dev.keyhaven.server.signing;
