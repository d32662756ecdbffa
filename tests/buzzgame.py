"""Buzzer games in the test's database: an event, a board, phones on simulated clocks
(shared by the tests of formats/buzzer, formats/oq and formats/si)."""

from __future__ import annotations

from dataclasses import dataclass

import pytest
import requests

from answerdesk.core.events import create_event
from answerdesk.core.text import team_name_key
from answerdesk.extensions import db
from answerdesk.formats.buzzer import presses
from answerdesk.models import Question

T0 = 1_800_000_000_000  # the server's clock when the question opens (epoch ms)


class ServerClock:
    """The server's clock as the buzzer reads it, moved by the test (network delays
    are simulated by stamping each request at its arrival)."""

    def __init__(self) -> None:
        self.ms = T0 - 60_000

    def __call__(self) -> int:
        return self.ms


def install_server_clock(monkeypatch: pytest.MonkeyPatch) -> ServerClock:
    """Make the buzzer read the test's clock instead of the system's."""
    clock = ServerClock()
    monkeypatch.setattr(presses, "now_ms", clock)
    return clock


def make_event(app, fmt: str, rounds: dict[int, int]) -> tuple[str, str]:
    """An event of ``fmt`` whose rounds get ``rounds[r]`` questions each."""
    with app.app_context():
        event, password = create_event(f"{fmt} night", format=fmt)
        for rnd in event.rounds:
            for n in range(1, rounds.get(rnd.number, 0) + 1):
                rnd.questions.append(Question(number=n, text=f"Q{rnd.number}.{n}",
                                              key={"accept": [f"answer {rnd.number}.{n}"]}))
        db.session.commit()
        return event.code, password


def start_question(via, code: str, password: str, rnd: int, q: int, *,
                   clock: ServerClock | None = None, at_ms: int | None = None,
                   **body) -> dict:
    """The host starts a question through core's real start endpoint (the format's
    ``start_question`` hook shapes it); ``via`` is the app's test client, or a served
    app's base URL. With the test's server clock, the start is stamped at ``at_ms``."""
    if clock is not None and at_ms is not None:
        clock.ms = at_ms
    path = f"/api/host/events/{code}/rounds/{rnd}/questions/{q}/start"
    headers = {"Authorization": f"Bearer {password}"}
    if isinstance(via, str):
        resp = requests.post(via + path, json=body, headers=headers, timeout=10)
        assert resp.status_code == 200, resp.text
        return resp.json()
    resp = via.post(path, json=body, headers=headers)
    assert resp.status_code == 200, resp.get_json()
    return resp.get_json()


#: OQ-1: each team's invitation, as its first player's join answered it, by the event's
#: code and the team's name key: a later player of the team joins with it.
_INVITES: dict[tuple[str, str], str] = {}


def oq_player(via, code: str, team: str, player: str | None = None,
              invite: str | None = None) -> str:
    """OQ-1: a player joins through the phone's join form (a new team: as its captain;
    an existing one: with its invitation, ``invite`` or the one its first player got
    here) and gets the token of their own that OpenQuiz is played with; ``via`` is the
    app's test client or a served app's base URL."""
    path = f"/api/events/{code}/oq/join"
    body = {"team": team, "player": player or f"{team} 1"}
    known = invite or _INVITES.get((code, team_name_key(team)))
    if known:
        body["invite"] = known
    if isinstance(via, str):
        resp = requests.post(via + path, json=body, timeout=10)
        assert resp.status_code == 201, resp.text
        joined = resp.json()
    else:
        resp = via.post(path, json=body)
        assert resp.status_code == 201, resp.get_json()
        joined = resp.get_json()
    _INVITES[(code, team_name_key(team))] = joined["invite"]
    return joined["token"]


@dataclass
class Phone:
    """A team's phone: its clock is ``skew_ms`` off the server's; requests take
    ``out_ms`` to reach the server and ``back_ms`` to come back."""

    client: object
    code: str
    token: str
    clock: ServerClock
    skew_ms: int
    out_ms: int
    back_ms: int
    last: dict | None = None

    def local(self, server_ms: int) -> int:
        return server_ms + self.skew_ms

    @property
    def auth(self) -> dict:
        return {"Authorization": f"Bearer {self.token}"}

    def sync(self, at_ms: int, out_ms: int | None = None, back_ms: int | None = None) -> dict:
        """One sync exchange started at the server time ``at_ms``."""
        out = self.out_ms if out_ms is None else out_ms
        back = self.back_ms if back_ms is None else back_ms
        sent = self.local(at_ms)
        self.clock.ms = at_ms + out
        body = {"client_ms": sent, **({"last": self.last} if self.last else {})}
        resp = self.client.post(f"/api/events/{self.code}/clock", json=body, headers=self.auth)
        assert resp.status_code == 200, resp.get_json()
        reply = resp.get_json()
        self.last = {"client_ms": sent, "server_ms": reply["server_ms"],
                     "received_ms": self.local(at_ms + out + back)}
        return reply

    def press(self, at_ms: int, rnd: int = 1, q: int = 1, claimed_ms: int | None = None):
        """A press at the server time ``at_ms``; it arrives ``out_ms`` later."""
        self.clock.ms = at_ms + self.out_ms
        claimed = self.local(at_ms) if claimed_ms is None else claimed_ms
        return self.client.post(f"/api/events/{self.code}/buzz", headers=self.auth,
                                json={"round": rnd, "question": q, "pressed_at_ms": claimed})


def phone_post(phone: Phone, path: str, **body):
    """A phone's POST to ``/api/events/<code>/<path>`` with its token."""
    return phone.client.post(f"/api/events/{phone.code}/{path}", json=body, headers=phone.auth)


def host_post(desk, path: str, **body):
    """The host's POST to ``/api/host/events/<code>/<path>`` with the host password."""
    return desk.client.post(f"/api/host/events/{desk.code}/{path}", json=body,
                            headers={"Authorization": f"Bearer {desk.password}"})


def game_state(desk) -> dict:
    """``GET /api/events/<code>/state``, as phones and the projector poll it."""
    return desk.client.get(f"/api/events/{desk.code}/state").get_json()


def oq_scores(desk) -> dict[str, int]:
    """OpenQuiz points by team name from the state."""
    return {s["team"]: s["points"] for s in game_state(desk)["oq"]["scores"]}
