/**
 * App proofs and boot proofs. Each server start creates an ephemeral P-256 key ({@code custody.EphemeralKey}) and a
 * boot proof: a statement of that key, the start time and the build version, signed by Keyhaven's long-term key
 * ({@code custody.ServerIdentity}, sealed under the KEK). Activities whose request sets {@code generateAppProofs} get
 * app proofs signed by the ephemeral key: the policy outcome of each decision and every address created.
 */
package dev.keyhaven.server.proof;
