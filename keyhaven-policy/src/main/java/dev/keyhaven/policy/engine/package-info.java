/**
 * The policy engine's decision for one activity (turnkey-api.md §4, steps 3 and 5): which of an organization's
 * compiled policies apply, which are satisfied, and what that means. Pure computation over
 * {@link dev.keyhaven.policy.Environment}s the server builds; the root-quorum bypass, root-quorum-only activities and
 * the implicit rules (own credentials) stay with the server, which knows users and quorums.
 */
package dev.keyhaven.policy.engine;
