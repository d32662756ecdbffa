"""Fixtures for the pack-import tests (the real packs are in tests/data/packs)."""

from __future__ import annotations

import io
import zipfile
from collections.abc import Callable

import pytest


@pytest.fixture
def make_siq() -> Callable[..., bytes]:
    """Build a .siq archive in memory from a content.xml string and extra files."""

    def build(content: str | None, files: dict[str, bytes] | None = None) -> bytes:
        buf = io.BytesIO()
        with zipfile.ZipFile(buf, "w") as zf:
            if content is not None:
                zf.writestr("content.xml", content.encode("utf-8"))
            for name, data in (files or {}).items():
                zf.writestr(name, data)
        return buf.getvalue()

    return build
