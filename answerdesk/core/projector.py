"""The projector, driven by the host: round intro, "answers locked", the answers
revealed one question at a time (BG-E3), standings with places and moves.

The screen state is a row in the database, so every worker serves the same
picture; the key of a round is never shown before the round is locked.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from ..errors import Conflict, DeskError
from ..extensions import db
from ..models import Event, Question, Round, ScreenState
from . import rounds
from .formats import StandingRow, of
from .states import CLOSED_ROUND_STATES, RoundState

VIEWS = ("auto", "intro", "locked", "reveal", "standings", "question")
#: A reveal shows the answers in pages of this many, the newest last (fits 720p).
REVEAL_PAGE = 5
# What the desk can tell the projector's audio or video (BG-R4): the projector plays,
# phones never do.
MEDIA_COMMANDS = ("play", "pause", "replay")


def screen_state(event: Event) -> ScreenState:
    state = db.session.scalar(db.select(ScreenState).where(ScreenState.event_id == event.id))
    return state or ScreenState(event_id=event.id, view="auto", shown=0, version=0)


def _locked_state(event: Event) -> ScreenState:
    state = db.session.scalar(
        db.select(ScreenState).where(ScreenState.event_id == event.id).with_for_update()
    )
    if state is None:
        state = ScreenState(event_id=event.id, view="auto", shown=0, version=0)
        db.session.add(state)
    return state


def show(event: Event, view: str, round_number: int | None = None, actor: str = "host",
         step: int = 0, media: str = "") -> ScreenState:
    """Put a view on the projector; in "reveal" and "question", ``step`` moves one
    question on or back; ``media`` plays, pauses or replays the question's sound or film.

    Starting a reveal reveals the round (BG-E3), which needs it locked first. The
    "question" view (BG-R3 pictures, BG-R4 audio and video) never shows the key.
    """
    if view not in VIEWS:
        raise DeskError("Unknown screen view '%(view)s'", view=str(view))
    if media and media not in MEDIA_COMMANDS:
        raise DeskError("Unknown media command '%(command)s'", command=str(media))
    rnd = None
    if view in ("intro", "locked", "reveal", "question"):
        if round_number is None:
            raise DeskError("Choose a round")
        rnd = rounds.get_round(event, round_number)
        if view == "reveal" and rnd.state == RoundState.LOCKED:
            rnd = rounds.reveal_round(event, round_number, actor=actor)
        elif view in ("reveal", "locked") and rnd.state not in CLOSED_ROUND_STATES:
            db.session.rollback()
            raise Conflict("Round %(round)s is not locked yet", round=round_number)
    state = _locked_state(event)
    same = state.view == view and state.round_number == round_number
    if view in ("reveal", "question") and rnd is not None:  # (a round is chosen for both)
        total = len(rnd.questions)
        shown = (state.shown if same else 0) + (step if same else 1)
        state.shown = max(1, min(total, shown))
    else:
        state.shown = 0
    moved = not same or bool(step)
    state.view = view
    state.round_number = round_number if rnd is not None else None
    state.version = (state.version or 0) + 1
    if media:
        state.media = f"{media}:{state.version}"
    elif moved:
        state.media = None
    db.session.flush()
    return state


def follow(event: Event, round_number: int | None = None) -> ScreenState:
    """The projector follows what the host just did (a round opened, closed or revealed,
    a question shown, a shoot-out): whatever it showed before, a picture, the standings
    or another round's reveal, gives way at once. A revealed round shows its first
    answer and the host steps through the rest (BG-E3); anything else shows the
    automatic view."""
    rnd = rounds.get_round(event, round_number) if round_number is not None else None
    state = _locked_state(event)
    if rnd is not None and rnd.state == RoundState.REVEALED and rnd.questions:
        state.view, state.round_number, state.shown = "reveal", rnd.number, 1
    else:
        state.view, state.round_number, state.shown = "auto", None, 0
    state.version = (state.version or 0) + 1
    state.media = None
    db.session.flush()
    return state


@dataclass
class ScreenRow:
    place: int | None  # None: not ranked (SI-1.2 out of competition)
    shared: bool
    name: str
    points: float
    move: int | None


def standings_with_moves(event: Event, rows: Sequence[StandingRow] | None = None,
                         ) -> list[ScreenRow]:
    """Places now, and how many places each team moved since before the last scored round."""
    rows = rows if rows is not None else of(event).standings(event)
    scored = sorted({n for row in rows for n in row.by_round})
    previous: dict[int, int] = {}
    if len(scored) > 1:
        last = scored[-1]
        before = {r.team_id: r.points - r.by_round.get(last, 0) for r in rows}
        # Competition ranking (1, 2, 2, 4): one more than the teams that had more.
        previous = {team: 1 + sum(p > points for p in before.values())
                    for team, points in before.items()}
    return [
        ScreenRow(place=r.place, shared=r.shared, name=r.name, points=r.points,
                  move=(previous[r.team_id] - r.place)
                  if r.team_id in previous and r.place is not None else None)
        for r in rows
    ]


def reveal_page(rnd: Round | None, state: ScreenState) -> list[Question]:
    """The answers the reveal shows now: the page of ``REVEAL_PAGE`` that holds the
    newest one, up to it."""
    if rnd is None or state.view != "reveal" or state.shown < 1:
        return []
    start = (state.shown - 1) // REVEAL_PAGE * REVEAL_PAGE
    return list(rnd.questions[start:state.shown])


def screen_question(rnd: Round | None, state: ScreenState) -> Question | None:
    """The question the "question" view shows, by its place in the round."""
    if rnd is None or state.view != "question" or not 0 < state.shown <= len(rnd.questions):
        return None
    return rnd.questions[state.shown - 1]


def question_media(question: Question | None, stage: str = "question") -> list[dict]:
    """The question's stored files for one stage, each with its kind and file name;
    a file the pack only linked to (a URL) is left out: the projector never reaches
    out to the internet."""
    if question is None:
        return []
    return [m for m in question.media or []
            if m.get("file") and m.get("stage", "question") == stage
            and m.get("kind") in ("image", "audio", "video")]


def screen_round(event: Event, state: ScreenState) -> Round | None:
    if state.round_number is None:
        return None
    return db.session.scalar(
        db.select(Round).where(Round.event_id == event.id, Round.number == state.round_number)
    )
