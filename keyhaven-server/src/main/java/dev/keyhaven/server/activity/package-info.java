/**
 * The activity engine: the submit envelope, fingerprints and idempotency, votes, the authorization decision, one
 * handler per activity type, and the lifecycle that runs each activity in exactly one database transaction. It
 * knows no feature; features plug in through {@link dev.keyhaven.server.activity.ActivityHandler}.
 */
package dev.keyhaven.server.activity;
