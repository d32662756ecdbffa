"""What the charts draw (issue 19): the standings over the rounds, and how the room
answered a question. Plain data for static/charts.js (Chart.js, vendored); the
pages put it in a ``data-chart`` attribute, so nothing else is fetched."""

from __future__ import annotations

import json
from collections import Counter
from collections.abc import Sequence
from typing import Any

from flask import current_app
from flask_babel import get_locale, gettext
from markupsafe import Markup, escape

from .. import live
from ..checker.normalize import normalize
from ..extensions import db
from ..models import Answer, Event, Verdict
from . import formats

MAX_LINES = 12  # a projector legend of more teams is unreadable
MAX_BARS = 8


def chart_json(data: Any) -> Markup:
    """Chart data for a ``data-chart`` attribute: JSON with every character that HTML
    or a naive filter could read as markup (< > & ' " =) escaped twice over."""
    text = json.dumps(data, ensure_ascii=False)
    for char in "<>&'=":
        text = text.replace(char, f"\\u{ord(char):04x}")
    return escape(text)


def standings_series(rows: Sequence[Any], round_word: str = "Round %(n)s",
                     caption: str = "Points after each round") -> dict[str, Any]:
    """Each team's running total after every scored round, leaders first.

    ``rows`` are a format's standing rows (``name``, ``by_round``), in its order;
    ``round_word`` the format's msgid for a round on the axis (``Format.chart_round``),
    ``caption`` the chart's (``Format.chart_caption``).
    """
    round_label = gettext(round_word)
    scored = sorted({n for row in rows for n in row.by_round})
    series = []
    for row in rows[:MAX_LINES]:
        total, points = 0.0, []
        for number in scored:
            total += row.by_round.get(number, 0)
            points.append(round(total, 2))
        series.append({"name": row.name, "points": points})
    return {"type": "standings", "labels": [round_label % {"n": n} for n in scored],
            "series": series, "caption": gettext(caption)}


def event_standings_chart(event: Event) -> dict[str, Any]:
    """The event's standings over the rounds as its format ranks them: what the desk
    draws and every format's results export carries (issue 19)."""
    game = formats.of(event)
    return standings_series(list(game.standings(event)), game.chart_round, game.chart_caption)


#: Standings charts a process keeps at most (one per event and language).
KEPT_CHARTS = 64


def desk_standings_chart(event: Event) -> dict[str, Any]:
    """event_standings_chart as the desk for the night draws it, kept per event, screen
    version (live.screen_version, read first) and language in this process when the
    format's standings move only with an audited change (Format.standings_follow_screen).

    The desk fetches itself again whenever the desk's version moves, every two seconds
    while teams type; at a 300-team night the standings cost it 10 ms of its worker's
    GIL each time, and a phone's save never moves them (bench/host_pages_bench.py
    --typed, bench/README.md)."""
    if not formats.of(event).standings_follow_screen:
        return event_standings_chart(event)
    version = live.screen_version(event.id)
    key = (event.id, str(get_locale()))
    kept = current_app.extensions.setdefault("answerdesk.desk_charts", {})
    hit = kept.get(key)
    if hit is not None and hit[0] == version:
        return hit[1]
    if len(kept) >= KEPT_CHARTS:
        kept.clear()
    chart = event_standings_chart(event)
    kept[key] = (version, chart)
    return chart


def answer_distribution(question_ids: list[int]) -> dict[int, dict[str, Any]]:
    """Per question: clusters of the same answer (normalised), how many teams gave
    each and the verdict that counts for it, most given first; the rest summed."""
    if not question_ids:
        return {}
    rows = db.session.execute(
        db.select(Answer.question_id, Answer.text, Verdict.outcome, Verdict.decision)
        .join(Verdict, Verdict.answer_id == Answer.id, isouter=True)
        .where(Answer.question_id.in_(question_ids), Answer.text != "")
    ).all()
    counts: dict[int, Counter] = {}
    shown: dict[tuple[int, str], str] = {}
    norms: dict[str, str] = {}  # 300 teams type far fewer different texts
    for qid, text, outcome, decision in rows:
        norm = norms.get(text)
        if norm is None:
            norm = norms[text] = normalize(text)
        verdict = decision or outcome or "review"
        counts.setdefault(qid, Counter())[(norm, verdict)] += 1
        shown.setdefault((qid, norm), text)
    result = {}
    for qid, counter in counts.items():
        ranked = counter.most_common()
        bars = [{"text": shown[(qid, norm)], "teams": n, "verdict": verdict}
                for (norm, verdict), n in ranked[:MAX_BARS]]
        rest = sum(n for _, n in ranked[MAX_BARS:])
        result[qid] = {"type": "answers", "bars": bars, "rest": rest}
    return result
