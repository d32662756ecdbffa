"""«Что? Где? Когда?» open tournament (RULES.md CHGK-1.1 … CHGK-4.7), registered in
core's format registry by ``load``.

The pure rules (rules.py) import nothing else of the package; ``load`` imports the
parts that need Flask and the database (records, host desk, API) and so adds
their routes to the host and API blueprints before the app registers them.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

from ...core.formats import Format, RoundTemplate, StandingRow, register
from ...core.sheet_parts import BuiltSheet
from ...packs.model import N_
from .programme import CHGK_PROGRAMME, SEQUENTIAL
from .rules import for_the_host

if TYPE_CHECKING:
    from flask import Flask


class ChgkTournament(Format):
    """Two games of 11 sectors on the clock, the Central Table, auctions, leagues."""

    name = "chgk"
    label = N_("«What? Where? When?» open tournament")
    screen_part = "display/_chgk.html"
    chart_round = N_("Game %(n)s")  # the chart's axis: the evening's two games (CHGK-2.6)
    chart_caption = N_("Points after each game")
    screen_says_now = True  # the question's clock, not the game round's "answers are open"
    phone_template = "chgk/phone.html"  # the answer sheet and the auction's sealed bid
    appeals = False  # CHGK-1.2: the host's and the assistant's decision is final
    desk_links = (("host.chgk_desk", N_("ЧГК desk")),)
    team_size = (3, 6)  # CHGK-1.7

    def programme(self) -> tuple[RoundTemplate, ...]:
        return CHGK_PROGRAMME

    def imported_kind(self, number: int, kind: str) -> str:
        """An imported tour is a game played question by question (CHGK-1.1, 1.6)."""
        return SEQUENTIAL

    def one_at_a_time(self, rnd: Any) -> bool:
        return rnd.kind == SEQUENTIAL

    def after_check(self, row: Any, values: dict[str, Any]) -> dict[str, Any]:
        """CHGK-1.3: what the key neither accepts nor rejects goes to the host."""
        return for_the_host(values, row.text)

    def on_question_checked(self, question: Any, rnd: Any) -> None:
        """CHGK-1.3 for the proposals made when a question locks."""
        from ...extensions import db
        from ...models import Answer, Verdict

        rows = db.session.execute(
            db.select(Verdict, Answer.text).join(Answer, Verdict.answer_id == Answer.id)
            .where(Answer.question_id == question.id))
        for verdict, text in rows:
            judged = for_the_host({"outcome": verdict.outcome, "fraction": verdict.fraction,
                                   "reason": verdict.reason,
                                   "reason_code": verdict.reason_code}, text)
            verdict.outcome, verdict.fraction, verdict.reason = (
                judged["outcome"], judged["fraction"], judged["reason"])

    def standings(self, event: Any) -> Sequence[StandingRow]:
        """CHGK-2.6/2.7: the evening's ranking, with each game's points."""
        from .game import standings_rows

        return standings_rows(event)

    pack_part = "chgk/_pack_choice.html"  # which tours and questions make the two games

    def choose_pack(self, pack: Any, form: Any) -> tuple[Any, dict[str, Any]]:
        """A db.chgk.info pack as two games of 12 sectors, as the host chose them."""
        from .pack import shape

        return shape(pack, form)

    def screen_standings(self, event: Any) -> Sequence[StandingRow]:
        """The projector ranks only revealed answers (issue 34): the game in play, then
        the evening."""
        from .game import screen_rows

        return screen_rows(event)[0]

    def decorate_sheet(self, sheet: BuiltSheet, event: Any, team: Any) -> BuiltSheet:
        from .sheet import decorate

        return decorate(sheet, event, team)

    def sheet_reply(self) -> type[Any]:
        from .replies import ChgkSheet

        return ChgkSheet

    def openapi_paths(self) -> dict[str, Any]:
        from .api import openapi_paths

        return openapi_paths()


CHGK = ChgkTournament()

#: The audit log's sentences for the ЧГК desk's records (core/labels.py); the subject is
#: "G<game>" with the team or "Q<question>".
AUDIT_SENTENCES = {
    "chgk.draw": N_("ЧГК: the top was spun (%(subject)s)"),
    "chgk.auction": N_("ЧГК: the bids were opened (%(subject)s)"),
    "chgk.bid": N_("ЧГК: a sealed bid was handed in (%(subject)s)"),
    "chgk.answer": N_("ЧГК: the Central Table answered (%(subject)s)"),
    "chgk.leave": N_("ЧГК: the team left the Central Table (%(subject)s)"),
    "chgk.decisive": N_("ЧГК: Decisive Round (%(subject)s)"),
    "chgk.league": N_("ЧГК: league of %(subject)s"),
    "chgk.reveal": N_("ЧГК: the answer was shown to the room (%(subject)s)"),
}


#: The words of its audit entries' own fields and codes (CHGK-2.2: a team's league).
AUDIT_FIELDS = {"league": N_("League")}
AUDIT_VALUES = {"league": {"favourites": N_("Favourites"), "contenders": N_("Contenders")}}


def load(app: Flask | None = None) -> ChgkTournament:
    """Register the format and its routes (called by formats.load_all)."""
    from ...core.labels import add_audit_fields, add_audit_sentences

    add_audit_sentences(AUDIT_SENTENCES)
    add_audit_fields(AUDIT_FIELDS, AUDIT_VALUES)
    if app is not None:
        from . import api, host  # noqa: F401  (add their routes to the api and host blueprints)
    register(CHGK)
    return CHGK
