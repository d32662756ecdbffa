"""Question-pack import: files in, plain data (`Pack`) out.

Pure parsing, no Flask and no database: the import step calls `parse_pack` and
turns the dataclasses into rows. Formats: the native YAML/JSON pack, CSV,
SIGame .siq, and db.chgk.info text (ЧГК and Своя игра). See docs/packs.md.
"""

from __future__ import annotations

from .bundle import is_bundle, load_bundle
from .chgk import parse_chgk
from .csvpack import parse_csv
from .model import Pack, PackError, QuestionSpec, RoundSpec
from .native import dump_native, load_native
from .siq import parse_siq

__all__ = [
    "Pack", "PackError", "QuestionSpec", "RoundSpec", "dump_native", "load_native",
    "parse_chgk", "parse_csv", "parse_pack", "parse_siq", "sniff_format",
]

MAX_PACK_BYTES = 200 * 1024 * 1024


def sniff_format(data: bytes, filename: str) -> str:
    """"siq", "chgk", "csv" or "native": by extension first, by content when the
    extension says nothing (a zip is SIGame, "Вопрос 1:" is db.chgk.info …)."""
    name = filename.lower().rsplit("/", 1)[-1]
    ext = name.rsplit(".", 1)[-1] if "." in name else ""
    by_ext = {"siq": "siq", "zip": "siq", "txt": "chgk", "csv": "csv", "json": "native",
              "yaml": "native", "yml": "native"}
    if ext in by_ext:
        return by_ext[ext]
    head = data[:4096]
    if head.startswith(b"PK\x03\x04"):
        return "siq"
    text = head.decode("utf-8", errors="ignore")
    stripped = text.lstrip("\ufeff \t\r\n")
    if stripped.startswith("{") or "answerdesk_pack" in text:
        return "native"
    vopros = ("Вопрос".encode("cp1251"), "Вопрос".encode("koi8-r"))
    if "Вопрос" in text or any(v in head for v in vopros):
        return "chgk"
    return "csv"


def parse_pack(data: bytes, filename: str) -> Pack:
    """Parse any supported pack; every failure is a PackError naming where."""
    if len(data) > MAX_PACK_BYTES:
        raise PackError("file larger than 200 MB", filename)
    if not data.strip():
        raise PackError("the file is empty", filename)
    fmt = sniff_format(data, filename)
    if fmt == "siq":
        if is_bundle(data, filename):
            return load_bundle(data, filename)
        return parse_siq(data, filename)
    if fmt == "chgk":
        return parse_chgk(data, filename)
    if fmt == "csv":
        return parse_csv(data, filename)
    return load_native(data, filename)
