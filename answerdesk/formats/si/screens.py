"""What each screen of Своя игра shows, read from the database on every load: the
projector (SI-2.4), every phone's public part and a player's own, the host desk's
current question, a round's board. Reads only: polled views must not write.
"""

from __future__ import annotations

from typing import Any

from ...core import clock
from ...core.sheet_parts import BuiltSheet
from ...extensions import db
from ...models import Event, Question, Team
from . import rules
from .game import answers_of, latest_question, lists_of, mark_of, stored_state
from .models import SiPlayer
from .protests import pending_protests, protestable, protests
from .scores import scores
from .sheet_parts import SiBuiltSheet, SiOwnProtest, SiPlayerPart, SiPlayerQuestion
from .themes import author_of, theme_name, top_question, value_of


def public(event: Event) -> dict[str, Any]:
    """What the projector and every phone show: the latest question, its lists once
    published, the protests being heard (SI-3) and the scores with places (SI-1.2)."""
    latest = latest_question(event)
    current = None
    if latest is not None:
        _, question, rnd = latest
        state = stored_state(question)
        status = "open" if state is None or state.closed_at is None else \
            "closed" if state.published_at is None else "published"
        theme = rules.theme_of(question.number)
        current = {"round": rnd.number, "question": question.number,
                   "theme": theme, "theme_name": theme_name(rnd, theme),
                   "value": value_of(rnd, question), "state": status,
                   "answer": question.shown_answer if status == "published" else None,
                   "lists": lists_of(rnd, question).lines() if status == "published" else []}
    pending = pending_protests(event)
    numbers = {q.id: (r.number, q.number) for r in event.rounds for q in r.questions
               if any(p.question_id == q.id for p in pending)}
    return {"current": current, "scores": [
        {"player": s.player, "points": s.points, "in_competition": s.in_competition,
         "removed": s.removed, "place": s.place} for s in scores(event)],
        "protests": [{"id": p.id, "player": p.team.name, "round": numbers[p.question_id][0],
                      "question": numbers[p.question_id][1], "state": p.state}
                     for p in pending]}


def decorate(sheet: BuiltSheet, event: Event, team: Team) -> SiBuiltSheet:
    """The phone sheet of Своя игра: a board's questions show only once the host has
    started them (no reading ahead), and the player's own part (``player_part``)."""
    started = {q.id for _, q, _ in clock.event_gates(event)}
    rounds = {r.number: r for r in event.rounds}
    for item in sheet["rounds"]:
        by_number = {q.number: q for q in rounds[item["number"]].questions}
        item["questions"] = [q for q in item["questions"]
                             if by_number[q["number"]].id in started]
    return {**sheet, "si": player_part(event, team)}


LISTED = (rules.Mark.CORRECT, rules.Mark.WRONG, rules.Mark.LATE)


def player_part(event: Event, team: Team) -> SiPlayerPart:
    """A player's own part of the phone sheet: where the game stands for them (a phone
    that dropped and came back finds its score, its answer and its protests here)."""
    latest = latest_question(event)
    mine = next((s for s in scores(event) if s.player == team.name), None)
    stored = db.session.scalar(db.select(SiPlayer).where(SiPlayer.team_id == team.id))
    own = [(p, q, r) for p, q, r in protests(event) if p.team_id == team.id]
    current: SiPlayerQuestion | None = None
    if latest is not None:
        _, question, rnd = latest
        row = next((a for a in answers_of(question) if a.team_id == team.id), None)
        current = {"round": rnd.number, "question": question.number,
                   "answer": row.text if row else None, "late": row.late if row else False,
                   "claim": row.claim if row else None,  # SI-2.4: pending, then settled
                   # SI-2.4: an answer in no list may be claimed ("ПРОПУСТИЛИ")
                   "listed": row is not None and mark_of(row) in LISTED,
                   "may_answer": rules.author_may_answer(
                       author_of(rnd, rules.theme_of(question.number)) == team.id,
                       question.number, top_question(rnd, question.number))}
    return {"player": team.name, "points": mine.points if mine else 0,
            "place": mine.place if mine else None,
            "in_competition": mine.in_competition if mine else True,
            "removed": mine.removed if mine else False,
            "warnings": stored.warnings if stored else 0, "current": current,
            "protestable": protestable(event, stored, [p for p, _, _ in own]),
            "protests": [SiOwnProtest(id=p.id, round=r.number, question=q.number,
                                      state=p.state, warned=p.warned) for p, q, r in own]}


def current_question(event: Event) -> dict[str, Any] | None:
    """The question started last as the host's desk shows it: its answers with the
    checker's proposal and the host's word, and its lists once published."""
    latest = latest_question(event)
    if latest is None:
        return None
    _, question, rnd = latest
    state = stored_state(question)
    status = "open" if state is None or state.closed_at is None else \
        "closed" if state.published_at is None else "published"
    theme = rules.theme_of(question.number)
    details = question.details or {}
    return {"round": rnd.number, "question": question.number, "text": question.text,
            "theme": theme, "theme_name": theme_name(rnd, theme),
            "answer": question.shown_answer, "value": value_of(rnd, question),
            "comment": details.get("comment"), "note": details.get("note"),
            "state": status, "lists": lists_of(rnd, question).lines(),
            "answers": [{"player": a.team.name, "text": a.text, "late": a.late,
                         "proposed": a.proposed, "decision": a.decision}
                        for a in answers_of(question)]}


def board(event: Event, number: int, started: set[int] | None = None) -> list[dict[str, Any]]:
    """Round ``number``'s board: each theme's name and its questions' values, played or
    not (desk, projector); ``started``: the ids of the questions started, if known."""
    rnd = next((r for r in event.rounds if r.number == number), None)
    if rnd is None:
        return []
    if started is None:
        started = {q.id for _, q, _ in clock.event_gates(event)}
    themes: dict[int, list[dict[str, Any]]] = {}
    for q in rnd.questions:
        themes.setdefault(rules.theme_of(q.number), []).append(
            {"number": q.number, "value": value_of(rnd, q), "played": q.id in started})
    return [{"number": t, "name": theme_name(rnd, t), "questions": qs}
            for t, qs in sorted(themes.items())]


def _media(question: Question, stage: str) -> list[dict[str, str]]:
    """The pack's stored pictures, sounds and videos of one stage (never a URL: the
    room's screen does not reach out to the internet)."""
    return [m for m in question.media or [] if m.get("file")
            and m.get("stage", "question") == stage and m.get("kind") in ("image", "audio",
                                                                          "video")]


def screen(event: Event) -> dict[str, Any]:
    """What the projector shows (SI-2.4): the question being played with its media; once
    published its answer, the answer's media and the lists; the board of its round."""
    latest = latest_question(event)
    if latest is None:
        first = min((r.number for r in event.rounds), default=1)
        return {"current": None, "round": first, "board": board(event, first)}
    _, question, rnd = latest
    state = stored_state(question)
    status = "open" if state is None or state.closed_at is None else \
        "closed" if state.published_at is None else "published"
    theme = rules.theme_of(question.number)
    published = status == "published"
    current = {"round": rnd.number, "question": question.number, "state": status,
               "theme_name": theme_name(rnd, theme), "theme": theme,
               "value": value_of(rnd, question), "text": question.text,
               "media": _media(question, "question"),
               "answer": question.shown_answer if published else None,
               "answer_media": _media(question, "answer") if published else [],
               "lists": lists_of(rnd, question).lines() if published else []}
    return {"current": current, "round": rnd.number, "board": board(event, rnd.number)}
