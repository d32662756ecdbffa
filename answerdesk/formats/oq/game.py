"""An OpenQuiz game over the database (OQ-2, OQ-4, OQ-5, OQ-6).

The team with the turn picks a question on the board; the host starts it (core's
question gate) and the buzzer is armed; the winner of the fair order answers, the
host accepts (+value, ×2, ×0.5) or rejects / times out (−value, the question
returns to the others, the team is out); the turn passes to the team that was
right. The final: bans in turn, sealed bets, one question answered in writing,
judged one by one. Services flush; the views commit; refusals change nothing.
"""

from __future__ import annotations

from typing import Any

from sqlalchemy.exc import IntegrityError

from ...core import audit, rounds
from ...core.formats import Standing
from ...core.teams import team_named
from ...errors import Conflict, DeskError, NotFound
from ...extensions import db
from ...models import Event, Question, QuestionGate, Round, Team, utcnow
from ..buzzer import presses
from . import rules, timers, types
from .models import OqBet, OqGame, OqPlay, OqScore
from .programme import FINAL


class NotYourTurn(Conflict):
    code = "not_your_turn"


class BetRefused(Conflict):
    code = "bet_refused"


def game(event: Event) -> OqGame:
    row = db.session.scalar(db.select(OqGame).where(OqGame.event_id == event.id))
    if row is None:
        row = OqGame(event_id=event.id, bans=[])
        db.session.add(row)
    return row


def kind_of(question: Question) -> types.QuestionType:
    """OQ-3: the question's type, as its pack or the host set it."""
    details = question.details or {}
    return types.type_of(details.get("variant"), details.get("options"))


def value_of(rnd: Round, question: Question) -> int:
    """The pack's value, else the round's base × the question's place in its theme."""
    return question.points or rnd.points * ((question.number - 1) % 5 + 1)


def score(event: Event, team: Team) -> int:
    return db.session.scalar(db.select(db.func.coalesce(db.func.sum(OqScore.points), 0)).where(
        OqScore.event_id == event.id, OqScore.team_id == team.id)) or 0


def _stored(event: Event) -> OqGame | None:
    """The game's row as stored (a read: polled views must not write)."""
    return db.session.scalar(db.select(OqGame).where(OqGame.event_id == event.id))


def turn(event: Event) -> Team | None:
    """OQ-2: the team that picks next: the last one right, at first the first to join."""
    row = _stored(event)
    team = next((t for t in event.teams if row and t.id == row.turn_team_id), None)
    return team or (event.teams[0] if event.teams else None)


def pick(event: Event, team: Team, round_number: int, question_number: int) -> Question:
    """OQ-2: the team with the turn picks theme and value; the host then starts it."""
    rnd, question = rounds.question_of(event, round_number, question_number)
    holder = turn(event)
    if holder is None or holder.id != team.id:
        raise NotYourTurn("It is not your team's turn to pick.")
    if rnd.kind == FINAL or _play(question) is not None or _gate(question) is not None:
        raise Conflict("Question %(question)s was already played.", question=question_number)
    stored = _stored(event)
    earlier = db.session.get(Question, stored.picked_question_id) \
        if stored is not None and stored.picked_question_id is not None else None
    begun = _play(earlier) if earlier is not None and _gate(earlier) is None else None
    if begun is not None and not begun.done:  # OQ-3: an auction or a hand-over under way
        raise Conflict("Question %(question)s is still being settled: play it first.",
                       question=earlier.number)  # type: ignore[union-attr]
    game(event).picked_question_id = question.id
    audit.record(event, f"team:{team.name}", "oq.pick", f"R{round_number}Q{question_number}")
    db.session.flush()
    return question


def _gate(question: Question) -> QuestionGate | None:
    return db.session.scalar(db.select(QuestionGate).where(
        QuestionGate.question_id == question.id))


def started_numbers(event: Event) -> set[tuple[int, int]]:
    """(round, question) of every board question the host has started: the only ones
    whose text a phone may see (the final's are never among them)."""
    return {(r, q) for r, q in db.session.execute(
        db.select(Round.number, Question.number)
        .join(Question, Question.round_id == Round.id)
        .join(QuestionGate, QuestionGate.question_id == Question.id)
        .where(Round.event_id == event.id, Round.kind != FINAL))}


def _play(question: Question) -> OqPlay | None:
    return db.session.scalar(db.select(OqPlay).where(OqPlay.question_id == question.id))


def _reading_until(rnd: Round, play: OqPlay) -> int | None:
    """OQ-4 reading mode, frozen by a pause like every timer (OQ-8): the reading's end,
    later by every pause since the attempt was armed."""
    if play.reading_until_ms is None:
        return None
    pauses = db.session.scalar(db.select(OqGame.pauses).where(OqGame.event_id == rnd.event_id))
    return timers.deadline_ms(play.armed_ms, play.reading_until_ms - play.armed_ms,
                              timers.as_pauses(pauses), presses.now_ms())


def _armed_play(question: Question, rnd: Round, play: OqPlay) -> presses.Arming:
    return presses.Arming(question.id, rnd.number, question.number, play.armed_ms,
                          play.attempt, _reading_until(rnd, play), frozenset(play.out or ()))


def _arming_of(gate: QuestionGate, question: Question, rnd: Round) -> presses.Arming | None:
    play = _play(question)
    if play is None:
        return presses.Arming(question.id, rnd.number, question.number,
                              presses.to_ms(gate.opened_at))
    if play.done:
        return None
    return _armed_play(question, rnd, play)


def arming(event: Event, round_number: int, question_number: int) -> presses.Arming | None:
    """OQ-4: the buzzer of a started question, for its current attempt; None when the
    question is not started, is over, or is the final (answered in writing)."""
    try:
        rnd, question = rounds.question_of(event, round_number, question_number)
    except NotFound:
        return None
    if rnd.kind == FINAL or not kind_of(question).buzzer:
        return None
    gate = _gate(question)
    if gate is None or gate.state != "open":
        return None
    return _arming_of(gate, question, rnd)


def latest_arming(event: Event) -> presses.Arming | None:
    """The buzzer of the question started last (for the state everyone polls)."""
    row = db.session.execute(
        db.select(QuestionGate, Question, Round)
        .join(Question, QuestionGate.question_id == Question.id)
        .join(Round, Question.round_id == Round.id)
        .where(Round.event_id == event.id, Round.kind != FINAL)
        .order_by(QuestionGate.id.desc()).limit(1)).first()
    if row is None:
        return None
    gate, question, rnd = row
    if not kind_of(question).buzzer:
        return None
    play = _play(question)
    if play is None:
        return presses.Arming(question.id, rnd.number, question.number,
                              presses.to_ms(gate.opened_at))
    return _armed_play(question, rnd, play)


def reading(event: Event, round_number: int, question_number: int, seconds: Any,
            actor: str = "host") -> presses.Arming:
    """OQ-4 reading mode: presses in the first ``seconds`` of the attempt count 2 s later."""
    if isinstance(seconds, bool) or not isinstance(seconds, int) or not 0 <= seconds <= 600:
        raise DeskError("seconds must be a whole number from 0 to 600.")
    rnd, question = rounds.question_of(event, round_number, question_number)
    armed = arming(event, round_number, question_number)
    if armed is None:
        raise Conflict("Question %(question)s is not being played.", question=question_number)
    play = _play(question)
    if play is None:
        play = OqPlay(question_id=question.id, attempt=armed.attempt, armed_ms=armed.armed_ms,
                      out=[], done=False)
        db.session.add(play)
    play.reading_until_ms = armed.armed_ms + seconds * 1000
    audit.record(event, actor, "oq.reading", f"R{round_number}Q{question_number}",
                 after={"seconds": seconds})
    db.session.flush()
    gate = _gate(question)
    now_armed = _arming_of(gate, question, rnd) if gate is not None else None
    assert now_armed is not None  # armed above: its gate and its play exist
    return now_armed


def call(outcome: Any, factor: Any) -> tuple[rules.Outcome, float]:
    """The host's call as sent: accept (×1, ×2, ×0.5), reject or timeout."""
    try:
        outcome = rules.Outcome(outcome)
    except ValueError:
        raise DeskError("outcome must be accept, reject or timeout.") from None
    if isinstance(factor, bool) or factor not in rules.FACTORS:
        raise DeskError("factor must be 1, 2 or 0.5.")
    if outcome != rules.Outcome.ACCEPT and factor != 1.0:
        raise DeskError("×2 and ×0.5 apply to an accepted answer only.")
    return outcome, float(factor)


def judge(event: Event, round_number: int, question_number: int, outcome: Any,
          factor: Any = 1.0, actor: str = "host", now_ms: int | None = None) -> dict[str, Any]:
    """OQ-4/OQ-5: the host's call on the buzzer winner's answer."""
    outcome, factor = call(outcome, factor)
    now_ms = presses.now_ms() if now_ms is None else now_ms
    rnd, question = rounds.question_of(event, round_number, question_number)
    kind_of(question).check_call(outcome)
    armed = arming(event, round_number, question_number)
    if armed is None:
        raise Conflict("Question %(question)s is not being played.", question=question_number)
    winner_id = presses.winner(armed, now_ms)
    if winner_id is None:
        raise Conflict("Nobody has won the buzzer yet.")
    team = next(t for t in event.teams if t.id == winner_id)
    return record_call(event, rnd, question, team, outcome, factor, now_ms, actor)


def play_row(question: Question, now_ms: int) -> OqPlay:
    """The question's play, locked and read afresh, so concurrent moves (two stakes, a
    choice and the host's close) take turns; created on the first move."""
    locked = db.select(OqPlay).where(OqPlay.question_id == question.id).with_for_update() \
        .execution_options(populate_existing=True)
    play = db.session.scalar(locked)
    if play is None:
        gate = _gate(question)  # the buzzer counts from the question's start (OQ-4)
        armed_ms = presses.to_ms(gate.opened_at) if gate is not None else now_ms
        try:
            with db.session.begin_nested():
                play = OqPlay(question_id=question.id, attempt=1, armed_ms=armed_ms, out=[],
                              done=False)
                db.session.add(play)
        except IntegrityError:  # another request created it first: wait for it
            play = db.session.scalar(locked)
    return play


def record_call(event: Event, rnd: Round, question: Question, team: Team,
                outcome: rules.Outcome, factor: float, now_ms: int, actor: str) -> dict[str, Any]:
    """Score a call on the answering team (OQ-5, by the question's type, OQ-3); the
    question returns to the others or is over, and the turn passes to a team right."""
    kind = kind_of(question)
    play = play_row(question, now_ms)
    gained = kind.points(outcome, kind.worth(value_of(rnd, question), play.stake), factor)
    db.session.add(OqScore(event_id=event.id, team_id=team.id, question_id=question.id,
                           points=gained, reason=str(outcome)))
    out = [*(play.out or []), team.id]
    playing = {t.id for t in event.teams}
    if not kind.returns_after(outcome) or playing <= set(out):
        play.done = True
        gate = _gate(question)
        if gate is not None:
            gate.state, gate.locked_at = "locked", utcnow()
        if outcome == rules.Outcome.ACCEPT:
            game(event).turn_team_id = team.id  # OQ-2: the turn passes to the team right
    else:  # OQ-4: the question returns to the others
        play.attempt, play.armed_ms, play.reading_until_ms = play.attempt + 1, now_ms, None
    play.out = out
    audit.record(event, actor, "oq.judge", f"R{rnd.number}Q{question.number} {team.name}",
                 after={"outcome": str(outcome), "points": gained})
    db.session.flush()
    return {"team": team.name, "outcome": str(outcome), "points": gained,
            "returns": not play.done}


def close_unpressed(event: Event, armed: presses.Arming, at_ms: int,
                    actor: str = "timer") -> None:
    """OQ-4.1: nobody pressed before the press timer ran out: the question is over with
    no score changed and its answer shown; the turn stays (OQ-2: it passes only to a
    team that was right)."""
    rnd, question = rounds.question_of(event, armed.round_number, armed.question_number)
    play = play_row(question, at_ms)
    play.done = True
    gate = _gate(question)
    if gate is not None:
        gate.state, gate.locked_at = "locked", presses.from_ms(at_ms)
    audit.record(event, actor, "oq.unpressed", f"R{rnd.number}Q{question.number}",
                 after={"attempt": armed.attempt, "at_ms": at_ms})
    db.session.flush()


def edit_score(event: Event, name: Any, points: Any, actor: str = "host",
               reason: Any = None) -> int:
    """OQ-5: the host edits a team's score by hand (an entry of its own); the desk's
    form asks why, and the audit log keeps it."""
    team = team_named(event, name)
    if isinstance(points, bool) or not isinstance(points, int) or abs(points) > 1_000_000:
        raise DeskError("points must be a whole number.")
    if reason is not None and (not isinstance(reason, str) or not reason.strip()):
        raise DeskError("Say why the score changes.")
    db.session.add(OqScore(event_id=event.id, team_id=team.id, points=points, reason="edit"))
    after: dict[str, Any] = {"points": points}
    if reason is not None:
        after["reason"] = reason.strip()[:200]
    audit.record(event, actor, "oq.edit", team.name, after=after)
    db.session.flush()
    return score(event, team)


# -- the final (OQ-6) --------------------------------------------------------------------

def _final(event: Event) -> Round:
    rnd = next((r for r in event.rounds if r.kind == FINAL), None)
    if rnd is None:
        raise NotFound("This game has no final.")
    return rnd


def finalists(event: Event) -> list[Team]:
    """OQ-6: the teams above 0 play the final, in the order they joined."""
    points = scores(event)
    return [t for t in event.teams if points.get(t.id, 0) > 0]


def remaining(event: Event) -> list[Question]:
    row = _stored(event)
    banned = set(row.bans or []) if row else set()
    return [q for q in _final(event).questions if q.number not in banned]


def ban(event: Event, team: Team, question_number: Any) -> list[Question]:
    """OQ-6: the finalists ban themes in turn until one remains."""
    order = [t.id for t in finalists(event)]
    if team.id not in order:
        raise BetRefused("A team at 0 points or below sits the final out.")
    left = remaining(event)
    if len(left) <= 1:
        raise Conflict("The final theme is already chosen.")
    bans = list(game(event).bans or [])
    if rules.banning_team(order, len(bans)) != team.id:
        raise NotYourTurn("It is not your team's turn to ban.")
    if question_number not in [q.number for q in left]:
        raise NotFound("No final theme %(theme)s left to ban.", theme=str(question_number)[:20])
    game(event).bans = [*bans, question_number]
    audit.record(event, f"team:{team.name}", "oq.ban", f"F{question_number}")
    db.session.flush()
    return remaining(event)


def bet(event: Event, team: Team, amount: Any) -> OqBet:
    """OQ-6: a sealed bet from 1 to the team's score; one per team."""
    refusal = rules.bet_refusal(amount, score(event, team))
    if refusal:
        raise BetRefused(refusal, score=score(event, team))
    row = OqBet(event_id=event.id, team_id=team.id, amount=amount)
    try:
        with db.session.begin_nested():
            db.session.add(row)
    except IntegrityError:
        raise BetRefused("Your team has already bet.") from None
    return row


def _bet_of(event: Event, team: Team) -> OqBet | None:
    return db.session.scalar(db.select(OqBet).where(OqBet.event_id == event.id,
                                                    OqBet.team_id == team.id))


def final_answer(event: Event, team: Team, text: Any) -> OqBet:
    """OQ-6: every finalist writes an answer to the one question left (once bets are in)."""
    if not isinstance(text, str) or not text.strip() or len(text) > 500:
        raise DeskError("The answer must be text of 1 to 500 characters.")
    if len(remaining(event)) != 1:
        raise Conflict("The final theme is not chosen yet.")
    row = _bet_of(event, team)
    if row is None:
        raise BetRefused("Bet first: no bet, no final answer.")
    if row.answer is not None:
        raise Conflict("Your team has already answered the final.")
    row.answer = text.strip()
    db.session.flush()
    return row


def judge_final(event: Event, name: Any, accepted: Any, actor: str = "host") -> int:
    """OQ-6/OQ-5: the host judges the written answers one by one: ±bet."""
    if not isinstance(accepted, bool):
        raise DeskError("accepted must be true or false.")
    team = team_named(event, name)
    row = _bet_of(event, team)
    if row is None or row.answer is None:
        raise NotFound("No final answer of '%(name)s'.", name=team.name)
    if row.accepted is not None:
        raise Conflict("The final answer of '%(name)s' is already judged.", name=team.name)
    row.accepted = accepted
    gained = rules.final_points(row.amount, accepted)
    db.session.add(OqScore(event_id=event.id, team_id=team.id, question_id=remaining(event)[0].id,
                           points=gained, reason="final"))
    audit.record(event, actor, "oq.final", team.name, after={"points": gained})
    db.session.flush()
    return gained


def board(event: Event) -> dict[str, Any] | None:
    """OQ-2: the board in play: the first round with a question left, its themes (the
    pack's names) by values, each cell played or not. None once every board question
    has been played (the final comes next). A read, without any question's text."""
    started = started_numbers(event)
    stored = _stored(event)
    picked = stored.picked_question_id if stored is not None else None
    for rnd in event.rounds:
        if rnd.kind == FINAL:
            continue
        themes: dict[str, list[dict[str, Any]]] = {}
        for q in rnd.questions:
            theme = (q.details or {}).get("theme") or (
                rnd.themes[(q.number - 1) // 5] if rnd.themes and (q.number - 1) // 5 < len(
                    rnd.themes) else str((q.number - 1) // 5 + 1))
            themes.setdefault(theme, []).append({
                "question": q.number, "value": value_of(rnd, q),
                "played": (rnd.number, q.number) in started,
                "picked": q.id == picked})
        if any(not c["played"] for cells in themes.values() for c in cells):
            return {"round": rnd.number, "name": rnd.name,
                    "themes": [{"name": n, "cells": c} for n, c in themes.items()]}
    return None


def final_desk(event: Event) -> dict[str, Any] | None:
    """OQ-6 for the host's desk: the finalists, their bets and written answers with the
    verdicts, the theme left (None: no final in this game)."""
    rnd = next((r for r in event.rounds if r.kind == FINAL), None)
    if rnd is None:
        return None
    bets = {b.team_id: b for b in db.session.scalars(
        db.select(OqBet).where(OqBet.event_id == event.id))}
    left = remaining(event)
    playing = finalists(event)
    return {"round": rnd, "left": left, "question": left[0] if len(left) == 1 else None,
            "teams": [{"team": t.name, "bet": bets.get(t.id)} for t in event.teams
                      if t.id in bets or t in playing]}




def standings(event: Event) -> list[Standing]:
    """The teams by points (OQ-5), each round's share (the hand edits count as round 0;
    the final as its round); equal points share a place."""
    rows = db.session.execute(
        db.select(OqScore.team_id, Round.number, db.func.sum(OqScore.points))
        .outerjoin(Question, OqScore.question_id == Question.id)
        .outerjoin(Round, Question.round_id == Round.id)
        .where(OqScore.event_id == event.id).group_by(OqScore.team_id, Round.number)).all()
    by_round: dict[int, dict[int, float]] = {}
    for team_id, number, total in rows:
        by_round.setdefault(team_id, {})[number or 0] = int(total)
    totals = {t.id: sum(by_round.get(t.id, {}).values()) for t in event.teams}
    ordered = sorted(event.teams, key=lambda t: (-totals[t.id], t.name.casefold()))
    counts: dict[float, int] = {}
    for t in ordered:
        counts[totals[t.id]] = counts.get(totals[t.id], 0) + 1
    out = []
    for t in ordered:
        place = next(j for j, o in enumerate(ordered, 1) if totals[o.id] == totals[t.id])
        out.append(Standing(t.id, t.name, totals[t.id], place, counts[totals[t.id]] > 1,
                              by_round.get(t.id, {})))
    return out


def scores(event: Event) -> dict[int, int]:
    """Every team's score in one query (team id -> points)."""
    rows = db.session.execute(db.select(OqScore.team_id, db.func.sum(OqScore.points)).where(
        OqScore.event_id == event.id).group_by(OqScore.team_id)).all()
    return {team_id: int(total) for team_id, total in rows}


def public(event: Event) -> dict[str, Any]:
    """What every phone and the projector show: turn, pick, scores, the final's state."""
    row = _stored(event)
    holder = turn(event)
    picked = None
    if row is not None and row.picked_question_id is not None:
        picked = db.session.execute(db.select(Round.number, Question.number).join(
            Question, Question.round_id == Round.id).where(
            Question.id == row.picked_question_id)).first()
    final = db.session.scalar(db.select(Round.id).where(Round.event_id == event.id,
                                                        Round.kind == FINAL))
    bans = list(row.bans or []) if row is not None else []
    points = scores(event)
    return {
        "turn": holder.name if holder else None,
        "board": board(event),
        "picked": {"round": picked[0], "question": picked[1]} if picked else None,
        "scores": sorted(({"team": t.name, "points": points.get(t.id, 0)} for t in event.teams),
                         key=lambda s: (-s["points"], s["team"])),
        "final": None if final is None else {
            **_final_state(event, final, bans, points),
            "open": _final_open(event, final)},
    }


def _final_open(event: Event, final_id: int) -> bool:
    """OQ-6: the final is on once the host opens it (the board need not be played out:
    a night ends on time) or the board has no question left."""
    state = db.session.scalar(db.select(Round.state).where(Round.id == final_id))
    themes = db.session.scalar(db.select(db.func.count()).select_from(Question)
                               .where(Question.round_id == final_id))
    return bool(themes) and (state != "draft" or board(event) is None)


def _final_state(event: Event, final_id: int, bans: list[int], points: dict[int, int]
                 ) -> dict[str, Any]:
    """OQ-6 as everyone sees it: the themes (names) banned and left, who bans next, the
    finalists (teams at 0 or below sit out), how many bets are in, and the question once
    one theme is left and every finalist has bet; each team's result once judged."""
    themes = db.session.execute(db.select(Question.number, Question.details, Question.text)
                                .where(Question.round_id == final_id)
                                .order_by(Question.number)).all()
    left = [n for n, _, _ in themes if n not in bans]
    names = {n: (d or {}).get("theme") or str(n) for n, d, _ in themes}
    order = [t for t in event.teams if points.get(t.id, 0) > 0]
    bets = {b.team_id: b for b in db.session.scalars(
        db.select(OqBet).where(OqBet.event_id == event.id))}
    ready = len(left) == 1 and bool(bets) and all(t.id in bets for t in order)
    banner = None
    if len(left) > 1 and order:
        banner = next((t.name for t in order if t.id == rules.banning_team(
            [t.id for t in order], len(bans))), None)
    judged = ready and all(b.accepted is not None for b in bets.values())
    right = next(((d or {}).get("answer") for n, d, _ in themes if n == left[0]), None) \
        if judged else None
    return {
        "answer": right,  # once every final answer is judged
        "banned": bans, "remaining": left,
        "themes": [{"number": n, "name": names[n], "banned": n in bans} for n, _, _ in themes],
        "bans_next": banner,
        "finalists": [t.name for t in order],
        "bets": len(bets),
        "bet_teams": [t.name for t in event.teams if t.id in bets],
        "answered": [t.name for t in event.teams if t.id in bets and bets[t.id].answer],
        "question": next((x for n, _, x in themes if n == left[0]), None) if ready else None,
        "theme": names[left[0]] if len(left) == 1 else None,
        "results": [{"team": t.name, "bet": bets[t.id].amount, "answer": bets[t.id].answer,
                     "accepted": bets[t.id].accepted} for t in event.teams
                    if t.id in bets and bets[t.id].accepted is not None],
    }
