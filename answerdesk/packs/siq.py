"""SIGame packs (.siq): a zip with content.xml and media folders.

Versions 3 and 4 describe a question as `<scenario><atom type=…>` fragments;
version 5 as `<params><param name="question"><item type=…>`. Both list right
answers in `<right><answer>` and distractors in `<wrong><answer>`; the wrong
answers become the key's reject list, so the checker never auto-accepts them.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from typing import Any
from urllib.parse import unquote
from xml.etree import ElementTree as ET
from xml.parsers import expat

from .archive import Archive
from .model import N_, Pack, PackError, QuestionSpec, RoundSpec, price_refusal, text_key

MAX_CONTENT_XML = 20 * 1024 * 1024
MAX_UNUSED_LISTED = 20  # the preview names this many unused media files, then counts
_FOLDER_FOR_KIND = {"image": "Images", "audio": "Audio", "video": "Video"}
_ATOM_KIND = {"image": "image", "voice": "audio", "audio": "audio", "video": "video"}

# SIGame question types (v3/v4 <type name>, v5 type attribute), normalised.
_TYPE_ALIASES = {
    "": "simple", "simple": "simple", "forall": "forall",
    "auction": "stake", "stake": "stake",
    "cat": "secret", "bagcat": "secret", "secret": "secret",
    "secretpublicprice": "secret", "secretnoquestion": "secret",
    "sponsored": "norisk", "norisk": "norisk",
    "choice": "select", "select": "select",
}
# A v4 secret's cost: a price, or a number set "[100;500]" / "[200;1000]/200" (SIGame's
# NumberSetTypeConverter syntax; without a step: the minimum or the maximum).
_COST_SET = re.compile(r"\[(\d+);(\d+)\](?:/(\d+))?")
_UNSUPPORTED = {
    "stake": N_("a stake (auction) question: teams cannot bid in answerdesk; "
                "played for its price"),
    "secret": N_("a secret (cat in bag) question: answerdesk cannot hand a question to one "
                 "team; played by all teams for its price"),
    "norisk": N_("a no-risk question: answerdesk has no no-risk scoring yet; a wrong answer "
                 "scores 0 as usual"),
}


def _local(tag: str) -> str:
    """Tag name without the namespace: v3, v4 and v5 each use their own."""
    return tag.rsplit("}", 1)[-1]


def _children(el: ET.Element, name: str) -> Iterator[ET.Element]:
    return (c for c in el if _local(c.tag) == name)


def _child(el: ET.Element | None, name: str) -> ET.Element | None:
    if el is None:
        return None
    return next(_children(el, name), None)


def _inside(el: ET.Element, name: str) -> ET.Element:
    """The `name` child, or the element itself when the wrapper is missing
    (an Element with no children is falsy, so `or` cannot be used)."""
    found = _child(el, name)
    return el if found is None else found


def _text(el: ET.Element | None) -> str:
    return "".join(el.itertext()).strip() if el is not None else ""


def _refuse_dtd(data: bytes) -> None:
    """Reject DOCTYPE and ENTITY declarations before ElementTree sees the bytes.

    The standard library expands internal entities ("billion laughs"); defusedxml
    is not installed, so this does its job: a package never needs a DTD.
    """
    parser = expat.ParserCreate()

    def refuse(*_args: Any) -> None:
        raise PackError("DOCTYPE/ENTITY declarations are not allowed (line %(line)s)",
                        "content.xml", line=parser.CurrentLineNumber)

    parser.StartDoctypeDeclHandler = refuse
    parser.EntityDeclHandler = refuse
    try:
        parser.Parse(data, True)
    except expat.ExpatError as exc:
        raise PackError("malformed XML: %(reason)s",
                        N_("content.xml: line %(line)s, column %(column)s",
                           line=exc.lineno, column=exc.offset + 1),
                        reason=expat.ErrorString(exc.code)) from exc


def _parse_xml(data: bytes) -> ET.Element:
    _refuse_dtd(data)
    try:
        return ET.fromstring(data)
    except ET.ParseError as exc:  # expat already accepted it; kept for safety
        line, col = exc.position
        raise PackError("malformed XML: %(reason)s",
                        N_("content.xml: line %(line)s, column %(column)s",
                           line=line, column=col + 1), reason=str(exc)) from exc


def _open_zip(data: bytes, filename: str) -> tuple[Archive, dict[str, Any]]:
    """The archive (packs/archive.py's guard, names URL-unquoted as SIGame writes them)
    and its media entries, keyed "Images/<unquoted name>"."""
    try:
        archive = Archive(data, filename, spell=unquote)
    except PackError as err:
        if err.message == "not a zip file":
            raise PackError("not a zip file (a .siq pack is a zip archive)", filename) from None
        raise
    media = {name: info for name, info in archive.entries.items()
             if name.split("/", 1)[0] in _FOLDER_FOR_KIND.values()}
    return archive, media


def _read_content(archive: Archive, filename: str) -> bytes:
    if "content.xml" not in archive:
        raise PackError("no content.xml in the archive: not a SIGame pack", filename)
    if archive.entries["content.xml"].file_size > MAX_CONTENT_XML:
        raise PackError("content.xml is implausibly large", filename)
    return archive.read("content.xml")


class _Reader:
    """Builds the Pack from the parsed content.xml."""

    def __init__(self, root: ET.Element, media: dict[str, Any], filename: str) -> None:
        self.root = root
        self.media = media
        self.filename = filename
        self.warnings: list[str] = []
        self.type_warnings: list[tuple[str, str]] = []
        self.used_media: set[str] = set()

    # -- media -------------------------------------------------------------
    def media_ref(self, kind: str, value: str, is_ref: bool, where: str) -> dict[str, str]:
        """A media item: a file in the zip ("Images/x.png") or an outside URL."""
        value = value.strip()
        if value.startswith("@"):
            value, is_ref = value[1:], True
        if not is_ref or re.match(r"^[a-z]+://", value, re.IGNORECASE):
            return {"kind": kind, "ref": value}
        ref = f"{_FOLDER_FOR_KIND[kind]}/{value}"
        if ref not in self.media:
            hit = next((k for k in self.media if k.split("/", 1)[-1] == value), None)
            if hit is None:
                self.warnings.append(N_("%(where)s: media file '%(file)s' is not in the pack",
                                          where=where, file=value))
            else:
                ref = hit
        self.used_media.add(ref)
        return {"kind": kind, "ref": ref}

    # -- question content ----------------------------------------------------
    def content_v4(self, q: ET.Element, where: str) -> tuple[list[str], list[dict[str, str]]]:
        texts: list[str] = []
        media: list[dict[str, str]] = []
        after_marker = False
        for atom in _children(_inside(q, "scenario"), "atom"):
            kind = (atom.get("type") or "text").lower()
            value = atom.text or ""
            if kind == "marker":
                after_marker = True
            elif kind in _ATOM_KIND:
                item = self.media_ref(_ATOM_KIND[kind], value, False, where)
                if after_marker:
                    item["stage"] = "answer"
                media.append(item)
            elif kind == "html":
                self.warnings.append(N_("%(where)s: HTML content kept as a video link: %(link)s",
                                      where=where, link=value))
                media.append({"kind": "video", "ref": value.strip()})
            elif value.strip() and not after_marker:
                texts.append(value.strip())
        return texts, media

    def content_v5(self, q: ET.Element, where: str) -> tuple[list[str], list[dict[str, str]],
                                                           dict[str, str], str]:
        texts: list[str] = []
        media: list[dict[str, str]] = []
        options: dict[str, str] = {}
        answer_type = "text"
        for param in _children(_inside(q, "params"), "param"):
            name = param.get("name", "")
            if name in ("question", "answer"):
                for item in _children(param, "item"):
                    kind = (item.get("type") or "text").lower()
                    value = item.text or ""
                    if kind in _ATOM_KIND:
                        ref = self.media_ref(_ATOM_KIND[kind], value,
                                             item.get("isRef", "").lower() == "true", where)
                        if name == "answer":
                            ref["stage"] = "answer"
                        media.append(ref)
                    elif kind == "html":
                        self.warnings.append(N_("%(where)s: HTML content kept as a video link",
                                              where=where))
                        media.append({"kind": "video", "ref": value.strip()})
                    elif name == "question" and value.strip():
                        texts.append(value.strip())
            elif name == "answerType":
                answer_type = _text(param).lower() or "text"
            elif name == "answerOptions":
                for option in _children(param, "param"):
                    options[option.get("name", "")] = " ".join(
                        _text(i) for i in _children(option, "item")) or _text(option)
            elif name == "theme" and _text(param):
                texts.insert(0, f"[{_text(param)}]")
        return texts, media, options, answer_type

    def type_warning(self, variant: str, note: str) -> None:
        """A warning that holds unless the event's format plays ``variant`` (OQ-3)."""
        self.warnings.append(note)
        self.type_warnings.append((variant, note))

    # -- info inheritance ------------------------------------------------------
    @staticmethod
    def info(el: ET.Element, what: str) -> list[str]:
        info = _child(el, "info")
        if what == "comments":
            text = _text(_child(info, "comments"))
            return [text] if text else []
        group = _child(info, what)
        single = what[:-1]
        return [_text(s) for s in _children(group, single)] if group is not None else []

    # -- the walk ------------------------------------------------------------
    def read(self) -> Pack:
        root = self.root
        if _local(root.tag) != "package":
            raise PackError("root element is <%(element)s>, expected <package>",
                            "content.xml", element=_local(root.tag))
        version = root.get("version", "?")
        if version.split(".")[0] not in ("3", "4", "5"):
            self.warnings.append(N_("unknown SIGame package version %(version)s; read as v4/v5",
                                    version=version))
        v5 = version.startswith("5")
        title = root.get("name") or self.filename
        package_authors = self.info(root, "authors")
        rounds: list[RoundSpec] = []
        for r_index, rnd in enumerate(_children(_inside(root, "rounds"), "round"), 1):
            rounds.append(self.read_round(rnd, r_index, v5, package_authors))
        if not rounds:
            raise PackError("the package has no <round>", "content.xml")
        unused = sorted(set(self.media) - self.used_media)
        if len(unused) > MAX_UNUSED_LISTED:
            self.warnings.append(N_("%(count)s media files no question uses, among them: "
                                    "%(files)s", count=len(unused),
                                    files=", ".join(unused[:MAX_UNUSED_LISTED])))
        elif unused:
            self.warnings.append(N_("media files no question uses: %(files)s",
                                    files=", ".join(unused)))
        return Pack(title=title, format="siq", rounds=rounds, warnings=self.warnings,
                    type_warnings=self.type_warnings)

    def read_round(self, rnd: ET.Element, r_index: int, v5: bool,
                   authors: list[str]) -> RoundSpec:
        name = rnd.get("name") or f"Раунд {r_index}"
        final = rnd.get("type", "").lower() == "final"
        spec = RoundSpec(number=r_index, name=name, kind="final" if final else "open",
                         points=0, check_mode="typo3")
        authors = self.info(rnd, "authors") or authors
        q_index = 0
        for t_index, theme in enumerate(_children(_inside(rnd, "themes"), "theme"), 1):
            theme_name = theme.get("name") or f"Тема {t_index}"
            spec.themes.append(theme_name)
            theme_authors = self.info(theme, "authors") or authors
            for n, q in enumerate(_children(_inside(theme, "questions"), "question"), 1):
                q_index += 1
                where = N_("content.xml: <question> #%(number)s in theme '%(theme)s' "
                           "of round '%(round)s'", number=n, theme=theme_name, round=name)
                question = self.read_question(q, where, v5, theme_authors)
                if question is None:
                    continue
                question.number = len(spec.questions) + 1
                question.theme = theme_name
                spec.questions.append(question)
        prices = [q.points for q in spec.questions if q.points]
        spec.points = min(prices) if prices else 0
        for question in spec.questions:
            if question.price == {"min": 0, "max": 0, "step": 0}:
                # SIGame: a number set of 0 is "the minimum or the maximum in the round"
                low, high = min(prices, default=0), max(prices, default=0)
                question.price = {"min": low, "max": high, "step": high - low}
        if final:
            self.type_warning("final", N_(
                "round '%(round)s' is SIGame's final: players remove themes until one is "
                "left and bet on its question; answerdesk has no bets: every final "
                "question is kept, with its price (usually 0) as points — set them before "
                "the evening", round=name))
        return spec

    @staticmethod
    def secret_price(q: ET.Element, params: dict[str | None, str],
                     where: str) -> dict[str, int] | None:
        """A secret question's own price: v5 ``<param name="price" type="numberSet">
        <numberSet minimum maximum step/>``, v3/v4 ``<type><param name="cost">`` (a
        number or "[min;max]/step"); None when the pack gives none (the board value)."""
        param = next((p for p in _children(_inside(q, "params"), "param")
                      if p.get("name") == "price"), None)
        numbers = _child(param, "numberSet")
        if numbers is not None:
            at = N_("%(where)s, <param name=\"price\"><numberSet>", where=where)
            raw = {name: (numbers.get(attr) or "0").strip()
                   for name, attr in (("min", "minimum"), ("max", "maximum"), ("step", "step"))}
            bad = next((name for name, value in raw.items()
                        if not re.fullmatch(r"-?\d{1,9}", value)), None)
            if bad is not None:
                raise PackError("the secret question's price: %(attribute)s=\"%(value)s\" is "
                                "not a whole number", at, value=raw[bad],
                                attribute={"min": "minimum", "max": "maximum"}.get(bad, bad))
            price = {name: int(value) for name, value in raw.items()}
        elif (cost := _text(param) if param is not None else params.get("cost", "").strip()):
            at = N_("%(where)s, <param name=\"%(param)s\">", where=where,
                    param="cost" if param is None else "price")
            found = _COST_SET.fullmatch(cost)
            if re.fullmatch(r"\d{1,9}", cost):
                price = {"min": int(cost), "max": int(cost), "step": 0}
            elif found and all(len(g or "") <= 9 for g in found.groups()):
                low, high = int(found[1]), int(found[2])
                price = {"min": low, "max": high,
                         "step": int(found[3]) if found[3] else high - low}
            else:
                raise PackError("the secret question's price '%(price)s' is neither a number "
                                "nor a range such as [100;500] or [100;500]/100", at,
                                price=cost[:40])
        else:
            return None
        refusal = price_refusal(price["min"], price["max"], price["step"])
        if refusal:
            raise PackError(refusal, at, minimum=price["min"], maximum=price["max"],
                            step=price["step"])
        return price

    def read_question(self, q: ET.Element, where: str, v5: bool,
                      authors: list[str]) -> QuestionSpec | None:
        price_raw = q.get("price", "0")
        try:
            price = int(price_raw)
        except ValueError as exc:
            raise PackError("price '%(price)s' is not a number", where, price=price_raw) from exc
        type_el = _child(q, "type")
        raw_type = (q.get("type") or (type_el.get("name") if type_el is not None else "")
                    or "").strip()
        params = {p.get("name"): _text(p) for p in _children(type_el, "param")} \
            if type_el is not None else {}
        if price < 0:
            self.warnings.append(N_("%(where)s: empty slot (price %(price)s) skipped",
                                    where=where, price=price))
            return None
        if params.get("knows") == "never":
            self.warnings.append(N_("%(where)s: a 'cat in bag' that is never asked "
                                    "(points given away) skipped", where=where))
            return None

        right = _child(q, "right")
        accepted = [_text(a) for a in _children(right, "answer")] if right is not None else []
        accepted = [a for a in accepted if a]
        if not accepted:
            raise PackError("question has no right answer (<right><answer>)", where)
        wrong_el = _child(q, "wrong")
        wrong = [_text(a) for a in _children(wrong_el, "answer")] if wrong_el is not None else []

        options: dict[str, str] = {}
        answer_type = "text"
        if v5 or _child(q, "params") is not None:
            texts, media, options, answer_type = self.content_v5(q, where)
        else:
            texts, media = self.content_v4(q, where)
        if params.get("theme") and params["theme"] != "-":
            texts.insert(0, f"[{params['theme']}]")
        kind = _TYPE_ALIASES.get(raw_type.lower().replace("_", ""), raw_type.lower())
        check_mode: str | None = None
        key: list[str] | dict[str, Any] = text_key(accepted, wrong)
        if answer_type == "select" or kind == "select":
            check_mode = "choice"
            key = [a for a in accepted if a in options] or accepted
        elif kind in _UNSUPPORTED:
            self.type_warning(kind, N_("%(where)s: %(problem)s", where=where,
                                       problem=_UNSUPPORTED[kind]))
        elif kind not in ("simple", "forall"):
            self.warnings.append(N_("%(where)s: SIGame question type '%(type)s' has no "
                                    "equivalent; played as an ordinary question",
                                    where=where, type=raw_type))
        if not texts and not media:
            self.warnings.append(N_("%(where)s: question has neither text nor media",
                                    where=where))
        info_comments = self.info(q, "comments")
        sources = self.info(q, "sources")
        q_authors = self.info(q, "authors") or authors
        return QuestionSpec(
            number=0,
            text="\n".join(texts),
            key=key,
            points=price,
            comment="\n".join(info_comments) or None,
            source="\n".join(sources) or None,
            author=", ".join(q_authors) or None,
            media=media,
            answer=accepted[0],
            check_mode=check_mode,
            options=options,
            variant=None if kind in ("simple", "select") else kind,
            price=self.secret_price(q, params, where) if kind == "secret" else None,
        )


def parse_siq(data: bytes, filename: str = "pack.siq") -> Pack:
    """Parse a SIGame .siq archive (package versions 3, 4, 5) into a Pack.

    Rounds keep their themes; each question keeps its price as its points,
    right answers as accepted (typo3) and wrong answers as rejected.
    """
    archive, entries = _open_zip(data, filename)
    with archive:
        root = _parse_xml(_read_content(archive, filename))
        reader = _Reader(root, entries, filename)
        pack = reader.read()
        pack.media = {name: archive.read(name) for name in entries
                      if name in reader.used_media}
    return pack
