"""From a parsed pack to an event's rounds and questions, and back.

The parsers (the rest of this package) are pure; this is the one step that
writes. An import is all or nothing: the rounds, the questions, the audit entry
and the media files are written together, and any failure leaves the event as
it was (the transaction is rolled back and the files it added are removed).

An event whose teams have not answered anything yet gets the pack as its whole
programme (mode "replace"); once answers exist the programme stays, and a pack
can only be added after the existing rounds (mode "append").
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from .. import media
from ..core import audit
from ..core.formats import REGISTRY
from ..errors import Conflict
from ..extensions import db
from ..models import Answer, Event, Question, Round
from .mediatypes import screen_media, sniff
from .model import N_, Pack, PackError, QuestionSpec, RoundSpec

MODES = ("replace", "append")
# What a question carries beyond the checker's needs, kept in Question.details.
DETAIL_FIELDS = ("options", "answer", "note", "theme", "comment", "source", "author", "variant",
                 "price")
MAX_ROUND_NAME = 200
# A pack is written in one transaction, which holds SQLite's write lock (phones'
# saves wait): 20,000 questions held it for 9 s. No evening has more than this.
MAX_QUESTIONS = 2000
MAX_HINT = 16
# The preview lists this many warnings and missing media files, then says how many more:
# a pack of a million entries made a 14.9 MB page (issue 31, finding 5).
MAX_LISTED = 50


def _shortened(warnings: list[Any]) -> list[Any]:
    """The first MAX_LISTED warnings, and a line counting the rest."""
    if len(warnings) <= MAX_LISTED:
        return warnings
    return [*warnings[:MAX_LISTED],
            N_("… and %(count)s more warnings", count=len(warnings) - MAX_LISTED)]


@dataclass
class RoundSummary:
    number: int
    name: str
    kind: str
    points: int
    check_mode: str
    questions: int
    media: int


@dataclass
class PackSummary:
    """What the host sees before confirming: the programme the event will get."""

    title: str
    format: str
    rounds: list[RoundSummary]
    question_count: int
    media_files: int
    warnings: list[str]
    missing_media: list[str]
    missing_more: int = 0  # missing media files beyond those listed
    mode: str = "replace"
    replaces: list[int] = field(default_factory=list)
    blocked: str | None = None
    layout: Any = None  # the format's pack_layout: what the host may lay out


@dataclass
class ImportReport:
    rounds: list[int]
    question_count: int
    media_files: int
    replaced: list[int]
    warnings: list[str]


def _answered_rounds(event: Event) -> list[int]:
    return list(db.session.scalars(
        db.select(Round.number).distinct()
        .join(Question, Question.round_id == Round.id)
        .join(Answer, Answer.question_id == Question.id)
        .where(Round.event_id == event.id)
        .order_by(Round.number)
    ))


def _numbers(event: Event | None, pack: Pack, mode: str) -> list[int]:
    """Round numbers the pack's rounds will get: their own, or after the event's last."""
    if mode == "replace" or event is None:
        return [r.number for r in pack.rounds]
    offset = max((r.number for r in event.rounds), default=0)
    return [offset + i + 1 for i in range(len(pack.rounds))]


def _check_mode(mode: str) -> None:
    if mode not in MODES:
        raise ValueError(f"mode must be one of {', '.join(MODES)}")


def _blocked(event: Event, mode: str) -> Conflict | None:
    """The refusal of a replace once teams have answered, shown in the reader's language."""
    if mode != "replace":
        return None
    answered = _answered_rounds(event)
    if answered:
        return Conflict("Teams have already answered in round(s) %(rounds)s: the programme "
                        "cannot be replaced. Add the pack after the existing rounds instead.",
                        rounds=", ".join(str(n) for n in answered))
    return None


def _check_size(pack: Pack) -> None:
    if pack.question_count > MAX_QUESTIONS:
        raise PackError("the pack has %(count)s questions: at most %(most)s can be imported",
                        count=pack.question_count, most=MAX_QUESTIONS)


def _shaped(event: Event | None, pack: Pack, layout: Sequence[int] | None) -> Pack:
    """The pack as the event's game plays it (Format.shape_pack)."""
    fmt = REGISTRY.get(event.format) if event is not None else None
    return fmt.shape_pack(pack, layout) if fmt else pack


def preview(pack: Pack, event: Event | None = None, mode: str = "replace",
            layout: Sequence[int] | None = None) -> PackSummary:
    """The summary shown before an import; `blocked` says why it would be refused.
    ``layout``: the host's choice where the game lets the host lay the pack out."""
    _check_mode(mode)
    fmt = REGISTRY.get(event.format) if event is not None else None
    chosen = fmt.pack_layout(pack, layout) if fmt else None
    pack = _shaped(event, pack, layout)
    _check_size(pack)
    screen_media(pack)
    numbers = _numbers(event, pack, mode)
    blocked = _blocked(event, mode) if event else None
    missing = pack.missing_media()
    rounds = [
        RoundSummary(number=n, name=r.name, kind=r.kind, points=r.points,
                     check_mode=r.check_mode, questions=len(r.questions),
                     media=sum(len(q.media) for q in r.questions))
        for n, r in zip(numbers, pack.rounds, strict=True)
    ]
    return PackSummary(
        title=pack.title, format=pack.format, rounds=rounds,
        question_count=pack.question_count, media_files=len(pack.media),
        warnings=_shortened(pack.warnings_for(_plays(event)) + _length_warnings(pack)),
        missing_media=missing[:MAX_LISTED], missing_more=max(0, len(missing) - MAX_LISTED),
        mode=mode,
        replaces=[r.number for r in event.rounds] if event and mode == "replace" else [],
        blocked=str(blocked) if blocked else None, layout=chosen,
    )


def _plays(event: Event | None) -> frozenset[str]:
    """The pack question types the event's format plays with their own rules (OQ-3)."""
    fmt = REGISTRY.get(event.format) if event is not None else None
    return fmt.plays_variants if fmt else frozenset()


def _length_warnings(pack: Pack) -> list[str]:
    out: list[str] = []
    for r in pack.rounds:
        if len(r.name) > MAX_ROUND_NAME:
            out.append(N_("Round %(round)s: the name is cut to %(limit)s characters",
                          round=r.number, limit=MAX_ROUND_NAME))
        for q in r.questions:
            if q.hint and len(q.hint) > MAX_HINT:
                out.append(N_("Round %(round)s, question %(question)s: the hint is cut to "
                              "%(limit)s characters", round=r.number, question=q.number,
                              limit=MAX_HINT))
    return out


def _partial_points(event: Event, spec: RoundSpec, number: int) -> int | None:
    """The pack's own value, else the programme's for the same round (BG-R4.1)."""
    if spec.partial_points is not None:
        return spec.partial_points
    programme = REGISTRY[event.format].programme() if event.format in REGISTRY else ()
    template = next((t for t in programme if t.number == number), None)
    if template and template.kind == spec.kind:
        return template.partial_points
    return None


def _kind(event: Event, spec: RoundSpec, number: int) -> str:
    """The round's kind as the event's format plays it (an imported ЧГК tour is a
    game on the clock, CHGK-1.1); the pack's own kind otherwise."""
    fmt = REGISTRY.get(event.format)
    return fmt.imported_kind(number, spec.kind) if fmt else spec.kind


def question_row(spec: QuestionSpec, code: str, files: dict[str, bytes],
                 created: list[Path]) -> Question:
    """A pack's question as a (transient) row; its media files are stored, and their
    paths added to ``created`` so a failed import can remove them."""
    items = []
    for item in spec.media:
        entry = dict(item)
        data = files.get(item["ref"])
        found = sniff(data) if data is not None else None
        if data is not None and found is not None:
            entry["file"], path = media.store(code, data, found[1])
            if path is not None:
                created.append(path)
        items.append(entry)
    details = {name: getattr(spec, name) for name in DETAIL_FIELDS
               if getattr(spec, name) not in (None, "", {}, [])}
    return Question(
        number=spec.number, text=spec.text, key=spec.key,
        hint=spec.hint[:MAX_HINT] if spec.hint else spec.hint,
        check_mode=spec.check_mode, points=spec.points,
        media=items or None, details=details or None,
    )


def import_pack(event: Event, pack: Pack, actor: str, mode: str = "replace",
                layout: Sequence[int] | None = None) -> ImportReport:
    """Write the pack's rounds into the event in one transaction (see the module
    docstring for replace/append), as the event's game plays them (``layout``: the
    host's choice on the preview). Raises Conflict when answers forbid a replace."""
    _check_mode(mode)
    pack = _shaped(event, pack, layout)
    blocked = _blocked(event, mode)
    if blocked:
        raise blocked
    _check_size(pack)
    screen_media(pack)
    numbers = _numbers(event, pack, mode)
    replaced = [r.number for r in event.rounds] if mode == "replace" else []
    created: list[Path] = []
    try:
        if mode == "replace":
            event.rounds.clear()
            db.session.flush()
        for number, spec in zip(numbers, pack.rounds, strict=True):
            rnd = Round(
                number=number, name=spec.name[:MAX_ROUND_NAME], kind=_kind(event, spec, number),
                points=spec.points, partial_points=_partial_points(event, spec, number),
                check_mode=spec.check_mode, themes=list(spec.themes) or None,
            )
            rnd.questions = [question_row(q, event.code, pack.media, created)
                             for q in spec.questions]
            event.rounds.append(rnd)
        db.session.flush()
        game = REGISTRY.get(event.format)
        if game is not None:  # what the pack carries beyond its rounds (BG-R5 sets)
            game.import_pack_extras(
                event, pack, replace=mode == "replace",
                to_row=lambda spec: question_row(spec, event.code, pack.media, created))
        report = ImportReport(
            rounds=numbers, question_count=pack.question_count,
            media_files=len({m["ref"] for q in _all_questions(pack)
                             for m in q.media if m["ref"] in pack.media}),
            replaced=replaced, warnings=pack.warnings_for(_plays(event)) + _length_warnings(pack),
        )
        audit.record(event, actor, "pack.import", pack.title[:200], after={
            "format": pack.format, "mode": mode, "rounds": numbers,
            "questions": pack.question_count, "replaced": replaced,
            "scenarios": sorted(pack.scenarios),
        })
        db.session.flush()
    except BaseException:
        db.session.rollback()  # the files written above go with the rows
        for path in created:
            path.unlink(missing_ok=True)
        raise
    if mode == "replace":
        kept = {m["file"] for r in event.rounds for q in r.questions
                for m in q.media or [] if "file" in m}
        if game is not None:  # the files of what the format keeps beside (BG-R5 sets)
            kept |= game.media_files(event)
        media.forget_unused(event.code, kept)
    return report


def _all_questions(pack: Pack) -> list[QuestionSpec]:
    """The rounds' questions and those of the pack's scenario sets (BG-R5)."""
    return [q for r in pack.rounds for q in r.questions] + [
        q for questions in pack.scenarios.values() for q in questions]


def question_spec(q: Question, code: str, files: dict[str, bytes]) -> QuestionSpec:
    """A question row as a pack's question; its stored media files go into ``files``."""
    items = []
    for entry in q.media or []:
        item = {k: v for k, v in entry.items() if k != "file"}
        if "file" in entry and entry["ref"] not in files:
            data = media.read(code, entry["file"])
            if data is not None:
                files[entry["ref"]] = data
        items.append(item)
    details: dict[str, Any] = q.details or {}
    return QuestionSpec(
        number=q.number, text=q.text, key=q.key, hint=q.hint, points=q.points,
        check_mode=q.check_mode, media=items,
        **{name: details[name] for name in DETAIL_FIELDS if name in details},
    )


def export_pack(event: Event) -> Pack:
    """The event's programme as a native pack, media files included, so that it can
    be saved, edited by hand and imported again with nothing lost."""
    files: dict[str, bytes] = {}
    rounds = [
        RoundSpec(
            number=r.number, name=r.name, kind=r.kind, points=r.points,
            check_mode=r.check_mode, themes=list(r.themes or []),
            partial_points=r.partial_points,
            questions=[question_spec(q, event.code, files) for q in r.questions],
        )
        for r in event.rounds
    ]
    pack = Pack(title=event.name, format="native", rounds=rounds, media=files)
    game = REGISTRY.get(event.format)
    if game is not None:
        game.export_pack_extras(event, pack, lambda q: question_spec(q, event.code, files))
    return pack


def attach_local_media(pack: Pack, folder: Path) -> list[str]:
    """Read media files a pack names by relative path from the pack's own folder
    (a hand-written YAML beside its pictures); never outside that folder."""
    root = folder.resolve()
    found = []
    for ref in pack.missing_media():
        path = (root / ref).resolve()
        if path.is_relative_to(root) and path.is_file():
            pack.media[ref] = path.read_bytes()
            found.append(ref)
    return found
