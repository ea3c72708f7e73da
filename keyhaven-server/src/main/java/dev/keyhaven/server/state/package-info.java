/**
 * What activities read about their organization, kept between requests. Every activity that changes an
 * organization's state advances the organization's <em>state version</em> in its transaction, so lookups made at one
 * version stay exact for as long as the organization is at it. Activities that change nothing but their own record
 * (signing) run on these remembered lookups and check, when they commit, that the version has not moved; if it has,
 * the request starts again from fresh data. Correct with several servers on one database, because the check is in
 * the database, not in this process.
 */
package dev.keyhaven.server.state;
