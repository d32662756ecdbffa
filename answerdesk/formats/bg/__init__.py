"""The Bulgarian pub quiz (RULES.md BG-*): programme R1-R6, jokers, wildcard, final,
shoot-out, league and BG scoring, registered in core's format registry by ``load``.

The hooks import the BG modules when called: those modules import core, and
core must be importable before any format is loaded.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING, Any, cast

from ...core.formats import Format, RoundTemplate, StandingRow, register
from ...core.sheet_parts import BuiltSheet, EventSheet
from ...packs.model import N_
from .programme import BG_PROGRAMME
from .sheet_parts import BgBuiltSheet

if TYPE_CHECKING:
    from flask import Flask


class BulgarianQuiz(Format):
    """BG-R1..R6, the jokers (BG-J*), disputes' effect, the shoot-out and the BG league."""

    name = "bg"
    label = N_("Bulgarian pub quiz")
    default = True  # the flagship: a new event without a format is a pub quiz
    screen_part = "display/_bg_rules.html"
    desk_links = (("host.rules", N_("Wildcard, final, jokers, shoot-out")),)
    setup_links = (("host.league_page", N_("League")),)
    paper_part = "host/_bg_paper.html"
    # Standings count locked rounds and locked final questions only (final.
    # counted_question_ids): their verdicts move by the lock's own check and by audited
    # decisions; the live checker proposes in open rounds, a phone saves in them.
    standings_follow_screen = True

    def programme(self) -> tuple[RoundTemplate, ...]:
        return BG_PROGRAMME

    def import_pack_extras(self, event: Any, pack: Any, *, replace: bool,
                           to_row: Callable[[Any], Any]) -> None:
        """BG-R5: the pack's scenario sets become the event's own."""
        from .wildcard import bank_item, store_sets

        sets = {name: [bank_item(to_row(q)) for q in questions]
                for name, questions in pack.scenarios.items()}
        store_sets(event, sets, replace=replace)

    def export_pack_extras(self, event: Any, pack: Any, to_spec: Callable[[Any], Any]) -> None:
        from .wildcard import scenario_sets

        pack.scenarios = {name: [to_spec(q) for q in questions]
                          for name, questions in scenario_sets(event).items()}

    def media_files(self, event: Any) -> set[str]:
        """The pictures and clips of the event's scenario sets (BG-R5)."""
        from .wildcard import set_media_files

        return set_media_files(event)

    def one_at_a_time(self, rnd: Any) -> bool:
        """BG-R6.1: the final round's questions are opened one at a time."""
        from .final import is_one_at_a_time

        return is_one_at_a_time(rnd)

    def on_question_checked(self, question: Any, rnd: Any) -> None:
        """BG-J1 second answers get their proposal; BG-R6.1 sends the final's to the host."""
        from . import final, jokers

        jokers.check_second_answers(question, rnd)
        final.send_to_host(question, rnd)

    def after_check(self, row: Any, values: dict[str, Any]) -> dict[str, Any]:
        """BG-R6.1 for one live proposal: in the final, the host judges what is not right."""
        if not self.one_at_a_time(row):
            return values
        from .final import host_judges

        return host_judges(values, row.text)

    def save_columns(self, team_id: Any, question_id: Any) -> dict[str, Any]:
        """BG-J1, BG-J2: the team's double and copy jokers on the question."""
        from .saves import columns

        return columns(team_id, question_id)

    def check_save(self, team_id: int, target: Any, text: str, fields: Any,
                   run: Callable[[Any, dict[str, Any]], Any]) -> None:
        """BG-J2 no own answer when copying, BG-J1 a second answer with the double
        joker only, BG-R5.4 a number once per round."""
        from .saves import check

        check(team_id, target, text, fields, run)

    def save_rereads(self, target: Any) -> bool:
        """BG-R5.4 reads the team's other answers: a number question takes the full save."""
        return target.kind == "number"

    def save_guard(self, params: dict[str, Any]) -> Any:
        """BG-J2 under the round's lock: no copy joker played meanwhile."""
        from .saves import guard

        return guard(params)

    def paper_extras(self, team: Any, rnd: Any) -> dict[int, dict[str, Any]]:
        """BG-J1, BG-J2: the paper team's jokers, for its grid and its saves."""
        from .saves import paper_extras

        return paper_extras(team, rnd)

    def paper_panel(self, event: Any, team: Any, rnd: Any) -> dict[str, Any]:
        """BG-E1: a paper team's jokers (BG-J1-J3) and shoot-out numbers (BG-S3)."""
        from .paper import panel

        return panel(event, team, rnd)

    def standings(self, event: Any) -> Sequence[StandingRow]:
        from .standings import event_standings

        return event_standings(event)

    def screen_standings(self, event: Any) -> Sequence[StandingRow]:
        """BG-E3: the projector counts a round once its answers are revealed, a final
        question once its answer is shown."""
        from .standings import event_standings

        return event_standings(event, revealed_only=True)

    def screen_stage(self, event: Any) -> bool:
        """The R5 draw, the final's question or a shoot-out holds the projector."""
        from .desk import screen_rules

        return screen_rules(event)["stage"]

    def decorate_event_sheet(self, sheet: EventSheet, event: Any) -> EventSheet:
        """Widgets and the final's one-at-a-time view."""
        from .play import decorate_event

        return decorate_event(sheet, event)

    def decorate_sheet(self, sheet: BuiltSheet, event: Any, team: Any) -> BuiltSheet:
        """The team's verdicts shown early, used numbers and the jokers/wildcard/shoot-out
        state."""
        from .play import decorate

        return decorate(sheet, event, team)

    def sheet_reply(self) -> type[Any]:
        from .replies import BgSheet

        return BgSheet

    def keeps_sheet(self, sheet: BuiltSheet) -> bool:
        """A running shoot-out counts its seconds down (shootout_json): built every time."""
        return cast(BgBuiltSheet, sheet)["play"]["shootout"] is None

    def sheet_delta(self, rnd: Any) -> bool:
        """«От 1 до 10» (BG-R5.4) lists the numbers the team's answers used: that round's
        part moves with the answers, so it is read whole."""
        return rnd.check_mode != "number"

    def openapi_paths(self) -> dict[str, Any]:
        from .api import openapi_paths

        return openapi_paths()

    def create_demo(self, **options: Any) -> tuple[Any, str]:
        """The demo evening, by default with its past month of league editions
        (``month=False``: without)."""
        from .demo import create_demo_event

        return create_demo_event(month=options.get("month", True))


BG = BulgarianQuiz()


# The audit actions the BG rules write, as sentences (core/labels.py).
AUDIT_SENTENCES = {
    "question.open": N_("Final question %(question)s is shown"),
    "question.lock": N_("Final question %(question)s is closed and checked"),
    "question.reveal": N_("Final question %(question)s: the answer is revealed"),
    "joker.play": N_("%(team)s played a joker on question %(question)s of round %(round)s"),
    "joker.decide": N_("Decision on the second answer of a double joker"),
    "shootout.start": N_("A shoot-out started"),
    "shootout.lock": N_("The shoot-out is closed"),
    "shootout.numbers": N_("Shoot-out numbers of %(team)s typed from the paper sheet"),
    "wildcard.draw": N_("%(team)s chooses the wildcard scenario"),
    "wildcard.choose": N_("Round %(round)s: wildcard scenario %(team)s chosen"),
    "league.edition": N_("The evening joined the league month %(subject)s"),
    "league.merge": N_("League teams merged: %(subject)s"),
}


# The words of the BG audit fields and values (BG-J1-J3 the jokers, BG-R5 the wildcard).
JOKER_WORDS = {"double": N_("double joker"), "copy": N_("copy joker"),
               "first_letter": N_("first letter joker")}
AUDIT_FIELDS = {"joker": N_("joker"), "copy_of": N_("copied from")}
ROUND_KINDS = {"wildcard": N_("wildcard")}


def load(app: Flask | None = None) -> BulgarianQuiz:
    """Register the BG format and its routes (the host's rules pages, the team's play
    API) on the host and API blueprints, before the app factory registers those; its
    audit sentences (core/labels.py); and its shell commands on ``app``."""
    from ...core.labels import add_audit_sentences
    from . import api, desk, models  # noqa: F401  (routes on the blueprints; tables)

    add_audit_sentences(AUDIT_SENTENCES, fields=AUDIT_FIELDS, values=JOKER_WORDS,
                        field_values={"joker": JOKER_WORDS}, round_kinds=ROUND_KINDS)
    if app is not None:
        from .champions import register_commands

        register_commands(app)
    register(BG)
    return BG
