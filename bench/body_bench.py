"""The phone's save with a typed request body: pydantic 2 against msgspec (issue 32).

Three ways to read the save's body {"text", "fields", "seq"} once web.request_json
has parsed it, each ending where the save service starts (text, fields, counter):

- ``hand``: the hand-written isinstance checks the save had before issue 32, the
  anchor;
- ``pydantic``: a pydantic 2 model of the same fields (``model_validate``, strict);
- ``msgspec``: the save's own AnswerRequest (core/answers.py) read by
  answerdesk/bodies.py (``msgspec.convert``, strict), what the code now runs.

Two measures, in one run, as ratios to ``hand``:

1. in-process, the body's validation alone (µs per body, best of 15 runs, the three
   ways in turn within each run), and the JSON parse every way shares beside it;
2. end to end, PUT /api/events/C/answers/1/Q through the Flask test client on a
   fresh SQLite file (the token, the lock check, the write, the audit row, the
   receipt), the save's body reading swapped for each way request by request, so
   a busy machine slows the three alike.

    .venv/bin/python bench/body_bench.py [--bodies 20000] [--saves 1500]
"""

from __future__ import annotations

import argparse
import json
import os
import random
import statistics
import sys
import tempfile
import time
from pathlib import Path
from typing import Annotated, Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

import msgspec  # noqa: E402
import pydantic  # noqa: E402

from answerdesk import create_app  # noqa: E402
from answerdesk.bodies import read  # noqa: E402
from answerdesk.core import answers, rounds, teams  # noqa: E402
from answerdesk.errors import DeskError  # noqa: E402
from answerdesk.extensions import db  # noqa: E402
from answerdesk.formats.bg.demo import create_demo_event  # noqa: E402
from answerdesk.web import _check_json  # noqa: E402

MAX_SEQ = answers.MAX_SEQ
BODIES = [
    b'{"text":"Paris","seq":1}',
    b'{"text":"\\u0412\\u0430\\u0437\\u043e\\u0432","seq":12}',
    b'{"text":"1885","fields":{"year":"1885"},"seq":3}',
    b'{"text":"Marie Curie and Pierre Curie","fields":null}',
]


def hand(body: Any) -> tuple[Any, Any, Any]:
    """The save's checks before issue 32 (core/answers.py _phone_body)."""
    if not isinstance(body, dict):
        raise DeskError("The request body must be a JSON object")
    seq = body.get("seq")
    if seq is not None and (not isinstance(seq, int) or isinstance(seq, bool)
                            or not 0 <= seq <= MAX_SEQ):
        raise DeskError("seq must be a non-negative whole number")
    return body.get("text", ""), body.get("fields"), seq


class PydanticAnswer(pydantic.BaseModel):
    model_config = pydantic.ConfigDict(extra="ignore", strict=True)
    text: str = ""
    fields: dict[str, Any] | list[Any] | None = None
    seq: Annotated[int, pydantic.Field(ge=0, le=MAX_SEQ)] | None = None


def with_pydantic(body: Any) -> tuple[Any, Any, Any]:
    try:
        got = PydanticAnswer.model_validate(body)
    except pydantic.ValidationError as error:
        raise DeskError("The request body is not valid") from error
    return got.text, got.fields, got.seq


def with_msgspec(body: Any) -> tuple[Any, Any, Any]:
    got = read(answers.AnswerRequest, body)
    return got.text, got.fields, got.seq


WAYS = {"hand": hand, "pydantic": with_pydantic, "msgspec": with_msgspec}


def parse(raw: bytes) -> Any:
    """What web.request_json does before any way reads the body."""
    body = json.loads(raw)
    _check_json(body)
    return body


def in_process(count: int) -> dict[str, float]:
    """µs per body: each way on bodies parsed beforehand, and the shared parse."""
    raws = (BODIES * (count // len(BODIES) + 1))[:count]
    parsed = [parse(raw) for raw in raws]
    best: dict[str, float] = {}
    for _ in range(15):
        start = time.perf_counter()
        for raw in raws:
            parse(raw)
        took = (time.perf_counter() - start) / count * 1e6
        best["parse"] = min(best.get("parse", took), took)
        for name, way in WAYS.items():
            start = time.perf_counter()
            for body in parsed:
                way(body)
            took = (time.perf_counter() - start) / count * 1e6
            best[name] = min(best.get(name, took), took)
    return best


def end_to_end(saves: int) -> dict[str, float]:
    """ms per save through the test client, the body reading swapped for each way
    request by request (median per way)."""
    folder = tempfile.mkdtemp(prefix="body-bench-")
    app = create_app({"SQLALCHEMY_DATABASE_URI": f"sqlite:///{folder}/bench.db",
                      "SECRET_KEY": "bench", "RATELIMIT_ENABLED": False})
    with app.app_context():
        db.create_all()
        event, _ = create_demo_event()
        rounds.open_round(event, 1)
        _, token = teams.register_team(event, "Bench", 4)
        code = event.code
        questions = len(event.round(1).questions)
        db.session.commit()
    client = app.test_client()
    headers = {"Authorization": f"Bearer {token}", "Content-Type": "application/json"}
    original = answers._phone_body
    swapped = {}
    for name, way in WAYS.items():
        def read_body(body: Any, way=way) -> tuple[Any, Any, Any]:
            text, fields, seq_ = way(body)
            return answers._clean(text, fields), fields, seq_
        swapped[name] = read_body
    times: dict[str, list[float]] = {name: [] for name in WAYS}
    names = list(WAYS)
    order = random.Random(32)
    trio: list[str] = []
    try:
        for i in range(saves + 3 * len(names)):
            if not trio:  # each trio the three ways in a shuffled order, one question
                trio = order.sample(names, len(names))
            name = trio.pop()
            answers._phone_body = swapped[name]
            body = json.dumps({"text": f"answer {i}", "seq": i + 1})
            start = time.perf_counter()
            question = (i // len(names)) % questions + 1  # the three ways alike
            reply = client.put(f"/api/events/{code}/answers/1/{question}",
                               data=body, headers=headers)
            took = (time.perf_counter() - start) * 1e3
            assert reply.status_code == 200, reply.get_data(as_text=True)
            if i >= 3 * len(names):  # the first rounds warm the caches
                times[name].append(took)
    finally:
        answers._phone_body = original
    return {name: statistics.median(t) for name, t in times.items()}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--bodies", type=int, default=20000)
    parser.add_argument("--saves", type=int, default=1500)
    args = parser.parse_args()
    os.environ.setdefault("RATELIMIT_ENABLED", "0")
    print(f"pydantic {pydantic.VERSION}, msgspec {msgspec.__version__}")
    alone = in_process(args.bodies)
    print("in-process, validation alone (µs per body, best of 15):")
    for name, us in alone.items():
        print(f"  {name:9s} {us:7.2f} µs   {us / alone['hand']:.2f}x hand")
    whole = end_to_end(args.saves)
    print(f"end to end, PUT answer (ms per save, median of {args.saves // 3} each):")
    for name, ms in whole.items():
        print(f"  {name:9s} {ms:7.3f} ms   {ms / whole['hand']:.3f}x hand")


if __name__ == "__main__":
    main()
