"""The optimistic save's guard per format (issue 32): core's answerdesk_save_guard
names no game (models.SAVE_GUARD); BG-J2's copy joker is re-checked by the BG
format's own answerdesk_bg_save_guard (formats/bg/models.py; nothing on SQLite)

Revision ID: 6a1d3c5e7b92
Revises: a31b7c5d2e90
Create Date: 2026-12-07 02:40:00

"""
from alembic import op

revision = "6a1d3c5e7b92"
down_revision = "a31b7c5d2e90"
branch_labels = None
depends_on = None

OLD_SIGNATURE = ("answerdesk_save_guard(integer, integer, integer, integer, text, text, text, "
                 "text, timestamp)")
NEW_SIGNATURE = ("answerdesk_save_guard(integer, integer, integer, text, text, text, text, "
                 "timestamp)")

SAVE_GUARD = """
CREATE OR REPLACE FUNCTION answerdesk_save_guard(
    p_event integer, p_round integer, p_question integer, p_kind text,
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
          AND g.locks_at IS NOT DISTINCT FROM p_locks_at);
END
$$
"""

BG_SAVE_GUARD = """
CREATE OR REPLACE FUNCTION answerdesk_bg_save_guard(
    p_event integer, p_round integer, p_question integer, p_team integer)
RETURNS boolean LANGUAGE plpgsql VOLATILE AS $$
BEGIN
    PERFORM pg_advisory_xact_lock_shared(p_event, p_round);
    RETURN NOT EXISTS (SELECT 1 FROM joker j WHERE j.team_id = p_team
                       AND j.question_id = p_question AND j.kind = 'copy');
END
$$
"""

OLD_SAVE_GUARD = """
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
        op.execute(f"DROP FUNCTION IF EXISTS {OLD_SIGNATURE}")
        op.execute(SAVE_GUARD)
        op.execute(BG_SAVE_GUARD)


def downgrade():
    if op.get_bind().dialect.name == "postgresql":
        op.execute("DROP FUNCTION IF EXISTS answerdesk_bg_save_guard(integer, integer, integer, "
                   "integer)")
        op.execute(f"DROP FUNCTION IF EXISTS {NEW_SIGNATURE}")
        op.execute(OLD_SAVE_GUARD)
