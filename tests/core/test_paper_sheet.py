"""core/paper.py on the neutral format: a paper sheet is saved like a phone's while the
round is open (source "paper"), and typed past the lock with its own audit entry and
a check; what a game adds to a line comes from Format.paper_extras and its rules from
Format.check_save (BG-E1 itself: tests/formats/bg/test_bg_paper_entry.py)."""

from __future__ import annotations

from factories import PlainQuiz, close_round, make_event, make_team, open_round, registered

from answerdesk.core import paper
from answerdesk.errors import DeskError
from answerdesk.extensions import db
from answerdesk.models import Answer, AuditEntry, Verdict


def _texts(team) -> dict[int, tuple[str, str]]:
    rows = db.session.execute(db.select(Answer.question_id, Answer.text, Answer.source)
                              .where(Answer.team_id == team.id).order_by(Answer.question_id))
    return {qid: (text, source) for qid, text, source in rows}


def test_a_paper_sheet_in_an_open_round_is_a_save_marked_paper(app, plain):
    with app.app_context():
        event, _ = make_event()
        team, _ = make_team(event, "Owls")
        open_round(event, 1)
        result = paper.enter_sheet(event, team, 1, {1: {"text": "Answer 1.1"},
                                                    2: {"text": ""}})
        assert (result.changed, result.errors) == (1, {})
        assert list(_texts(team).values()) == [("Answer 1.1", "paper")]
        grid = paper.paper_grid(event, team, event.round(1))
        assert [(line.number, line.current, line.source, line.extra) for line in grid.lines] \
            == [(1, "Answer 1.1", "paper", {}), (2, "", "", {}), (3, "", "", {})]


def test_a_paper_sheet_past_the_lock_is_stored_audited_and_checked(app, plain):
    with app.app_context():
        event, _ = make_event()
        team, _ = make_team(event, "Owls")
        open_round(event, 1)
        close_round(event, 1)
        result = paper.enter_sheet(event, team, 1, {1: {"text": "Answer 1.1"},
                                                    2: {"text": "wrong"}})
        assert (result.changed, result.errors) == (2, {})
        assert [e.subject for e in db.session.scalars(
            db.select(AuditEntry).where(AuditEntry.action == "answer.paper")
            .order_by(AuditEntry.id))] == ["R1Q1 Owls", "R1Q2 Owls"]
        outcomes = db.session.execute(
            db.select(Answer.text, Verdict.outcome).join(Verdict)
            .order_by(Answer.question_id)).all()
        assert [tuple(row) for row in outcomes] == [("Answer 1.1", "correct"),
                                                    ("wrong", "wrong")]


def test_a_round_not_started_takes_no_paper_sheet(app, plain):
    with app.app_context():
        event, _ = make_event()
        team, _ = make_team(event, "Owls")
        try:
            paper.enter_sheet(event, team, 1, {1: {"text": "Answer 1.1"}})
        except DeskError as refused:
            assert refused.template == "Round %(round)s has not started yet"
        else:
            raise AssertionError("a draft round took a paper sheet")
        assert _texts(team) == {}


class _Marked(PlainQuiz):
    """A game that marks question 2 of every round, where its rule takes no answer."""

    name = "marked"

    def paper_extras(self, team, rnd):
        return {q.id: {"marked": True} for q in rnd.questions if q.number == 2}

    def check_save(self, team_id, target, text, fields, run):
        if target.extra.get("marked"):
            raise DeskError("Question %(question)s takes no answer.",
                            question=target.question_number)


def test_the_formats_paper_extras_reach_the_grid_and_its_rules(app):
    """Past the lock the desk builds the save's target from Format.paper_extras, so the
    game's check_save refuses the marked line there too; the other lines are kept."""
    with app.app_context(), registered(_Marked()):
        event, _ = make_event("marked")
        team, _ = make_team(event, "Owls")
        open_round(event, 1)
        close_round(event, 1)
        grid = paper.paper_grid(event, team, event.round(1))
        assert [line.extra for line in grid.lines] == [{}, {"marked": True}, {}]
        result = paper.enter_sheet(event, team, 1, {1: {"text": "Answer 1.1"},
                                                    2: {"text": "Answer 1.2"}})
        assert result.changed == 1
        assert result.errors == {2: "Question 2 takes no answer."}
        assert list(_texts(team).values()) == [("Answer 1.1", "paper")]
