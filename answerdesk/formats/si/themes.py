"""Своя игра's themes: a question's value by its place (SI-1.1), the theme's name, and
the theme's author (SI-0). Services flush; the views commit.
"""

from __future__ import annotations

from typing import Any

from ...core import audit, rounds
from ...core.teams import team_named
from ...errors import DeskError
from ...extensions import db
from ...models import Event, Question, Round, Team
from . import rules
from .models import SiTheme
from .players import NO_PLAYER


def value_of(rnd: Round, question: Question) -> int:
    """SI-1.1's value for the question's place, whatever price a pack gave it; a
    question off the 3 × 25 board keeps its own points."""
    try:
        return rules.value(rnd.number, question.number)
    except ValueError:
        return question.points or rnd.points


def theme_name(rnd: Round, theme: int) -> str | None:
    """The theme's name as the pack gave it (Round.themes), None for a programme
    built without a pack (the pages then say "Theme n")."""
    names = rnd.themes or []
    return names[theme - 1] if 0 < theme <= len(names) and names[theme - 1] else None


def _theme_row(rnd: Round, theme: int) -> SiTheme | None:
    return db.session.scalar(db.select(SiTheme).where(SiTheme.round_id == rnd.id,
                                                      SiTheme.theme == theme))


def author_of(rnd: Round, theme: int) -> int | None:
    """The team id of the theme's author, if the host named one (SI-0)."""
    row = _theme_row(rnd, theme)
    return row.author_team_id if row else None


def top_question(rnd: Round, question_number: int) -> int:
    """The most expensive question of the theme ``question_number`` belongs to (SI-0)."""
    theme = rules.theme_of(question_number)
    return rules.most_expensive({q.number: value_of(rnd, q) for q in rnd.questions
                                 if rules.theme_of(q.number) == theme} or
                                {question_number: 0})


def set_author(event: Event, round_number: Any, theme: Any, name: Any, actor: str) -> SiTheme:
    """SI-0: name a theme's author (a player of the game), or nobody (``name`` None)."""
    for value, field in ((round_number, "round"), (theme, "theme")):
        if isinstance(value, bool) or not isinstance(value, int):
            raise DeskError("%(field)s must be a whole number.", field=field)
    if not 1 <= theme <= rules.THEMES:
        raise DeskError("theme must be a whole number from 1 to %(most)s.", most=rules.THEMES)
    rnd = rounds.get_round(event, round_number)
    team = None if name is None or name == "" else team_named(event, name, NO_PLAYER)
    row = _theme_row(rnd, theme)
    before = row.author.name if row and row.author else None
    if row is None:
        row = SiTheme(round_id=rnd.id, theme=theme)
        db.session.add(row)
    row.author_team_id = team.id if team else None
    audit.record(event, actor, "si.author", f"R{rnd.number}T{theme}",
                 before={"author": before}, after={"author": team.name if team else None})
    db.session.flush()
    return row


def authors(event: Event) -> dict[tuple[int, int], str]:
    """(round, theme) → the author's name, for the host's board."""
    rows = db.session.execute(
        db.select(Round.number, SiTheme.theme, Team.name)
        .join(Round, SiTheme.round_id == Round.id)
        .join(Team, SiTheme.author_team_id == Team.id)
        .where(Round.event_id == event.id))
    return {(r, t): name for r, t, name in rows}
