package dev.keyhaven.server.activity;

/** What executing an activity changes besides its own record; it decides how the activity runs. */
public enum ActivityEffect {
    /**
     * Changes its organization's state (users, credentials, root quorum, keys, …): runs in a write transaction that
     * first advances the organization's state version, which also serialises such activities per organization.
     */
    CHANGES_ORGANIZATION,
    /** Adds a new organization and its contents, and nothing of its own organization: runs in a write transaction. */
    CREATES_ORGANIZATION,
    /**
     * Changes nothing but its own record (signing): runs on remembered lookups outside any transaction, and only
     * writing its record takes one, which checks that the organization's state version has not moved.
     */
    NONE
}
