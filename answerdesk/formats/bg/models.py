"""Tables of the Bulgarian pub quiz: jokers, the R5 wildcard, the shoot-out, the league.

They hang off core's event, team and question rows; core never reads them (what
the BG rules add to a save, a widget or a paper sheet goes through Format's hooks,
formats/bg/__init__.py).
"""

from __future__ import annotations

from sqlalchemy import DDL, event

from ...extensions import db

# BG-J2 for the optimistic save on PostgreSQL (core/answers.py, Format.save_guard): the
# round's queue lock, taken here too since PostgreSQL does not promise in which order
# the write's conditions run, THEN no copy joker of the team on the question, read in
# a snapshot taken after the lock (VOLATILE, as core's answerdesk_save_guard). The
# migration 6a1d3c5e7b92_save_guard_per_format creates the same function.
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
event.listen(db.metadata, "after_create", DDL(BG_SAVE_GUARD).execute_if(dialect="postgresql"))
