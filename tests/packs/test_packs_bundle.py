"""A native pack with its media in one zip (docs/packs.md, issue 19)."""

from __future__ import annotations

import io
import zipfile

import pytest

from answerdesk.packs import PackError, parse_pack, sniff_format


def test_a_zip_bundle_brings_the_files_its_yaml_names(media_files) -> None:
    data = media_files.bundle()
    assert sniff_format(data, "evening.zip") == "siq"  # by extension; the content decides
    pack = parse_pack(data, "evening.zip")
    assert pack.title == "Картини и звук"
    assert set(pack.media) == {"stills/colosseum.png", "clips/tone.wav"}
    assert pack.media["stills/colosseum.png"] == media_files.png()
    assert pack.missing_media() == []  # the URL is a link, not a missing file
    kinds = [m["kind"] for r in pack.rounds for q in r.questions for m in q.media]
    assert kinds == ["image", "audio", "audio"]


def test_a_bundle_never_reads_outside_its_folder(media_files) -> None:
    buf = io.BytesIO()
    with zipfile.ZipFile(buf, "w") as zf:
        zf.writestr("pack.yaml", "answerdesk_pack: 1\ntitle: x\nrounds:\n  - number: 3\n"
                                 "    questions:\n      - media: ../evil.png\n"
                                 "        key: [a]\n")
        zf.writestr("../evil.png", media_files.png())
    pack = parse_pack(buf.getvalue(), "x.zip")
    assert pack.media == {} and pack.missing_media() == ["../evil.png"]


def test_a_zip_without_a_pack_file_is_still_read_as_sigame() -> None:
    buf = io.BytesIO()
    with zipfile.ZipFile(buf, "w") as zf:
        zf.writestr("notes.txt", "nothing")
    with pytest.raises(PackError, match="content.xml"):
        parse_pack(buf.getvalue(), "x.zip")
