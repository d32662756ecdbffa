"""The team sheet's builders write TypedDicts (core/sheet_parts.py and each format's
sheet_parts.py: mypy checks their keys) that mirror the sheet's reply models (the
OpenAPI document's, api/replies.py and each format's replies.py). A key added to one
and not the other fails here (issue 32)."""

from __future__ import annotations

import msgspec
import pytest

from answerdesk.api import replies
from answerdesk.core import formats, sheet_parts
from answerdesk.formats.bg import replies as bg_replies
from answerdesk.formats.bg import sheet_parts as bg_parts
from answerdesk.formats.chgk import replies as chgk_replies
from answerdesk.formats.chgk import sheet_parts as chgk_parts
from answerdesk.formats.si import replies as si_replies
from answerdesk.formats.si import sheet_parts as si_parts

#: What team_sheet adds to a built sheet (core's Sheet beyond its BuiltSheet).
STAMPED = sheet_parts.Sheet.__required_keys__ - sheet_parts.BuiltSheet.__required_keys__

# (the builders' TypedDict, the reply model it mirrors, the model's keys it leaves out)
PAIRS = [
    (sheet_parts.SheetEvent, replies.SheetEvent, set()),
    (sheet_parts.SheetTeam, replies.SheetTeam, set()),
    (sheet_parts.RoundStatus, replies.RoundStatus, set()),
    (sheet_parts.SheetQuestion, replies.SheetQuestion, set()),
    (sheet_parts.SheetRound, replies.SheetRound, set()),
    (sheet_parts.Sheet, replies.Sheet, set()),
    (sheet_parts.BuiltSheet, replies.Sheet, STAMPED),
    (bg_parts.BgSheetQuestion, bg_replies.BgSheetQuestion, set()),
    (bg_parts.BgSheetRound, bg_replies.BgSheetRound, set()),
    (bg_parts.BgBuiltSheet, bg_replies.BgSheet, STAMPED),
    (chgk_parts.ChgkSheetQuestion, chgk_replies.ChgkSheetQuestion, set()),
    (chgk_parts.ChgkSheetRound, chgk_replies.ChgkSheetRound, set()),
    (chgk_parts.ChgkBuiltSheet, chgk_replies.ChgkSheet, STAMPED),
    (si_parts.SiPlayerQuestion, si_replies.SiPlayerQuestion, set()),
    (si_parts.SiProtestable, si_replies.SiProtestable, set()),
    (si_parts.SiOwnProtest, si_replies.SiOwnProtest, set()),
    (si_parts.SiPlayerPart, si_replies.SiPlayerPart, set()),
    (si_parts.SiBuiltSheet, si_replies.SiSheet, STAMPED),
]


def keys(model: type) -> tuple[set[str], set[str]]:
    """(every field, the required ones) of a reply model; an UNSET default is a key
    the sheet may leave out (NotRequired)."""
    fields = msgspec.structs.fields(model)
    return {f.encode_name for f in fields}, {f.encode_name for f in fields if f.required}


@pytest.mark.parametrize("typed, model, left_out", PAIRS,
                         ids=[f"{t.__name__}-{m.__name__}" for t, m, _ in PAIRS])
def test_each_typed_dict_has_its_models_keys(typed, model, left_out):
    every, required = keys(model)
    assert set(typed.__annotations__) == every - left_out
    assert set(typed.__required_keys__) == required - left_out


def test_the_event_parts_are_the_team_parts_without_the_teams_answer():
    """The event's part of a sheet, shared by every team, has the keys of the team's
    part but the team's answer (and, in core's, its verdict)."""
    team_only = {"answer", "verdict"}
    assert set(sheet_parts.EventQuestion.__annotations__) == \
        set(sheet_parts.SheetQuestion.__annotations__) - team_only
    assert set(sheet_parts.EventRound.__annotations__) == \
        set(sheet_parts.SheetRound.__annotations__)
    assert set(sheet_parts.EventSheet.__annotations__) == \
        set(sheet_parts.BuiltSheet.__annotations__) - {"team", "version"}
    # BG's event part sets a revealed final question's verdict for decorate to fill in
    assert set(bg_parts.BgEventQuestion.__annotations__) == \
        set(bg_parts.BgSheetQuestion.__annotations__) - {"answer", "second_verdict"}
    assert set(bg_parts.BgEventRound.__annotations__) == \
        set(bg_parts.BgSheetRound.__annotations__)
    assert set(bg_parts.BgEventSheet.__annotations__) == \
        set(sheet_parts.EventSheet.__annotations__)


def test_every_formats_sheet_model_has_its_typed_dict(app):
    """A format that adds to the sheet (Format.sheet_reply) has its builders' TypedDict
    in the table above."""
    mirrored = {model for _, model, _ in PAIRS}
    models = {formats.get(name).sheet_reply() for name in formats.names()} - {None}
    assert models and models <= mirrored


def test_a_missing_key_is_found():
    """The check can fail: a TypedDict without one of its model's keys differs."""
    every, _ = keys(bg_replies.BgSheetQuestion)
    assert set(bg_parts.BgEventQuestion.__annotations__) != every
