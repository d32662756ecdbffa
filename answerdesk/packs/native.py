"""answerdesk's own pack format, in YAML or JSON (docs/packs.md).

It is what a host writes by hand for a pub-quiz evening and what any other
import can be saved as: every field of the dataclasses has a place, so
`load_native(dump_native(pack))` gives the same Pack back. Validation is strict
and names the line (YAML node marks; for JSON the same marks, read by the YAML
composer, with the JSON path as well) because a host fixes packs by hand.
"""

from __future__ import annotations

import base64
import binascii
import json
import re
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

import yaml

from ..checker.modes import MODES
from .model import (
    BG_ROUNDS,
    BG_SCENARIO_MODES,
    CHECK_MODES,
    MEDIA_KINDS,
    N_,
    ROUND_KINDS,
    TEXT_MODES,
    Key,
    Pack,
    PackError,
    QuestionSpec,
    RoundSpec,
    price_refusal,
)
from .textio import decode_text

MARKER = "answerdesk_pack"
VERSION = 1

_PACK_FIELDS = {MARKER, "title", "format", "rounds", "files", "warnings", "wildcard"}
_ROUND_FIELDS = {"number", "name", "kind", "points", "partial_points", "check_mode", "themes",
                 "questions"}
_QUESTION_FIELDS = {"number", "text", "key", "reject", "hint", "points", "comment", "source",
                    "author", "media", "answer", "note", "theme", "check_mode", "options",
                    "variant", "price"}
_EXT_KIND = {
    **dict.fromkeys(("jpg", "jpeg", "png", "gif", "webp", "svg", "bmp"), "image"),
    **dict.fromkeys(("mp3", "ogg", "oga", "wav", "m4a", "aac", "flac", "opus"), "audio"),
    **dict.fromkeys(("mp4", "webm", "mov", "mkv", "avi", "ogv", "m4v"), "video"),
}

Path = tuple[str | int, ...]
# Deeper than any pack needs (a key list in a question in a round is 6); the YAML
# composer and json recurse per level and would fail with RecursionError instead.
MAX_DEPTH = 32


def render_path(path: Path) -> str:
    """("rounds", 1, "questions", 3, "key") → "rounds[1].questions[3].key"."""
    out = ""
    for part in path:
        out += f"[{part}]" if isinstance(part, int) else (f".{part}" if out else part)
    return out or "(top level)"


@dataclass
class _Lines:
    """Where each value starts in the source, by path (1-based lines)."""

    lines: dict[Path, int]

    def where(self, path: Path) -> str:
        probe = path
        while probe and probe not in self.lines:
            probe = probe[:-1]
        line = self.lines.get(probe)
        if not line:
            return render_path(path)
        return N_("line %(line)s (%(path)s)", line=line, path=render_path(path))


def _collect_lines(node: yaml.Node, path: Path, out: dict[Path, int], dup_check: bool) -> None:
    out.setdefault(path, node.start_mark.line + 1)
    if isinstance(node, yaml.MappingNode):
        seen: set[str] = set()
        for k, v in node.value:
            name = str(k.value)
            if dup_check and name in seen:
                raise PackError("'%(field)s' appears twice in the same block",
                                N_("line %(line)s", line=k.start_mark.line + 1), field=name)
            seen.add(name)
            _collect_lines(v, (*path, name), out, dup_check)
    elif isinstance(node, yaml.SequenceNode):
        for i, v in enumerate(node.value):
            _collect_lines(v, (*path, i), out, dup_check)


def _yaml_error(exc: yaml.YAMLError) -> PackError:
    mark = getattr(exc, "problem_mark", None) or getattr(exc, "context_mark", None)
    problem = getattr(exc, "problem", None) or str(exc)
    where = N_("line %(line)s, column %(column)s", line=mark.line + 1,
               column=mark.column + 1) if mark else None
    return PackError("not valid YAML: %(reason)s", where, reason=problem)


def _too_deep(where: str | None) -> PackError:
    return PackError("the document is nested too deeply: at most %(depth)s levels", where,
                     depth=MAX_DEPTH)


def _json_depth(data: Any) -> int:
    """How deeply lists and objects nest in ``data`` (without recursion)."""
    deepest, stack = 0, [(data, 1)]
    while stack:
        value, depth = stack.pop()
        if isinstance(value, dict | list):
            deepest = max(deepest, depth)
            if depth <= MAX_DEPTH:
                items = value.values() if isinstance(value, dict) else value
                stack.extend((item, depth + 1) for item in items)
    return deepest


def _check_yaml_events(text: str) -> None:
    """Refuse anchors and aliases (&a, *a), and deep nesting, before anything is
    composed: ten nested levels of ten aliases each expand a few hundred bytes into
    ten billion nodes (the "billion laughs" of YAML)."""
    depth = 0
    for event in yaml.parse(text, Loader=yaml.SafeLoader):
        line = N_("line %(line)s", line=event.start_mark.line + 1)
        if isinstance(event, yaml.AliasEvent) or getattr(event, "anchor", None):
            raise PackError("YAML anchors and aliases (&name, *name) are not allowed: "
                            "write the value out", line)
        if isinstance(event, yaml.CollectionStartEvent):
            depth += 1
            if depth > MAX_DEPTH:
                raise _too_deep(line)
        elif isinstance(event, yaml.CollectionEndEvent):
            depth -= 1


def _read_document(text: str, as_json: bool) -> tuple[Any, _Lines]:
    if as_json:
        try:
            data = json.loads(text)
        except json.JSONDecodeError as exc:
            raise PackError("not valid JSON: %(reason)s",
                            N_("line %(line)s, column %(column)s", line=exc.lineno,
                               column=exc.colno), reason=exc.msg) from exc
        except RecursionError as exc:
            raise _too_deep(None) from exc
        if _json_depth(data) > MAX_DEPTH:
            raise _too_deep(None)
        lines: dict[Path, int] = {}
        try:  # JSON is (nearly) YAML: borrow the composer's marks for line numbers
            node = yaml.compose(text, Loader=yaml.SafeLoader)
            if node is not None:
                _collect_lines(node, (), lines, dup_check=False)
        except (yaml.YAMLError, PackError):
            lines = {}
        return data, _Lines(lines)
    try:
        _check_yaml_events(text)
    except yaml.YAMLError as exc:
        raise _yaml_error(exc) from exc
    loader = yaml.SafeLoader(text)
    try:
        node = loader.get_single_node()
        if node is None:
            raise PackError("the file is empty", N_("line %(line)s", line=1))
        lines = {}
        _collect_lines(node, (), lines, dup_check=True)
        data = loader.construct_document(node)
    except yaml.YAMLError as exc:
        raise _yaml_error(exc) from exc
    finally:
        loader.dispose()
    return data, _Lines(lines)


class _Validator:
    """Turns the loaded document into dataclasses, refusing what is wrong."""

    def __init__(self, lines: _Lines) -> None:
        self.lines = lines

    def fail(self, path: Path, message: str) -> PackError:
        """`message` is a `N_(...)` note: its msgid and values go into the error."""
        return PackError(message, self.lines.where(path))

    # -- scalar helpers ------------------------------------------------------
    def text(self, value: Any, path: Path, optional: bool = False,
             allow_empty: bool = False) -> str | None:
        if value is None and optional:
            return None
        if isinstance(value, bool) or not isinstance(value, str | int | float):
            raise self.fail(path, N_("expected text, got %(got)s (put it in quotes)",
                                      got=_kind(value)))
        out = str(value)
        if not out.strip() and not allow_empty:
            raise self.fail(path, N_("must not be empty"))
        return out

    def integer(self, value: Any, path: Path, minimum: int = 0) -> int:
        if isinstance(value, bool) or not isinstance(value, int):
            raise self.fail(path, N_("expected a whole number, got %(got)s", got=_kind(value)))
        if value < minimum:
            raise self.fail(path, N_("must be at least %(minimum)s", minimum=minimum))
        return value

    def strings(self, value: Any, path: Path, at_least: int = 1) -> list[str]:
        if isinstance(value, str | int | float) and not isinstance(value, bool):
            value = [value]
        if not isinstance(value, list):
            raise self.fail(path, N_("expected a list of answers, got %(got)s", got=_kind(value)))
        out = [self.text(v, (*path, i)) for i, v in enumerate(value)]
        if len(out) < at_least:
            raise self.fail(path, N_("needs at least %(count)s answer(s)", count=at_least))
        return [o for o in out if o is not None]

    def mapping(self, value: Any, path: Path, allowed: set[str]) -> dict[str, Any]:
        if not isinstance(value, dict):
            raise self.fail(path, N_("expected a block of fields, got %(got)s", got=_kind(value)))
        for k in value:
            if str(k) not in allowed:
                raise self.fail((*path, str(k)), N_("unknown field '%(field)s' (known: %(known)s)",
                                                    field=k, known=", ".join(sorted(allowed))))
        return value

    # -- keys --------------------------------------------------------------
    def key(self, raw: Any, reject: Any, mode: str, options: dict[str, str],
            path: Path) -> Key:
        """Check the key against its mode's shape (docs/checker.md)."""
        kpath = (*path, "key")
        if raw is None:
            raise self.fail(path, N_("question has no 'key' (the accepted answers)"))
        if reject is not None and mode not in TEXT_MODES:
            raise self.fail((*path, "reject"),
                            N_("'reject' is for exact/typo modes, not %(mode)s", mode=mode))
        shape = MODES[mode].key_shape
        check: dict[str, Callable[[Any, Path], Key]] = {
            "song": self.song_key, "pairs": self.pairs_key, "number": self.number_key,
        }
        if shape == "text":
            return self.text_key(raw, reject, kpath, path)
        if shape == "choice":
            labels = self.strings(raw, kpath)
            for i, label in enumerate(labels):
                if options and label not in options:
                    raise self.fail((*kpath, i), N_("'%(label)s' is not one of the options "
                                                    "%(options)s", label=label,
                                                    options=", ".join(options)))
            return labels
        return check[shape](raw, kpath)

    def text_key(self, raw: Any, reject: Any, kpath: Path, path: Path) -> Key:
        if isinstance(raw, dict):
            self.mapping(raw, kpath, {"accept", "reject"})
            if "accept" not in raw:
                raise self.fail(kpath, N_("key block needs 'accept': [answers]"))
            accept = self.strings(raw["accept"], (*kpath, "accept"))
            rejected = self.strings(raw.get("reject", []), (*kpath, "reject"), at_least=0)
            if reject is not None:
                rejected += self.strings(reject, (*path, "reject"), at_least=0)
            return {"accept": accept, "reject": rejected}
        if isinstance(raw, list | str | int | float) and not isinstance(raw, bool):
            accept = self.strings(raw, kpath)
            if reject is None:
                return accept
            return {"accept": accept,
                    "reject": self.strings(reject, (*path, "reject"), at_least=0)}
        raise self.fail(kpath, N_("expected a list of answers or {accept: [...], "
                                  "reject: [...]}, got %(got)s", got=_kind(raw)))

    def song_key(self, raw: Any, kpath: Path) -> Key:
        if not isinstance(raw, dict):
            raise self.fail(kpath, N_("song key must be {title: [...], artists: [[...], ...]}, "
                                      "got %(got)s", got=_kind(raw)))
        self.mapping(raw, kpath, {"title", "artists"})
        if "title" not in raw or "artists" not in raw:
            raise self.fail(kpath, N_("song key needs both 'title' and 'artists'"))
        title = self.strings(raw["title"], (*kpath, "title"))
        artists_raw = raw["artists"]
        if not isinstance(artists_raw, list) or not artists_raw:
            raise self.fail((*kpath, "artists"),
                            N_("'artists' must list each performer's spellings: [[...], ...]"))
        artists = [self.strings(a, (*kpath, "artists", i)) for i, a in enumerate(artists_raw)]
        return {"title": title, "artists": artists}

    def pairs_key(self, raw: Any, kpath: Path) -> Key:
        if not isinstance(raw, dict) or not raw:
            raise self.fail(kpath, N_('pairs key must map numbers to letters, e.g. {"1": "В"}, '
                                      "got %(got)s", got=_kind(raw)))
        out: dict[str, str] = {}
        for k, v in raw.items():
            name = str(k)
            if isinstance(k, bool) or not re.fullmatch(r"\d+", name):
                raise self.fail((*kpath, name), N_("pair '%(pair)s' must be a number", pair=name))
            out[name] = self.text(v, (*kpath, name)) or ""
        return dict(sorted(out.items(), key=lambda kv: int(kv[0])))

    def number_key(self, raw: Any, kpath: Path) -> Key:
        values = raw if isinstance(raw, list) else [raw]
        if not values:
            raise self.fail(kpath, N_("number key needs the number, e.g. [7]"))
        for i, v in enumerate(values):
            if isinstance(v, bool) or not isinstance(v, int | float):
                raise self.fail((*kpath, i) if isinstance(raw, list) else kpath,
                                N_("number key must hold numbers, got %(got)s", got=_kind(v)))
        return list(values)

    # -- media ---------------------------------------------------------------
    def media(self, raw: Any, path: Path) -> list[dict[str, str]]:
        items = raw if isinstance(raw, list) else [raw]
        out: list[dict[str, str]] = []
        for i, item in enumerate(items):
            ipath = (*path, i) if isinstance(raw, list) else path
            if isinstance(item, str):
                item = {"ref": item}
            item = self.mapping(item, ipath, {"kind", "ref", "stage"})
            ref = self.text(item.get("ref"), (*ipath, "ref")) or ""
            kind = item.get("kind") or _guess_kind(ref)
            if kind not in MEDIA_KINDS:
                raise self.fail(ipath, N_("media kind of '%(ref)s' unknown: give kind: %(kinds)s",
                                          ref=ref, kinds="|".join(MEDIA_KINDS)))
            entry = {"kind": kind, "ref": ref}
            stage = item.get("stage", "question")
            if stage not in ("question", "answer"):
                raise self.fail((*ipath, "stage"), N_("stage must be 'question' or 'answer'"))
            if stage == "answer":
                entry["stage"] = "answer"
            out.append(entry)
        return out

    # -- the document ------------------------------------------------------------
    def pack(self, data: Any, filename: str) -> Pack:
        doc = self.mapping(data, (), _PACK_FIELDS)
        if doc.get(MARKER) != VERSION:
            raise self.fail((MARKER,), N_("not an answerdesk pack: the file must start with "
                                          "'%(marker)s: %(version)s'", marker=MARKER,
                                          version=VERSION))
        if "title" not in doc:
            raise self.fail((), N_("the pack needs a 'title'"))
        title = self.text(doc.get("title"), ("title",)) or filename
        fmt = self.text(doc.get("format", "native"), ("format",)) or "native"
        rounds_raw = doc.get("rounds")
        if not isinstance(rounds_raw, list) or not rounds_raw:
            raise self.fail(("rounds",), N_("the pack needs 'rounds': a list of rounds"))
        files = self.files(doc.get("files") or {})
        warnings = self.strings(doc.get("warnings") or [], ("warnings",), at_least=0)
        rounds = [self.round(r, ("rounds", i), i + 1) for i, r in enumerate(rounds_raw)]
        seen: dict[int, int] = {}
        for i, r in enumerate(rounds):
            if r.number in seen:
                raise self.fail(("rounds", i, "number"),
                                N_("round number %(number)s used twice", number=r.number))
            seen[r.number] = i
        scenarios = self.scenarios(doc.get("wildcard"), ("wildcard",))
        return Pack(title=title, format=fmt, rounds=rounds, media=files, warnings=warnings,
                    scenarios=scenarios)

    def scenarios(self, raw: Any, path: Path) -> dict[str, list[QuestionSpec]]:
        """BG-R5: `{"5.4": [questions], …}`, each judged by its scenario's check mode."""
        if raw is None:
            return {}
        raw = self.mapping(raw, path, set(BG_SCENARIO_MODES))
        return {str(name): self.scenario_set(items, (*path, str(name)), str(name))
                for name, items in raw.items()}

    def scenario_set(self, raw: Any, path: Path, scenario: str) -> list[QuestionSpec]:
        """One scenario's questions; numbered by position unless they say otherwise."""
        if not isinstance(raw, list) or not raw:
            raise self.fail(path, N_("scenario %(scenario)s needs a list of questions",
                                     scenario=scenario))
        questions = [self.question(q, (*path, i), i + 1, BG_SCENARIO_MODES[scenario])
                     for i, q in enumerate(raw)]
        numbers = [q.number for q in questions]
        for i, n in enumerate(numbers):
            if n in numbers[:i]:
                raise self.fail((*path, i, "number"),
                                N_("question number %(number)s used twice in this round",
                                   number=n))
        return questions

    def files(self, raw: Any) -> dict[str, bytes]:
        if not isinstance(raw, dict):
            raise self.fail(("files",), N_("'files' maps a media ref to its base64 content"))
        out: dict[str, bytes] = {}
        for name, b64 in raw.items():
            try:
                out[str(name)] = base64.b64decode(str(b64 or ""), validate=True)
            except (binascii.Error, ValueError) as exc:
                raise self.fail(("files", str(name)), N_("not valid base64")) from exc
        return out

    def round(self, raw: Any, path: Path, position: int) -> RoundSpec:
        r = self.mapping(raw, path, _ROUND_FIELDS)
        number = self.integer(r.get("number", position), (*path, "number"), 1)
        defaults = BG_ROUNDS.get(number, {})
        kind = r.get("kind", defaults.get("kind"))
        mode = r.get("check_mode", defaults.get("check_mode"))
        if kind not in ROUND_KINDS:
            raise self.fail((*path, "kind"), _one_of("kind", ROUND_KINDS, kind))
        if mode not in CHECK_MODES:
            raise self.fail((*path, "check_mode"), _one_of("check_mode", CHECK_MODES, mode))
        points = self.integer(r.get("points", defaults.get("points")), (*path, "points"))
        partial = r.get("partial_points")
        if partial is not None:
            partial = self.integer(partial, (*path, "partial_points"))
        name = self.text(r.get("name", defaults.get("name", f"Round {number}")),
                         (*path, "name")) or ""
        themes = self.strings(r.get("themes") or [], (*path, "themes"), at_least=0)
        q_raw = r.get("questions") or []
        if not isinstance(q_raw, list):
            raise self.fail((*path, "questions"), N_("expected a list of questions"))
        questions = [self.question(q, (*path, "questions", i), i + 1, mode)
                     for i, q in enumerate(q_raw)]
        numbers = [q.number for q in questions]
        for i, n in enumerate(numbers):
            if n in numbers[:i]:
                raise self.fail((*path, "questions", i, "number"),
                                N_("question number %(number)s used twice in this round",
                                   number=n))
        return RoundSpec(number=number, name=name, kind=kind, points=points, check_mode=mode,
                         questions=questions, themes=themes, partial_points=partial)

    def question(self, raw: Any, path: Path, position: int, round_mode: str) -> QuestionSpec:
        q = self.mapping(raw, path, _QUESTION_FIELDS)
        mode = q.get("check_mode")
        if mode is not None and mode not in CHECK_MODES:
            raise self.fail((*path, "check_mode"),
                            _one_of("check_mode", CHECK_MODES, None))
        options_raw = q.get("options") or {}
        if not isinstance(options_raw, dict):
            raise self.fail((*path, "options"), N_("options map a letter to its text"))
        options = {str(k): self.text(v, (*path, "options", str(k))) or ""
                   for k, v in options_raw.items()}
        points = q.get("points")

        def opt(name: str) -> str | None:
            return self.text(q.get(name), (*path, name), optional=True)

        return QuestionSpec(
            number=self.integer(q.get("number", position), (*path, "number"), 1),
            text=self.text(q.get("text", ""), (*path, "text"), allow_empty=True) or "",
            key=self.key(q.get("key"), q.get("reject"), mode or round_mode, options, path),
            hint=opt("hint"),
            points=None if points is None else self.integer(points, (*path, "points")),
            comment=opt("comment"),
            source=opt("source"),
            author=opt("author"),
            media=self.media(q["media"], (*path, "media")) if q.get("media") else [],
            answer=opt("answer"),
            note=opt("note"),
            theme=opt("theme"),
            check_mode=mode,
            options=options,
            variant=opt("variant"),
            price=self.price(q["price"], (*path, "price")) if q.get("price") else None,
        )

    def price(self, raw: Any, path: Path) -> dict[str, int]:
        """A secret question's own price: {min, max, step} (SIGame's number set)."""
        block = self.mapping(raw, path, {"min", "max", "step"})
        price = {name: self.integer(block.get(name, 0), (*path, name))
                 for name in ("min", "max", "step")}
        refusal = price_refusal(price["min"], price["max"], price["step"])
        if refusal:
            raise PackError(refusal, self.lines.where(path), minimum=price["min"],
                            maximum=price["max"], step=price["step"])
        return price


def _one_of(field: str, allowed: tuple[str, ...], given: Any) -> str:
    choices = ", ".join(allowed)
    if given is None:
        return N_("%(field)s must be one of %(choices)s", field=field, choices=choices)
    return N_("%(field)s must be one of %(choices)s, not '%(given)s'", field=field,
              choices=choices, given=given)


def _kind(value: Any) -> str:
    if value is None:
        return N_("nothing")
    if isinstance(value, bool):
        return N_("a yes/no value")
    if isinstance(value, dict):
        return N_("a block of fields")
    if isinstance(value, list):
        return N_("a list")
    if isinstance(value, str):
        return N_("text '%(text)s'", text=value[:40])
    if isinstance(value, int | float):
        return N_("the number %(number)s", number=value)
    return type(value).__name__


def _guess_kind(ref: str) -> str | None:
    if re.search(r"youtube\.com|youtu\.be|vimeo\.com", ref):
        return "video"
    ext = ref.rsplit("?", 1)[0].rsplit(".", 1)[-1].lower() if "." in ref else ""
    return _EXT_KIND.get(ext)


def load_scenario_set(text: str, scenario: str) -> list[QuestionSpec]:
    """A scenario's questions as the host types them on the rules page: a YAML list
    of native questions (the same fields and checks as in a pack's `wildcard`)."""
    if scenario not in BG_SCENARIO_MODES:
        raise PackError("unknown scenario '%(scenario)s'", scenario=scenario)
    doc, lines = _read_document(text, as_json=False)
    return _Validator(lines).scenario_set(doc, (), scenario)


def load_native(data: str | bytes, filename: str = "pack.yaml") -> Pack:
    """Load a native pack (JSON or YAML, chosen by extension, else by content)."""
    text = decode_text(data, filename) if isinstance(data, bytes) else data
    lower = filename.lower()
    as_json = lower.endswith(".json") or (
        not lower.endswith((".yaml", ".yml")) and text.lstrip().startswith("{"))
    doc, lines = _read_document(text, as_json)
    return _Validator(lines).pack(doc, filename)


def _question_doc(q: QuestionSpec) -> dict[str, Any]:
    out: dict[str, Any] = {"number": q.number, "text": q.text}
    for name in ("theme", "points", "check_mode", "options", "key", "answer", "hint",
                 "media", "note", "comment", "source", "author", "variant", "price"):
        value = getattr(q, name)
        if value not in (None, [], {}):
            out[name] = value
    return out


def pack_document(pack: Pack) -> dict[str, Any]:
    """The native document for a Pack, as plain data (what dump_native writes)."""
    doc: dict[str, Any] = {MARKER: VERSION, "title": pack.title}
    if pack.format != "native":
        doc["format"] = pack.format
    doc["rounds"] = []
    for r in pack.rounds:
        rd: dict[str, Any] = {"number": r.number, "name": r.name, "kind": r.kind,
                              "points": r.points, "check_mode": r.check_mode}
        if r.partial_points is not None:
            rd["partial_points"] = r.partial_points
        if r.themes:
            rd["themes"] = list(r.themes)
        rd["questions"] = [_question_doc(q) for q in r.questions]
        doc["rounds"].append(rd)
    if pack.scenarios:
        doc["wildcard"] = {name: [_question_doc(q) for q in questions]
                           for name, questions in sorted(pack.scenarios.items())}
    if pack.media:
        doc["files"] = {k: base64.b64encode(v).decode("ascii") for k, v in pack.media.items()}
    if pack.warnings:
        doc["warnings"] = [str(w) for w in pack.warnings]
    return doc


def dump_questions(questions: list[QuestionSpec]) -> str:
    """Questions as the YAML list load_scenario_set reads back (the rules page)."""
    if not questions:
        return ""
    return yaml.safe_dump([_question_doc(q) for q in questions], allow_unicode=True,
                          sort_keys=False, width=100)


def dump_native(pack: Pack, fmt: str = "yaml") -> str:
    """Write a Pack as a native YAML (default) or JSON document."""
    doc = pack_document(pack)
    if fmt == "json":
        return json.dumps(doc, ensure_ascii=False, indent=2) + "\n"
    if fmt != "yaml":
        raise ValueError("fmt must be 'yaml' or 'json'")
    return yaml.dump(doc, Dumper=_PlainDumper, allow_unicode=True, sort_keys=False, width=100)


class _PlainDumper(yaml.SafeDumper):
    """Writes a value shared by two places twice, never as an anchor and alias,
    which load_native refuses."""

    def ignore_aliases(self, data: Any) -> bool:
        return True
