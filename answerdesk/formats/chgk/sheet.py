"""A ЧГК team's phone sheet: the game's started questions, each with its clock."""

from __future__ import annotations

from typing import cast

from ...core.clock import clock_json
from ...core.sheet_parts import BuiltSheet
from ...extensions import db
from ...models import Answer, Event, Question, QuestionGate, Team, Verdict, utcnow
from .programme import SEQUENTIAL
from .sheet_parts import ChgkBuiltSheet, ChgkSheetQuestion


def decorate(sheet: BuiltSheet, event: Event, team: Team) -> BuiltSheet:
    """CHGK-1.1: a game shows only the questions the host started, each with the clock
    the phone counts down; the host reads the question, the phone holds the answer
    card; a question's answer and verdict show once revealed. No BG jokers."""
    rounds = {r.number: r for r in event.rounds}
    now = utcnow()
    chgk = cast(ChgkBuiltSheet, sheet)
    for item in chgk["rounds"]:
        rnd = rounds[item["number"]]
        if rnd.kind != SEQUENTIAL:
            continue
        gates = {g.question_id: g for g in db.session.scalars(
            db.select(QuestionGate).join(Question, QuestionGate.question_id == Question.id)
            .where(Question.round_id == rnd.id))}
        by_number = {q.number: q for q in rnd.questions}
        kept: list[ChgkSheetQuestion] = []
        for q in item["questions"]:
            question = by_number[q["number"]]
            gate = gates.get(question.id)
            if gate is None:
                continue
            q["clock"] = clock = clock_json(gate, rnd.number, question.number, now)
            q["state"] = clock["state"]
            q["text"] = ""
            q["widget"] = {"kind": "text"}
            if gate.state == "revealed":
                q["correct_answer"] = room_answer(question)
                q["verdict"] = _verdict(team, question)
            kept.append(q)
        item["questions"] = kept
    chgk["play"] = {}
    return sheet


def _verdict(team: Team, question: Question) -> str | None:
    verdict = db.session.scalar(
        db.select(Verdict).join(Answer, Verdict.answer_id == Answer.id)
        .where(Answer.team_id == team.id, Answer.question_id == question.id))
    return verdict.final if verdict else None


def room_answer(question: Question) -> str:
    """The answer as the room is shown it (the desk and the projector): the pack's
    "Ответ:" as written, e.g. a duplet's numbered parts, else the key (CHGK-1.3)."""
    return (question.details or {}).get("answer") or question.shown_answer
