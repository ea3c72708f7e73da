/**
 * Organizations: the root organization and its sub-organizations, their root quorums, and the queries that
 * describe an organization as a whole (whoami, get_organization). It builds on the user feature to create root
 * users.
 */
package dev.keyhaven.server.organization;
