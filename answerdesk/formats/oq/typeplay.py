"""OpenQuiz question types over the database (OQ-3): the host sets a question's type;
teams choose an option, bid in the auction or pass, hand the secret question; the
host closes the auction or the choices for all and judges the team that answers alone.

The rules themselves are types.py (pure); this module finds the question in play,
stores what they allow, and scores through game.record_call. Services flush; the
views commit; a refusal changes nothing.
"""

from __future__ import annotations

from typing import Any

from flask import url_for
from sqlalchemy.exc import IntegrityError

from ...core import audit, rounds
from ...core.projector import question_media
from ...errors import Conflict
from ...extensions import db
from ...models import Event, Question, QuestionGate, Round, Team, utcnow
from ..buzzer import presses
from . import game, types
from .models import OqChoice, OqScore, OqStake
from .programme import FINAL


def _question(event: Event, round_number: int, question_number: int,
              want: str | None = None) -> tuple[Round, Question, types.QuestionType]:
    rnd, question = rounds.question_of(event, round_number, question_number)
    kind = game.kind_of(question)
    if rnd.kind == FINAL or (want is not None and not getattr(kind, want)):
        raise types.WrongQuestionType(
            "Question %(question)s is not of a type that takes this.", question=question_number)
    return rnd, question, kind


def _open(question: Question) -> QuestionGate:
    """The question's gate while it is shown (started and not over), else a refusal."""
    gate = game._gate(question)
    play = game._play(question)
    if gate is None or gate.state != "open" or (play is not None and play.done):
        raise Conflict("Question %(question)s is not being played.", question=question.number)
    return gate


def _before_answers(event: Event, question: Question) -> None:
    """An auction or a secret is settled once the question is picked (before the host
    starts it, as in SIGame) or while it is shown."""
    stored = game._stored(event)
    picked = stored is not None and stored.picked_question_id == question.id
    gate = game._gate(question)
    play = game._play(question)
    if (play is not None and play.done) or (gate is None and not picked) or (
            gate is not None and gate.state != "open"):
        raise Conflict("Question %(question)s is not being played.", question=question.number)


def set_type(event: Event, round_number: int, question_number: int, name: Any,
             actor: str = "host") -> types.QuestionType:
    """The host sets a question's type (OQ-3) before it is played."""
    rnd, question = rounds.question_of(event, round_number, question_number)
    details = question.details or {}
    refusal = types.set_type_refusal(name, details.get("options"))
    if refusal:
        raise types.WrongQuestionType(refusal, types=", ".join(types.TYPES))
    if rnd.kind == FINAL or game._gate(question) is not None or game._play(question) is not None:
        raise Conflict("Question %(question)s was already played.", question=question_number)
    before = game.kind_of(question).name
    question.details = {**details, "variant": name}
    audit.record(event, actor, "oq.type", f"R{round_number}Q{question_number}",
                 before={"type": before}, after={"type": name})
    db.session.flush()
    return game.kind_of(question)


OPTION_LABELS = "ABCDEF"


def typed_options(text: Any) -> tuple[dict[str, str], list[str]]:
    """OQ-3: the options the host types for a choice question the pack gave none,
    separated by ";" (or one a line), the right one marked with "*": labels A, B, …
    and the right ones' labels. Refused: fewer than two, more than six, none right."""
    parts = [p.strip() for p in str(text or "").replace("\n", ";").split(";") if p.strip()]
    if not 2 <= len(parts) <= len(OPTION_LABELS):
        raise types.WrongQuestionType("Type two to six options, separated by ';'.")
    options = {OPTION_LABELS[i]: p.lstrip("*").strip()[:200] for i, p in enumerate(parts)}
    right = [OPTION_LABELS[i] for i, p in enumerate(parts) if p.startswith("*")]
    if not right or any(not v for v in options.values()):
        raise types.WrongQuestionType("Mark the right option with '*'.")
    return options, right


def set_options(event: Event, round_number: int, question_number: int, text: Any,
                actor: str = "host") -> None:
    """OQ-3: the host's options for a choice question (before it is played); the right
    option's label joins the question's accepted answers."""
    rnd, question = rounds.question_of(event, round_number, question_number)
    if rnd.kind == FINAL or game._gate(question) is not None or game._play(question) is not None:
        raise Conflict("Question %(question)s was already played.", question=question_number)
    options, right = typed_options(text)
    key = question.key if isinstance(question.key, dict) else {"accept": list(
        question.key if isinstance(question.key, list) else [question.key] if question.key
        else [])}
    question.key = {**key, "accept": [*right, *(key.get("accept") or [])]}
    question.details = {**(question.details or {}), "options": options}
    audit.record(event, actor, "oq.options", f"R{round_number}Q{question_number}",
                 after={"options": options, "right": right})
    db.session.flush()


# -- choices and choices for all ---------------------------------------------------------

def _choices(question: Question) -> dict[int, str]:
    return dict(db.session.execute(db.select(OqChoice.team_id, OqChoice.option).where(
        OqChoice.question_id == question.id).order_by(OqChoice.id)).all())


def choose(event: Event, team: Team, round_number: int, question_number: int, option: Any,
           now_ms: int | None = None) -> dict[str, Any]:
    """OQ-3: the buzzer's winner chooses (judged at once; a wrong choice returns the
    question), or, for all, every team chooses once, sealed until the host closes."""
    now_ms = presses.now_ms() if now_ms is None else now_ms
    rnd, question, kind = _question(event, round_number, question_number, "choosing")
    options = (question.details or {}).get("options") or {}
    game.play_row(question, now_ms)  # a choice and the host's close take turns
    _open(question)
    chosen = types.chosen_option(option, options)
    answering = None
    if kind.for_all:
        answered = set(_choices(question))
    else:
        armed = game.arming(event, round_number, question_number)
        if armed is None:
            raise Conflict("Question %(question)s is not being played.",
                           question=question_number)
        answering, answered = presses.winner(armed, now_ms), set(armed.out)
    types.check_chooser(team.id, kind, answering, answered)
    try:
        with db.session.begin_nested():
            db.session.add(OqChoice(question_id=question.id, team_id=team.id, option=chosen))
    except IntegrityError:
        raise types.ChoiceRefused("Your team has already answered this question.") from None
    audit.record(event, f"team:{team.name}", "oq.choose", f"R{round_number}Q{question_number}",
                 after={"option": chosen, "sealed": kind.for_all})
    if kind.for_all:
        db.session.flush()
        if len(answered) + 1 >= len(event.teams):
            close_for_all(event, round_number, question_number, f"team:{team.name}")
        return {"option": chosen, "sealed": True}
    outcome = types.choice_outcome(chosen, options, question.key)
    result = game.record_call(event, rnd, question, team, outcome, 1.0, now_ms,
                              f"team:{team.name}")
    return {"option": chosen, "sealed": False, **result}


def close_for_all(event: Event, round_number: int, question_number: int,
                  actor: str = "host") -> dict[str, Any]:
    """OQ-3 choices for all: the host closes; every choice scores ±value, none 0."""
    rnd, question, _ = _question(event, round_number, question_number, "for_all")
    gate = _open(question)
    play = game.play_row(question, presses.now_ms())
    if play.done:
        raise Conflict("Question %(question)s is not being played.", question=question_number)
    choices = _choices(question)
    options = (question.details or {}).get("options") or {}
    gained = types.for_all_points(choices, options, question.key, game.value_of(rnd, question))
    for team_id, points in gained.items():
        db.session.add(OqScore(event_id=event.id, team_id=team_id, question_id=question.id,
                               points=points, reason="choice"))
    play.done, play.out = True, list(choices)
    gate.state, gate.locked_at = "locked", utcnow()
    names = {t.id: t.name for t in event.teams}
    audit.record(event, actor, "oq.close", f"R{round_number}Q{question_number}",
                 after={"points": {names[t]: p for t, p in gained.items()}})
    db.session.flush()
    return {"choices": {names[t]: o for t, o in choices.items()},
            "points": {names[t]: p for t, p in gained.items()}}


# -- the auction ---------------------------------------------------------------------------

def _stakes(question: Question) -> list[OqStake]:
    return list(db.session.scalars(db.select(OqStake).where(
        OqStake.question_id == question.id).order_by(OqStake.id)))


def _auction(event: Event, question: Question, rows: list[OqStake]) -> dict[str, Any]:
    names = {t.id: t.name for t in event.teams}
    bids = [(r.team_id, r.amount) for r in rows if r.amount is not None]
    highest = max(bids, key=lambda b: b[1]) if bids else None
    return {"highest": highest[1] if highest else None,
            "leader": names.get(highest[0]) if highest else None,
            "passed": [names[r.team_id] for r in rows if r.amount is None]}


def _open_auction(event: Event, round_number: int, question_number: int
                  ) -> tuple[Round, Question, Any]:
    rnd, question, _ = _question(event, round_number, question_number, "bidding")
    _before_answers(event, question)
    play = game.play_row(question, presses.now_ms())
    if play.answering_team_id is not None:
        raise types.StakeRefused("The auction is closed.")
    return rnd, question, play


def stake(event: Event, team: Team, round_number: int, question_number: int,
          amount: Any) -> dict[str, Any]:
    """OQ-3 auction: a stake from the question's value (above the highest so far) to
    the team's score; a team at 0 or below does not bid."""
    rnd, question, play = _open_auction(event, round_number, question_number)
    rows = _stakes(question)
    bids = [r.amount for r in rows if r.amount is not None]
    passed = any(r.team_id == team.id and r.amount is None for r in rows)
    types.check_stake(amount, game.score(event, team), game.value_of(rnd, question),
                      max(bids) if bids else None, passed)
    db.session.add(OqStake(question_id=question.id, team_id=team.id, amount=amount))
    audit.record(event, f"team:{team.name}", "oq.stake", f"R{round_number}Q{question_number}",
                 after={"amount": amount})
    return _after_move(event, rnd, question, play, team.id)


def pass_auction(event: Event, team: Team, round_number: int,
                 question_number: int) -> dict[str, Any]:
    """OQ-3 auction: a team leaves the bidding (the highest bidder cannot)."""
    rnd, question, play = _open_auction(event, round_number, question_number)
    rows = _stakes(question)
    if any(r.team_id == team.id and r.amount is None for r in rows):
        raise types.StakeRefused("Your team has passed this auction.")
    bids = [(r.team_id, r.amount) for r in rows if r.amount is not None]
    if bids and max(bids, key=lambda b: b[1])[0] == team.id:
        raise types.StakeRefused("Your team holds the highest stake: it cannot pass.")
    db.session.add(OqStake(question_id=question.id, team_id=team.id, amount=None))
    audit.record(event, f"team:{team.name}", "oq.pass", f"R{round_number}Q{question_number}")
    leader = max(bids, key=lambda b: b[1])[0] if bids else None
    return _after_move(event, rnd, question, play, leader)


def _after_move(event: Event, rnd: Round, question: Question, play: Any,
                leader: int | None) -> dict[str, Any]:
    """The auction after a stake or a pass; over once every other team has passed."""
    db.session.flush()
    rows = _stakes(question)
    passed = {r.team_id for r in rows if r.amount is None}
    if types.auction_over([t.id for t in event.teams], passed, leader):
        _settle_auction(event, rnd, question, play, rows)
    return {**_auction(event, question, rows), "closed": play.answering_team_id is not None}


def _settle_auction(event: Event, rnd: Round, question: Question, play: Any,
                    rows: list[OqStake]) -> None:
    holder = game.turn(event)
    bids = [(r.team_id, r.amount) for r in rows if r.amount is not None]
    winner, value = types.auction_result(bids, holder.id if holder else None,
                                         game.value_of(rnd, question))
    play.answering_team_id, play.stake = winner, value if bids else None
    db.session.flush()


def close_auction(event: Event, round_number: int, question_number: int,
                  actor: str = "host") -> dict[str, Any]:
    """OQ-3: the host closes the bidding: the highest stake answers, for the stake."""
    rnd, question, play = _open_auction(event, round_number, question_number)
    rows = _stakes(question)
    _settle_auction(event, rnd, question, play, rows)
    names = {t.id: t.name for t in event.teams}
    audit.record(event, actor, "oq.sold", f"R{round_number}Q{question_number}",
                 after={"team": names.get(play.answering_team_id), "stake": play.stake})
    return {"team": names.get(play.answering_team_id),
            "value": types.TYPES["auction"].worth(game.value_of(rnd, question), play.stake)}


# -- the secret question -----------------------------------------------------------------

def hand(event: Event, team: Team, round_number: int, question_number: int,
         receiver: Any, price: Any = None) -> dict[str, Any]:
    """OQ-3: the team with the turn hands the secret question to a team, itself included,
    for the pack's own price if it has one (``price``: its choice, types.secret_price)."""
    _, question, _ = _question(event, round_number, question_number, "handed")
    _before_answers(event, question)
    to = game.team_named(event, receiver)
    play = game.play_row(question, presses.now_ms())
    holder = game.turn(event)
    types.check_hand(team.id, holder.id if holder else None, to.id,
                     [t.id for t in event.teams], play.answering_team_id)
    play.stake = types.secret_price((question.details or {}).get("price"), price)
    play.answering_team_id = to.id
    audit.record(event, f"team:{team.name}", "oq.hand", f"R{round_number}Q{question_number}",
                 after={"to": to.name, "price": play.stake})
    db.session.flush()
    return {"team": to.name} if play.stake is None else {"team": to.name, "price": play.stake}


# -- the host's call ---------------------------------------------------------------------

def judge(event: Event, round_number: int, question_number: int, outcome: Any,
          factor: Any = 1.0, actor: str = "host", now_ms: int | None = None) -> dict[str, Any]:
    """OQ-4/OQ-5 by type: the buzzer's winner, or the team that answers alone (the
    secret's receiver, the auction's winner, for the stake)."""
    rnd, question = rounds.question_of(event, round_number, question_number)
    kind = game.kind_of(question)
    if kind.buzzer or rnd.kind == FINAL:
        return game.judge(event, round_number, question_number, outcome, factor, actor, now_ms)
    outcome, factor = game.call(outcome, factor)
    kind.check_call(outcome)
    _open(question)
    play = game._play(question)
    team = next((t for t in event.teams
                 if play is not None and t.id == play.answering_team_id), None)
    if team is None:
        raise Conflict("No team answers question %(question)s yet.", question=question_number)
    now_ms = presses.now_ms() if now_ms is None else now_ms
    return game.record_call(event, rnd, question, team, outcome, factor, now_ms, actor)


# -- what everyone sees ------------------------------------------------------------------

def current(event: Event) -> tuple[Round, Question] | None:
    """The question in play: the one picked and not yet started, else the one started last."""
    stored = game._stored(event)
    if stored is not None and stored.picked_question_id is not None:
        picked = db.session.get(Question, stored.picked_question_id)
        if picked is not None and game._gate(picked) is None:
            return picked.round, picked
    row = db.session.execute(
        db.select(Round, Question).join(Question, Question.round_id == Round.id)
        .join(QuestionGate, QuestionGate.question_id == Question.id)
        .where(Round.event_id == event.id, Round.kind != FINAL)
        .order_by(QuestionGate.id.desc()).limit(1)).first()
    return (row[0], row[1]) if row else None


def shown_answer(question: Question) -> str | None:
    """OQ-2: the correct answer, shown once the question is over (a choice's option with
    its text)."""
    key = question.key
    accepted = (key.get("accept") or []) if isinstance(key, dict) else \
        key if isinstance(key, list) else [key] if key else []
    if not accepted:
        return None
    first = str(accepted[0])
    options = (question.details or {}).get("options") or {}
    return f"{first} · {options[first]}" if first in options else first


def media_of(event: Event, question: Question, stage: str) -> list[dict[str, str]]:
    """The pack's pictures, sounds and films of a question's stage, as the projector and
    phones play them (files the pack carries; a link out is never followed)."""
    return [{"kind": m["kind"], "url": url_for("media.serve", code=event.code, name=m["file"])}
            for m in question_media(question, stage)]


def public_play(event: Event) -> dict[str, Any] | None:
    """The question in play by its type, as every phone and the projector see it: its
    options, who answers and for what; choices for all stay sealed until closed."""
    found = current(event)
    if found is None:
        return None
    rnd, question = found
    kind = game.kind_of(question)
    play = game._play(question)
    gate = game._gate(question)
    done = play is not None and play.done
    names = {t.id: t.name for t in event.teams}
    value = game.value_of(rnd, question)
    stake_ = play.stake if play is not None else None
    shown = gate is not None  # OQ-2: its text, options and media once the host starts it
    return {
        "round": rnd.number, "question": question.number, "type": kind.name,
        "value": kind.worth(value, stake_),
        "state": "done" if done else "open" if gate is not None else "picked",
        "theme": (question.details or {}).get("theme"),
        "text": question.text if shown else None,
        "media": media_of(event, question, "answer" if done else "question") if shown else [],
        "options": (question.details or {}).get("options") if kind.choosing and shown
        else None,
        "answering": names.get(play.answering_team_id)
        if play is not None and play.answering_team_id is not None else None,
        "auction": _auction(event, question, _stakes(question)) if kind.bidding else None,
        "choices": [{"team": names[t], "option": None if kind.for_all and not done else o}
                    for t, o in _choices(question).items()] if kind.choosing else None,
        "answer": shown_answer(question) if done else None,
        "prices": types.secret_prices((question.details or {}).get("price"))
        if kind.handed else None,
    }
