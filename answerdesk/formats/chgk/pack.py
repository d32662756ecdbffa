"""What of a db.chgk.info pack a ЧГК evening plays: two games of 12 sectors (CHGK-1.6,
1.9), chosen by the host in the import preview.

Real packs have 4-6 tours of 12-15 questions. Each game takes 12 questions in the
pack's order from the tour and question the host chooses (running on into the next
tour if the tour has fewer left); the rest of the pack is named in a warning, never
dropped silently.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Sequence
from typing import Any

from ...errors import DeskError
from ...packs.model import N_, Pack, RoundSpec
from .programme import CHGK_PROGRAMME
from .rules import GAMES_PER_EVENING, SECTORS


def _position(layout: Sequence[int] | None, game: int, default: tuple[int, int],
              tours: list[RoundSpec]) -> tuple[int, int]:
    """The (tour, question) a game starts at, both from 1, as the host chose it:
    ``layout`` is [tour of game 1, its first question, tour of game 2, …]."""
    if not layout:
        return default
    if len(layout) != 2 * GAMES_PER_EVENING:
        raise DeskError("Choose a tour and a first question for each game.")
    tour, start = layout[2 * game - 2], layout[2 * game - 1]
    if not 1 <= tour <= len(tours):
        raise DeskError("Game %(game)s: choose one of the pack's tours.", game=game)
    count = len(tours[tour - 1].questions)
    if not 1 <= start <= count:
        raise DeskError("Game %(game)s: the first question must be from 1 to %(count)s.",
                        game=game, count=count)
    return tour, start


def layout_of(form: Any) -> list[int] | None:
    """The host's choice as posted (the preview's ``layout`` fields, in order); None:
    the default. A field that is not a whole number reads as -1 and is refused."""
    chosen = form.getlist("layout") if hasattr(form, "getlist") else form.get("layout")
    if not chosen:
        return None
    return [int(v) if str(v).strip().isdigit() else -1 for v in chosen]


def shape(pack: Pack, form: Any) -> tuple[Pack, dict[str, Any]]:
    """The pack as the evening's two games as posted in the preview (or by default)."""
    return plan(pack, layout_of(form))


def plan(pack: Pack, layout: Sequence[int] | None) -> tuple[Pack, dict[str, Any]]:
    """The pack as the evening's two games from ``layout`` (see ``_position``; None:
    game 1 from tour 1, game 2 from tour 2), and what the preview shows to choose them."""
    if pack.format != "chgk" or not pack.rounds:
        return pack, {}
    tours = pack.rounds
    flat = [(t, q) for t, rnd in enumerate(tours, start=1)
            for q in range(1, len(rnd.questions) + 1)]
    order = {pos: i for i, pos in enumerate(flat)}
    chosen: list[tuple[int, int]] = []
    taken: set[int] = set()
    games: list[dict[str, Any]] = []
    rounds: list[RoundSpec] = []
    for game in range(1, GAMES_PER_EVENING + 1):
        if game == 1 or len(tours) < game:
            default = flat[0] if game == 1 else (
                flat[min(order[chosen[-1]] + SECTORS, len(flat) - 1)])
        else:
            default = (game, 1)
        start = _position(layout, game, default, tours)
        first = order[start]
        picked = flat[first:first + SECTORS]
        if taken & {order[p] for p in picked}:
            raise DeskError("Game %(game)s repeats questions of game %(other)s: choose "
                            "another first question.", game=game, other=game - 1)
        taken |= {order[p] for p in picked}
        chosen.append(start)
        template = CHGK_PROGRAMME[game - 1]
        questions = [dataclasses.replace(tours[t - 1].questions[q - 1], number=n)
                     for n, (t, q) in enumerate(picked, start=1)]
        last = picked[-1] if picked else start
        span = (f"{tours[start[0] - 1].name}, {start[1]}–{last[1]}" if last[0] == start[0]
                else f"{tours[start[0] - 1].name} {start[1]} – {tours[last[0] - 1].name} {last[1]}")
        rounds.append(RoundSpec(number=game, name=f"{template.name} ({span})",
                                kind=tours[0].kind, points=template.points,
                                check_mode=template.check_mode, questions=questions))
        games.append({"number": game, "tour": start[0], "start": start[1],
                      "count": len(questions)})
    warnings = list(pack.warnings)
    unused = len(flat) - len(taken)
    if unused:
        warnings.append(N_("The evening plays %(played)s of the pack's %(total)s questions "
                           "(two games of 12 sectors); choose the tours and the first "
                           "question of each game above.", played=len(taken), total=len(flat)))
    for g in games:
        if g["count"] < SECTORS:
            warnings.append(N_("Game %(game)s has only %(count)s questions: the table has "
                               "12 sectors.", game=g["number"], count=g["count"]))
    shaped = dataclasses.replace(pack, rounds=rounds, warnings=warnings)
    fields = [("layout", g[k]) for g in games for k in ("tour", "start")]
    return shaped, {"tours": [(i, t.name, len(t.questions)) for i, t in enumerate(tours, start=1)],
                    "games": games, "fields": fields}
