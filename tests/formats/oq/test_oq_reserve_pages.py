"""Issue 31, finding 7 (OQ-1, OQ-8): the host lets teams into an OpenQuiz room one by
one from the room page, takes one off the list, and a banned address stays out even
under a name on the list. Acts through the host's forms (Flask test client) and the
phones' join, each phone from an address of its own."""

from __future__ import annotations

import re

from buzzgame import make_event


def test_31_7_the_host_lets_teams_in_one_by_one_and_a_banned_address_stays_out(
        app, client, english):
    code, password = make_event(app, "oq", {1: 3})
    assert client.post(f"/host/{code}/login", data={"password": password}).status_code == 302

    def page() -> str:
        return client.get(f"/host/{code}/oq").get_data(as_text=True)

    def join(team: str, player: str, address: str):
        return client.post(f"/api/events/{code}/oq/join", json={"team": team, "player": player},
                           environ_base={"REMOTE_ADDR": address})

    assert "No list: any team may join." in page()
    # A prankster's team got in before the host made a list; the host bans it.
    assert join("Шегаджии", "Пешо", "10.0.0.66").status_code == 201
    assert client.post(f"/host/{code}/oq/remove", data={
        "kind": "team", "team": "Шегаджии", "ban": "1"}).status_code == 302

    for team in ("Сови", "  Гарвани ", "сови"):  # one by one; the same team once
        assert client.post(f"/host/{code}/oq/reserve/add",
                           data={"team": team}).status_code == 302
    html = page()
    assert re.findall(r'data-reserved="([^"]+)"', html) == ["Сови", "Гарвани"]
    assert html.count("expected") == 2
    empty = client.post(f"/host/{code}/oq/reserve/add", data={"team": "  "})
    assert empty.status_code == 400 and "The team&#39;s name is empty." in empty.get_data(
        as_text=True)

    stranger = join("Лисици", "Ани", "10.0.0.7")
    assert stranger.status_code == 403 and stranger.get_json()["error"] == "not_reserved"
    assert join("Сови", "Ира", "10.0.0.8").status_code == 201
    # the banned address stays out, even under a name the host has listed
    banned = join("Гарвани", "Гошо", "10.0.0.66")
    assert banned.status_code == 403 and banned.get_json()["error"] == "banned"
    html = page()
    assert 'data-reserved="Сови">Сови · in the game' in html
    assert 'data-reserved="Гарвани">Гарвани · expected' in html

    # one team off the list: it is refused; the team already in stays
    assert client.post(f"/host/{code}/oq/reserve/remove",
                       data={"team": "Сови"}).status_code == 302
    assert re.findall(r'data-reserved="([^"]+)"', page()) == ["Гарвани"]
    assert join("Лисици", "Ани", "10.0.0.7").status_code == 403  # still refused
    assert 'data-team="Сови"' in page()
    assert join("Гарвани", "Ани", "10.0.0.10").status_code == 201
