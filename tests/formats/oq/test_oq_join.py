"""OQ-1: joining an existing OpenQuiz team needs that team's invitation (issue 15). A new
team name still makes a new team with the joiner as its captain; an existing team takes
a player who brings its invitation (the code every player's phone shows as a link and a
QR code, or the team token of its share link), and refuses anyone else, translated,
changing nothing. OQ-8: a banned player's phone stays out even with the invitation; the
kick and the ban work as before. Time is the test's server clock (tests/buzzgame.py)."""

from __future__ import annotations

from urllib.parse import parse_qs, urlsplit

import pytest
from buzzgame import install_server_clock, make_event
from factories import Desk

from answerdesk.extensions import db
from answerdesk.formats.oq.models import OqPlayer
from answerdesk.models import AuditEntry, Team


@pytest.fixture
def desk(app, client, monkeypatch, english) -> Desk:
    install_server_clock(monkeypatch)
    return Desk(client, *make_event(app, "oq", {1: 3}))


def join(desk: Desk, lang: str = "en", **body):
    return desk.client.post(f"/api/events/{desk.code}/oq/join", json=body,
                            headers={"Accept-Language": lang})


def host(desk: Desk, path: str, **body):
    return desk.client.post(f"/api/host/events/{desk.code}/oq/{path}", json=body,
                            headers={"Authorization": f"Bearer {desk.password}"})


def invitation(desk: Desk, token: str | None):
    headers = {"Authorization": f"Bearer {token}"} if token else {}
    return desk.client.get(f"/api/events/{desk.code}/oq/invite", headers=headers)


def refusal(resp) -> tuple[int, str]:
    return resp.status_code, resp.get_json()["error"]


def rows(app) -> tuple[int, int, int]:
    """Teams, players and audit entries: what a refused join must leave as it was."""
    with app.app_context():
        return tuple(db.session.scalar(db.select(db.func.count()).select_from(model))
                     for model in (Team, OqPlayer, AuditEntry))


def teams(desk: Desk) -> list[dict]:
    return desk.client.get(f"/api/events/{desk.code}/state").get_json()["oq"]["teams"]


def test_oq1_an_existing_team_refuses_a_join_without_its_invitation(app, desk):
    first = join(desk, team="Сови", player="Ира")
    assert first.status_code == 201 and first.get_json()["captain"] is True
    ira, invite = first.get_json()["token"], first.get_json()["invite"]
    rival = join(desk, team="Лисици", player="Петя").get_json()
    before = rows(app)
    # A stranger who types the team's name (as typed: case and spaces aside) is refused,
    # translated, and nothing changes: no player, no audit entry.
    stranger = join(desk, team="  сови ", player="Чужд")
    assert refusal(stranger) == (403, "invitation_required")
    assert stranger.get_json()["message"] == (
        "The team 'Сови' exists already: ask its captain for the invitation link.")
    bulgarian = join(desk, lang="bg", team="Сови", player="Чужд")
    assert bulgarian.get_json()["message"] == (
        "Отборът „Сови“ вече съществува: поискайте от капитана му линка за покана.")
    russian = join(desk, lang="ru", team="Сови", player="Чужд")
    assert russian.get_json()["message"] == (
        "Команда «Сови» уже есть: попросите у её капитана ссылку-приглашение.")
    # An invitation that is not text is a bad body (issue 32: typed at the boundary).
    for wrong in (12345, ["a"]):
        refused = join(desk, team="Сови", player="Чужд", invite=wrong)
        assert refusal(refused) == (400, "bad_request"), wrong
        assert refused.get_json()["field"] == "invite"
        assert refused.get_json()["message"] == "invite must be text"
    # A wrong invitation: another team's, a player's own token, garbage.
    for wrong in (rival["invite"], ira, rival["token"], "x" * 22, "ы"):
        refused = join(desk, team="Сови", player="Чужд", invite=wrong)
        assert refusal(refused) == (403, "invitation_required"), wrong
    assert refused.get_json()["message"] == (
        "This invitation is not for the team 'Сови': ask its captain for the invitation "
        "link.")
    assert join(desk, team="Сови", player="Чужд", invite="  ").get_json()["message"] == (
        stranger.get_json()["message"])
    assert rows(app) == before
    assert teams(desk)[0] == {"team": "Сови", "players": ["Ира"], "captain": "Ира"}
    # With the invitation the teammate joins (not as the captain); a new name still
    # makes a new team with its first player as the captain, invitation or none.
    vasya = join(desk, team="сови", player="Вася", invite=invite)
    assert vasya.status_code == 201
    assert {k: vasya.get_json()[k] for k in ("team", "player", "captain", "invite")} == {
        "team": "Сови", "player": "Вася", "captain": False, "invite": invite}
    assert join(desk, team="Гарвани", player="Оля", invite=invite).get_json()["captain"]
    assert teams(desk)[0] == {"team": "Сови", "players": ["Ира", "Вася"], "captain": "Ира"}


def test_oq1_every_player_of_the_team_is_shown_its_invitation(app, desk):
    ira = join(desk, team="Сови", player="Ира").get_json()
    vasya = join(desk, team="Сови", player="Вася", invite=ira["invite"]).get_json()
    shown = invitation(desk, vasya["token"])
    assert shown.status_code == 200
    body = shown.get_json()
    assert (body["team"], body["invite"]) == ("Сови", ira["invite"])
    # The phone page's link with the invitation in its fragment (never sent to the
    # server, so never in its logs), and its QR code drawn here.
    link = urlsplit(body["url"])
    assert link.path == f"/e/{desk.code}/buzzer" and not link.query
    assert parse_qs(link.fragment) == {"team": ["Сови"], "invite": [ira["invite"]]}
    assert body["qr"].startswith("<svg") and 'class="qr"' in body["qr"]
    assert invitation(desk, ira["token"]).get_json() == body  # the captain's: the same
    # The team token alone is not a player: it has its share link; no token: 401.
    team_token = desk.join("Лисици", players=3)
    assert refusal(invitation(desk, team_token)) == (403, "player_required")
    assert invitation(desk, None).status_code == 401
    # The team token, the team's own share link, is an invitation too.
    petya = join(desk, team="Лисици", player="Петя", invite=team_token)
    assert petya.status_code == 201 and petya.get_json()["captain"] is True
    assert invitation(desk, petya.get_json()["token"]).get_json()["team"] == "Лисици"


def test_oq1_oq8_a_team_that_joins_again_has_a_new_invitation(app, desk):
    old = join(desk, team="Сови", player="Ира").get_json()["invite"]
    assert host(desk, "remove", kind="team", team="Сови").status_code == 200
    again = join(desk, team="Сови", player="Ира").get_json()
    assert again["captain"] is True and again["invite"] != old
    refused = join(desk, team="Сови", player="Вася", invite=old)
    assert refusal(refused) == (403, "invitation_required")
    assert join(desk, team="Сови", player="Вася", invite=again["invite"]).status_code == 201


def test_oq8_a_banned_players_phone_stays_out_with_the_invitation(app, desk):
    ira = join(desk, team="Сови", player="Ира").get_json()
    invite = ira["invite"]
    vasya = join(desk, team="Сови", player="Вася", invite=invite).get_json()
    # Kicked, not banned: he comes back with the invitation.
    assert host(desk, "remove", kind="player", team="Сови", player="Вася").status_code == 200
    assert invitation(desk, vasya["token"]).status_code == 401
    vasya = join(desk, team="Сови", player="Вася", invite=invite, previous=vasya["token"])
    assert vasya.status_code == 201
    banned_token = vasya.get_json()["token"]
    assert host(desk, "remove", kind="player", team="Сови", player="Вася",
                ban=True).status_code == 200
    before = rows(app)
    # Banned: his phone (the token it held) stays out under any name, in his team or
    # another, invitation or not; his name stays out of his team; nothing changes.
    for refused in (join(desk, team="Сови", player="Маша", invite=invite,
                         previous=banned_token),
                    join(desk, team="Сови", player="вася", invite=invite),
                    join(desk, team="Гарвани", player="Маша", previous=banned_token),
                    invitation(desk, banned_token)):
        assert refusal(refused) == (403, "banned")
    assert refused.get_json()["message"] == "The host has banned this player from the game."
    assert rows(app) == before
    assert teams(desk)[0] == {"team": "Сови", "players": ["Ира"], "captain": "Ира"}
    # A banned team stays out: its name makes no new team.
    assert host(desk, "remove", kind="team", team="Сови", ban=True).status_code == 200
    assert refusal(join(desk, team="Сови", player="Ира", invite=invite)) == (403, "banned")


def test_oq1_the_join_route_and_the_invitation_are_in_the_openapi_document(desk):
    document = desk.client.get("/api/openapi.json").get_json()
    paths = document["paths"]
    joined = paths["/api/events/{code}/oq/join"]["post"]
    ref = joined["requestBody"]["content"]["application/json"]["schema"]["$ref"]
    props = document["components"]["schemas"][ref.rsplit("/", 1)[1]]["properties"]
    assert {"team", "player", "invite", "previous"} <= set(props)
    assert "invitation_required" in joined["responses"]["403"]["description"]
    schemas = document["components"]["schemas"]

    def answer(response: dict) -> dict:  # the reply class the answer names (issue 32)
        return schemas[response["content"]["application/json"]["schema"]["$ref"].rsplit(
            "/", 1)[1]]

    created = answer(joined["responses"]["201"])
    assert {"token", "invite"} <= set(created["properties"])
    shown = paths["/api/events/{code}/oq/invite"]["get"]
    assert set(answer(shown["responses"]["200"])["properties"]) == {
        "team", "invite", "url", "qr"}
