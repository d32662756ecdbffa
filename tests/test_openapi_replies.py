"""The OpenAPI document's responses come from the reply models (answerdesk/api/replies.py),
and what the routes really send fits them (issue 32: the document cannot drift).

Each real response is checked twice: converted into its model by msgspec (a key the
model does not know, a missing one or a wrong type fails; a Reply allows no other key),
and validated against the schema the served document gives for it.
"""

from __future__ import annotations

import datetime as dt
from typing import get_args

import msgspec
import pytest
from buzzgame import make_event, start_question
from factories import Desk
from replycheck import fits, schema_of, served_document, validates

from answerdesk import errors
from answerdesk.api import replies
from answerdesk.api.replies import (
    CheckMode,
    CreatedEvent,
    CurrentClock,
    Error,
    JoinedTeam,
    QuestionClock,
    RoundMoved,
    SavedAnswer,
    SaveReply,
    Sheet,
    SheetDelta,
    Standings,
    State,
    WidgetKind,
)
from answerdesk.checker.modes import MODES
from answerdesk.core import formats
from answerdesk.core.receipts import ReceiptCheck
from answerdesk.formats.bg.replies import BgSheet
from answerdesk.formats.si.replies import SiState
from answerdesk.packs.model import ROUND_KINDS


def test_response_schemas_are_generated_from_the_reply_models(client):
    document = served_document(client)
    schemas = document["components"]["schemas"]
    _, generated = msgspec.json.schema_components(
        [SaveReply, SavedAnswer, State, Sheet, SheetDelta, Error, Standings, RoundMoved,
         ReceiptCheck],
        ref_template="#/components/schemas/{name}")
    for name, schema in generated.items():
        served = schemas[name]
        for field in schema.get("properties", {}).values():
            if "x-registered" in field:  # its values are the registry's (below)
                field["enum"] = replies.REGISTERED[field.pop("x-registered")]()
        if name == "State":  # the formats' public_state parts join the model's fields
            assert {k: served["properties"][k] for k in schema["properties"]} == \
                schema["properties"]
            assert served["required"] == schema["required"]
        else:
            assert served == schema, name
    ref = "#/components/schemas/{}".format
    save = "/api/events/{code}/answers/{round}/{question}"
    assert schema_of(document, save, "put") == {"$ref": ref("SaveReply")}
    assert schema_of(document, save, "put", "409") == {"$ref": ref("Error")}
    assert schema_of(document, "/api/events/{code}/state", "get") == {"$ref": ref("State")}
    # core's sheet, each format's that adds to it (Format.sheet_reply), the delta
    assert schema_of(document, "/api/events/{code}/sheet", "get") == {
        "anyOf": [{"$ref": ref(name)} for name in
                  ("Sheet", "BgSheet", "ChgkSheet", "SiSheet", "SheetDelta")]}
    # every schema a response names is one the models made
    assert set(replies.components()) <= set(schemas)


def test_real_responses_fit_their_documented_schemas(client, desk):
    document = served_document(client)
    token = desk.join("Сови")
    auth = {"Authorization": f"Bearer {token}"}
    save = "/api/events/{code}/answers/{round}/{question}"
    opened = desk.host(2, "open")
    fits(document, "/api/host/events/{code}/rounds/{round}/open", "post", "200",
          opened.get_json(), RoundMoved)

    saved = desk.save(token, 2, 1, "Левски", seq=1)
    assert saved.status_code == 200
    fits(document, save, "put", "200", saved.get_json(), SaveReply)
    with_state = client.put(f"/api/events/{desk.code}/answers/2/2?with=state",
                            json={"text": "Марица", "fields": None, "seq": 1}, headers=auth)
    assert "state" in with_state.get_json()
    fits(document, save, "put", "200", with_state.get_json(), SaveReply)

    state = client.get(f"/api/events/{desk.code}/state").get_json()
    fits(document, "/api/events/{code}/state", "get", "200", state, State)

    sheet = client.get(f"/api/events/{desk.code}/sheet", headers=auth).get_json()
    assert sheet["rounds"][0]["questions"][0]["answer"]["text"] == "Левски"
    fits(document, "/api/events/{code}/sheet", "get", "200", sheet, BgSheet)
    before = (dt.datetime.fromisoformat(sheet["now"].rstrip("Z"))
              - dt.timedelta(minutes=1)).isoformat() + "Z"
    delta = client.get(f"/api/events/{desk.code}/sheet", headers=auth,
                       query_string={"since": before, "version": sheet["version"]}).get_json()
    assert delta["delta"] is True and delta["answers"]
    fits(document, "/api/events/{code}/sheet", "get", "200", delta, SheetDelta)

    standings = client.get(f"/api/events/{desk.code}/standings").get_json()
    fits(document, "/api/events/{code}/standings", "get", "200", standings, Standings)

    receipt = client.get(f"/api/host/events/{desk.code}/receipts/2/1",
                         query_string={"team": "Сови", "code": saved.get_json()["receipt"]},
                         headers={"Authorization": f"Bearer {desk.password}"}).get_json()
    assert receipt["valid"] is True
    fits(document, "/api/host/events/{code}/receipts/{round}/{question}", "get", "200",
          receipt, ReceiptCheck)

    # refusals: a bad body names its field, a missing round, a locked one (BG-E2)
    bad = client.put(f"/api/events/{desk.code}/answers/2/1", json={"seq": "x"}, headers=auth)
    assert bad.status_code == 400 and bad.get_json()["field"] == "seq"
    fits(document, save, "put", "400", bad.get_json(), Error)
    missing = desk.save(token, 9, 1, "x")
    assert missing.status_code == 404
    fits(document, save, "put", "404", missing.get_json(), Error)
    desk.host(2, "close")
    locked = desk.save(token, 2, 1, "късно")
    assert locked.status_code == 409
    fits(document, save, "put", "409", locked.get_json(), Error)


def test_created_event_and_joined_team_fit(app, client):
    document = served_document(client)
    created = client.post("/api/events", json={"name": "Replies night", "format": "bg"},
                          headers={"Authorization":
                                   f"Bearer {app.config['ORGANISER_PASSWORD']}"})
    assert created.status_code == 201
    fits(document, "/api/events", "post", "201", created.get_json(), CreatedEvent)
    joined = client.post(f"/api/events/{created.get_json()['code']}/teams",
                         json={"name": "Сови", "players": 3})
    assert joined.status_code == 201
    fits(document, "/api/events/{code}/teams", "post", "201", joined.get_json(), JoinedTeam)


def test_the_question_clock_and_a_formats_state_fit(app, client):
    """CHGK-1.1's clock as the host starts it and as phones read it, and a state whose
    format adds nothing but its clock marker; before the first start the clock is null."""
    document = served_document(client)
    code, password = make_event(app, "chgk", {1: 3})
    host = {"Authorization": f"Bearer {password}"}
    empty = client.get(f"/api/events/{code}/clock").get_json()
    assert empty == {"clock": None}
    fits(document, "/api/events/{code}/clock", "get", "200", empty, CurrentClock)
    assert client.post(f"/api/host/events/{code}/rounds/1/open", headers=host).status_code \
        == 200
    started = client.post(f"/api/host/events/{code}/rounds/1/questions/1/start",
                          json={"seconds": 60, "grace": 10}, headers=host)
    assert started.status_code == 200
    fits(document, "/api/host/events/{code}/rounds/{round}/questions/{question}/start",
          "post", "200", started.get_json(), QuestionClock)
    running = client.get(f"/api/events/{code}/clock").get_json()
    assert running["clock"]["seconds"] == 60
    fits(document, "/api/events/{code}/clock", "get", "200", running, CurrentClock)
    state = client.get(f"/api/events/{code}/state").get_json()
    assert state["question"] == {"round": 1, "question": 1, "state": "open"}
    fits(document, "/api/events/{code}/state", "get", "200", state, State)
    again = client.post(f"/api/host/events/{code}/rounds/1/questions/1/start", headers=host)
    assert again.status_code == 409
    fits(document, "/api/host/events/{code}/rounds/{round}/questions/{question}/start",
          "post", "409", again.get_json(), Error)


def test_a_formats_part_of_the_state_fits_its_reply(app, client):
    """Своя игра's part of GET /state (SI-2.4 lists, scores, SI-3 protests) is its
    SiState reply, at the start, once published and while a protest is heard."""
    document = served_document(client)
    assert document["components"]["schemas"]["State"]["properties"]["si"] == {
        "$ref": "#/components/schemas/SiState"}
    desk = Desk(client, *make_event(app, "si", {1: 25, 2: 25, 3: 25}))
    tokens = [desk.join(name, players=1) for name in ("Вася", "Ира")]
    host = {"Authorization": f"Bearer {desk.password}"}

    def state_fits() -> dict:
        state = client.get(f"/api/events/{desk.code}/state").get_json()
        fits(document, "/api/events/{code}/state", "get", "200", state, State)
        msgspec.convert(state["si"], SiState, strict=True)
        return state["si"]

    assert state_fits()["current"] is None
    start_question(client, desk.code, desk.password, 1, 1)
    for token, text in zip(tokens, ("answer 1.1", "не знам"), strict=True):
        sent = client.post(f"/api/events/{desk.code}/si/answers",
                           json={"round": 1, "question": 1, "text": text},
                           headers={"Authorization": f"Bearer {token}"})
        assert sent.status_code == 201
    for step in ("close", "publish"):
        assert client.post(f"/api/host/events/{desk.code}/si/rounds/1/questions/1/{step}",
                           headers=host).status_code == 200
    published = state_fits()
    assert published["current"]["state"] == "published" and published["current"]["lists"]
    assert client.post(f"/api/events/{desk.code}/si/protests",
                       json={"round": 1, "question": 1, "text": "Мой ответ верен"},
                       headers={"Authorization": f"Bearer {tokens[1]}"}).status_code == 201
    assert state_fits()["protests"][0]["state"] == "filed"


def test_a_key_the_model_does_not_know_is_caught(client, desk):
    """The check above can fail: a save answer with one more key, or one key fewer, fits
    neither the model nor the document."""
    document = served_document(client)
    token = desk.join("Сови")
    desk.host(2, "open")
    body = desk.save(token, 2, 1, "Левски").get_json()
    save = "/api/events/{code}/answers/{round}/{question}"
    with pytest.raises(AssertionError):
        fits(document, save, "put", "200", {**body, "points": 2}, SaveReply)
    del body["receipt"]
    with pytest.raises(AssertionError):
        fits(document, save, "put", "200", body, SaveReply)


def _refs(schema: dict) -> list[str]:
    """The component names a response schema points to; [] for a schema written by hand."""
    if "$ref" in schema and len(schema) == 1:
        return [schema["$ref"].rsplit("/", 1)[1]]
    choices = schema.get("anyOf", [])
    named = [c["$ref"].rsplit("/", 1)[1] for c in choices if "$ref" in c]
    plain = [c for c in choices if "$ref" not in c]
    return named if named and all(c == {"type": "null"} for c in plain) else []


def test_every_answer_and_every_formats_state_part_is_a_reply_model(client):
    """No route, core's or a format's, describes its JSON answer by hand any more: each
    2xx answer and each format's part of GET /state names a reply class (issue 32)."""
    document = served_document(client)
    schemas = document["components"]["schemas"]
    by_hand = []
    for path, operations in document["paths"].items():
        for method, operation in operations.items():
            for status, response in operation["responses"].items():
                content = response.get("content", {}).get("application/json")
                if status.startswith("2") and content is not None:
                    names = _refs(content["schema"])
                    if not names or not all(n in schemas for n in names):
                        by_hand.append(f"{method} {path} {status}")
    assert by_hand == []
    core = set(msgspec.json.schema_components([State])[1]["State"]["properties"])
    parts = {k: v for k, v in schemas["State"]["properties"].items() if k not in core}
    assert {"si", "oq", "buzzer"} <= set(parts)
    assert all(_refs(part) for part in parts.values()), parts


def test_the_fixed_values_replies_list_are_the_tables_the_code_uses():
    """A reply's Literal of fixed values is the code's own table (the check modes, the
    widgets they draw): a mode added to the table and not to the reply fails here, not
    on a night (issue 32)."""
    assert set(get_args(CheckMode)) == set(MODES)
    widgets = {m.widget for m in MODES.values()} - {"choice"} | {"truefalse", "abcd"}
    assert set(get_args(WidgetKind)) == widgets


def _subclasses(cls: type) -> list[type]:
    return [cls, *(sub for direct in cls.__subclasses__() for sub in _subclasses(direct))]


def test_the_document_lists_every_refusals_code(client):
    """Error.error is an enum of every refusal's code, core's and each format's
    (errors.codes, read from the DeskError classes loaded): a client can switch on
    them, and a refusal with a code the document does not list fits no schema."""
    document = served_document(client)
    listed = document["components"]["schemas"]["Error"]["properties"]["error"]["enum"]
    assert listed == errors.codes()
    assert {cls.code for cls in _subclasses(errors.DeskError)} == set(listed)
    # core's, the errors module's, and one of each format's (SI, OpenQuiz, the buzzer)
    assert {"round_locked", "bad_pack", "not_invited", "busy", "late_join_closed",
            "game_full", "already_pressed", "bid_refused"} <= set(listed)
    save = "/api/events/{code}/answers/{round}/{question}"
    refusal = errors.RoundLocked("Round %(round)s is locked.", round=2).to_json()
    fits(document, save, "put", "409", refusal, Error)
    with pytest.raises(AssertionError):
        fits(document, save, "put", "409", {**refusal, "error": "round_lockd"}, Error)


def test_the_routes_that_answer_without_a_class_use_listed_codes():
    """web.py's 404 for an unknown API path and serving.py's refusal of a too-large
    body are written by hand: their codes are refusal classes' codes too."""
    from pathlib import Path

    from answerdesk import serving, web

    assert '"error": "not_found"' in Path(web.__file__).read_text(encoding="utf-8")
    assert b'"error": "too_large"' in serving._REFUSAL_BODY
    assert (errors.NotFound.code, errors.TooLarge.code) == ("not_found", "too_large")
    assert {"not_found", "too_large"} <= set(errors.codes())


def test_the_document_lists_every_round_kind(app, client):
    """A sheet round's kind is an enum (formats.round_kinds): a pack's kinds, each
    format's programme's and what it plays an imported round as; BG's sheet round keeps
    its own, the pack kinds. Every round each format's programme makes is listed, and
    a kind nobody makes fits no schema."""
    document = served_document(client)
    schemas = document["components"]["schemas"]
    listed = schemas["SheetRound"]["properties"]["kind"]["enum"]
    assert listed == formats.round_kinds()
    assert set(ROUND_KINDS) | {"sequential", "oq-final"} == set(listed)
    for name in formats.names():
        fmt = formats.get(name)
        assert {t.kind for t in fmt.programme()} <= set(listed), name
        assert {fmt.imported_kind(1, kind) for kind in ROUND_KINDS} <= set(listed), name
    assert sorted(schemas["BgSheetRound"]["properties"]["kind"]["enum"]) == sorted(ROUND_KINDS)
    part = {"number": 1, "name": "Игра 1", "kind": "sequential", "points": 1,
            "state": "open", "questions": []}
    schema = {"$ref": "#/components/schemas/SheetRound"}
    validates(document, schema, part)
    with pytest.raises(AssertionError):
        validates(document, schema, {**part, "kind": "sequentiall"})
