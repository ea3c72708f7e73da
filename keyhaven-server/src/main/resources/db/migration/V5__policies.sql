-- Policies (turnkey-api.md §4). Expressions are stored as written; the server compiles them when it reads them.
CREATE TABLE policies (
    id              TEXT PRIMARY KEY,
    organization_id TEXT NOT NULL REFERENCES organizations (id),
    name            TEXT NOT NULL,
    effect          TEXT NOT NULL,
    condition_expr  TEXT NOT NULL,
    consensus_expr  TEXT NOT NULL,
    time_expr       TEXT,
    notes           TEXT NOT NULL,
    created_at      BIGINT NOT NULL,
    updated_at      BIGINT NOT NULL
);
CREATE UNIQUE INDEX policies_name ON policies (organization_id, name);
CREATE INDEX policies_by_organization ON policies (organization_id, created_at, id);

-- Each vote keeps the policy evaluation its arrival caused (get_policy_evaluations): an id and the outcomes as JSON.
-- A vote recorded before this migration has none.
ALTER TABLE votes ADD COLUMN evaluation_id TEXT;
ALTER TABLE votes ADD COLUMN evaluation TEXT;
