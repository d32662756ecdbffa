"""core.teams.team_named: the one lookup of a team by its exact name, whose refusal a
format names (OpenQuiz: "No team called …"; Своя игра, whose teams are players: "No
player called …"); both stay in the catalogue and reach the host translated."""

from __future__ import annotations

import pytest
from buzzgame import make_event
from factories import Desk

from answerdesk.core.events import event_by_code
from answerdesk.core.teams import team_named
from answerdesk.errors import Conflict, NotFound
from answerdesk.formats.si.players import NO_PLAYER


def test_the_lookup_finds_the_exact_name_and_refuses_with_the_formats_message(app, client):
    desk = Desk(client, *make_event(app, "si", {1: 5}))
    desk.join("Вася", players=1)
    with app.app_context():
        event = event_by_code(desk.code)
        assert team_named(event, "Вася").name == "Вася"
        for wrong in ("вася", "Вася ", None, 7, ["Вася"]):
            with pytest.raises(NotFound) as err:
                team_named(event, wrong)
            assert err.value.template == "No team called '%(name)s'."
        with pytest.raises(NotFound) as err:
            team_named(event, "Ира", NO_PLAYER)
        assert err.value.message == "No player called 'Ира'."
        with pytest.raises(Conflict) as err:
            team_named(event, "x" * 100, NO_PLAYER, Conflict)
        assert err.value.message == f"No player called '{'x' * 60}'."


@pytest.mark.parametrize(("fmt", "path", "body", "ru"), [
    ("si", "si/warnings", {"player": "Никто"}, "Нет игрока «Никто»."),
    ("oq", "oq/captain", {"team": "Никто", "player": "Ира"}, "Нет команды «Никто»."),
])
def test_each_format_refuses_an_unknown_name_in_its_own_words(app, client, fmt, path, body,
                                                              ru):
    code, password = make_event(app, fmt, {1: 5})
    resp = client.post(f"/api/host/events/{code}/{path}", json=body, headers={
        "Authorization": f"Bearer {password}", "Accept-Language": "ru"})
    assert (resp.status_code, resp.get_json()["error"]) == (404, "not_found")
    assert resp.get_json()["message"] == ru
