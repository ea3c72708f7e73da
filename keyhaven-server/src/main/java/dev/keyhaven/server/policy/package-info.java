/**
 * Authorization of activities. Today it applies the rules that hold before any policy exists: the root quorum may
 * do everything (with its threshold of approvals), users may manage their own credentials, and everything else is
 * denied. The policy language and engine arrive on top of these rules.
 */
package dev.keyhaven.server.policy;
