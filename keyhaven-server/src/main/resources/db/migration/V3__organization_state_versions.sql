-- Every activity that changes an organization's state advances its version in the same transaction. Requests that
-- ran on lookups remembered at one version commit only while the organization is still at it (see package state).
ALTER TABLE organizations ADD COLUMN state_version BIGINT NOT NULL DEFAULT 0;
