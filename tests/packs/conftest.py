"""Fixtures for the pack-import tests: where the shared real packs live."""

from __future__ import annotations

import io
import zipfile
from collections.abc import Callable
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[2]
SHARED_PACKS = (REPO / "../shared/packs").resolve()


@pytest.fixture(scope="session")
def shared_packs() -> Path:
    """The real packs shipped in the sibling shared/ folder (read-only)."""
    if not SHARED_PACKS.is_dir():
        pytest.fail(f"shared packs not found at {SHARED_PACKS}")
    return SHARED_PACKS


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
