"""The real app under gunicorn's threaded workers, over real HTTP (BG-E2)."""

from __future__ import annotations

import threading

import pytest
import requests

pytestmark = pytest.mark.slow


def api(base: str, code: str) -> str:
    return f"{base}/api/events/{code}"


def test_night_over_gunicorn(live_demo):
    base, code, password = live_demo
    host = {"Authorization": f"Bearer {password}"}
    join = requests.post(f"{api(base, code)}/teams", json={"name": "Сови", "players": 3})
    assert join.status_code == 201
    dup = requests.post(f"{api(base, code)}/teams", json={"name": "сОВИ"})
    assert dup.status_code == 409
    team = {"Authorization": f"Bearer {join.json()['token']}"}
    assert requests.post(f"{base}/api/host/events/{code}/rounds/2/open").status_code == 401
    assert requests.post(f"{base}/api/host/events/{code}/rounds/2/open",
                         headers=host).status_code == 200
    saved = requests.put(f"{api(base, code)}/answers/2/2", json={"text": "Марица"}, headers=team)
    assert saved.status_code == 200 and saved.json()["receipt"]
    assert requests.post(f"{base}/api/host/events/{code}/rounds/2/close",
                         headers=host).json()["state"] == "locked"
    late = requests.put(f"{api(base, code)}/answers/2/2", json={"text": "Дунав"}, headers=team)
    assert late.status_code == 409 and late.json()["round"] == 2
    sheet = requests.get(f"{api(base, code)}/sheet", headers=team).json()
    assert sheet["rounds"][0]["questions"][1]["answer"]["text"] == "Марица"
    standings = requests.get(f"{api(base, code)}/standings").json()["standings"]
    assert standings[0]["team"] == "Сови" and standings[0]["points"] == 2


def test_lock_race_loses_nothing_and_accepts_nothing_late(live_demo):
    """Saves racing the host's close: each is acknowledged-and-kept or refused."""
    base, code, password = live_demo
    host = {"Authorization": f"Bearer {password}"}
    tokens = [requests.post(f"{api(base, code)}/teams", json={"name": f"T{i}"}).json()["token"]
              for i in range(8)]
    requests.post(f"{base}/api/host/events/{code}/rounds/2/open", headers=host)
    acked: dict[tuple[str, int], str] = {}
    refused: list[int] = []
    lock = threading.Lock()
    stop = threading.Event()

    def phone(token: str) -> None:
        session = requests.Session()
        n = 0
        while not stop.is_set() and n < 200:
            n += 1
            text = f"answer {n}"
            q = n % 4 + 1
            resp = session.put(f"{api(base, code)}/answers/2/{q}", json={"text": text},
                               headers={"Authorization": f"Bearer {token}"})
            with lock:
                if resp.status_code == 200:
                    acked[(token, q)] = text
                elif resp.status_code == 409:
                    refused.append(n)
                    return
                else:
                    raise AssertionError(resp.text)

    threads = [threading.Thread(target=phone, args=(t,)) for t in tokens]
    for t in threads:
        t.start()
    threading.Event().wait(0.5)
    closed = requests.post(f"{base}/api/host/events/{code}/rounds/2/close", headers=host)
    assert closed.status_code == 200
    stop.set()
    for t in threads:
        t.join(30)
    assert acked, "no save was acknowledged before the lock"
    for token in tokens:
        sheet = requests.get(f"{api(base, code)}/sheet",
                             headers={"Authorization": f"Bearer {token}"}).json()
        stored = {q["number"]: (q["answer"] or {}).get("text")
                  for q in sheet["rounds"][0]["questions"]}
        for (tok, q), text in acked.items():
            if tok == token:
                assert stored[q] == text  # the last acknowledged edit is the one kept
