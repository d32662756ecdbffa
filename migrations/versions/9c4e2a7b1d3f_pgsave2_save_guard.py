"""The phone's optimistic save on PostgreSQL (issue 18, BG-E2): answerdesk_save_guard,
the round's queue lock and then what the save decided on, read in a snapshot taken
after the lock (models.SAVE_GUARD; nothing on SQLite)

Revision ID: 9c4e2a7b1d3f
Revises: 4e7b9c1d2a35
Create Date: 2026-12-02 05:20:00

"""
from alembic import op

revision = "9c4e2a7b1d3f"
down_revision = "4e7b9c1d2a35"
branch_labels = None
depends_on = None

SAVE_GUARD = """
CREATE OR REPLACE FUNCTION answerdesk_save_guard(
    p_event integer, p_round integer, p_question integer, p_team integer, p_kind text,
    p_round_mode text, p_question_mode text, p_gate_state text, p_locks_at timestamp)
RETURNS boolean LANGUAGE plpgsql VOLATILE AS $$
BEGIN
    PERFORM pg_advisory_xact_lock_shared(p_event, p_round);
    RETURN EXISTS (
        SELECT 1 FROM round r
        JOIN question q ON q.round_id = r.id
        LEFT JOIN question_gate g ON g.question_id = q.id
        WHERE r.event_id = p_event AND r.number = p_round AND q.id = p_question
          AND r.state = 'open' AND r.kind = p_kind AND r.check_mode = p_round_mode
          AND q.check_mode IS NOT DISTINCT FROM p_question_mode
          AND g.state IS NOT DISTINCT FROM p_gate_state
          AND g.locks_at IS NOT DISTINCT FROM p_locks_at
          AND NOT EXISTS (SELECT 1 FROM joker j WHERE j.team_id = p_team
                          AND j.question_id = q.id AND j.kind = 'copy'));
END
$$
"""


def upgrade():
    if op.get_bind().dialect.name == "postgresql":
        op.execute(SAVE_GUARD)


def downgrade():
    if op.get_bind().dialect.name == "postgresql":
        op.execute("DROP FUNCTION IF EXISTS answerdesk_save_guard(integer, integer, integer, "
                   "integer, text, text, text, text, timestamp)")
