package dev.keyhaven.server.audit;

/** What a change to an activity's record was. */
public enum AuditKind {
    /** The activity was recorded: its content is every column of the new row. */
    ACTIVITY_CREATED,
    /** Its status and result (and failure) changed: the content holds those columns and {@code updated_at}. */
    ACTIVITY_OUTCOME,
    /** Its app proofs were stored: the content holds {@code app_proofs}. */
    APP_PROOFS,
    /** A vote was cast on it: the content is every column of the vote's row. */
    VOTE
}
