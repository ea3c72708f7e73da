/**
 * The tamper-evident activity log: every change to an activity's record is appended, in the transaction that makes
 * it, to its organization's hash chain ({@link dev.keyhaven.client.AuditChain}); {@link AuditHeadSigner} signs the
 * chains' heads with Keyhaven's identity key now and then; {@link AuditVerification} checks the chains, the signed
 * heads, and that each activity and vote row still says what its last entry says; {@link AuditExport} writes an
 * organization's chain as JSON Lines for {@link dev.keyhaven.client.AuditLogVerifier}.
 */
package dev.keyhaven.server.audit;
