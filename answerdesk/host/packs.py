"""The host's programme page: import a question pack (with a preview first), save
the evening as a pack, choose the projector's language, show the join QR code.

An uploaded file waits in instance/uploads/ between the preview and the
confirmation, under a random name, so the host confirms exactly what was shown.
"""

from __future__ import annotations

import re
import secrets
import time
from pathlib import Path

from flask import Response, current_app, flash, redirect, render_template, request, url_for
from flask_babel import gettext as _
from flask_babel import ngettext

from .. import i18n
from ..access import host_required
from ..core import formats
from ..errors import DeskError
from ..models import Event
from ..packs import PackError, dump_native, parse_pack
from ..packs.importer import MODES, export_pack, import_pack, preview
from ..packs.translated import say
from .blueprint import bp

UPLOAD_ID = re.compile(r"[0-9a-f]{32}")
UPLOAD_LIFETIME = 24 * 3600
# The store of previews waiting for their confirmation (issue 31, finding 5): at most
# this many files and bytes; a new preview pushes out the oldest. Two packs of the
# largest size (packs.MAX_PACK_BYTES) fit, and a desk rarely waits on more than one.
UPLOAD_STORE_FILES = 16
UPLOAD_STORE_BYTES = 512 * 1024 * 1024


def _upload_path(upload_id: str) -> Path:
    if not UPLOAD_ID.fullmatch(upload_id):
        raise DeskError("This upload has expired: choose the file again.")
    return Path(current_app.instance_path) / "uploads" / upload_id


def _make_room(folder: Path, size: int) -> None:
    """Previews never confirmed leave their file behind: a day later it goes, and the
    oldest go sooner when the store would hold more than UPLOAD_STORE_FILES files or
    UPLOAD_STORE_BYTES with the ``size`` bytes about to be kept."""
    limit = time.time() - UPLOAD_LIFETIME
    kept = []
    for old in folder.iterdir():
        if not UPLOAD_ID.fullmatch(old.name):
            continue
        try:
            stat = old.stat()
        except FileNotFoundError:
            continue
        if stat.st_mtime < limit:
            old.unlink(missing_ok=True)
        else:
            kept.append((stat.st_mtime, stat.st_size, old))
    kept.sort()
    total = sum(size for _, size, _ in kept) + size
    while kept and (len(kept) >= UPLOAD_STORE_FILES or total > UPLOAD_STORE_BYTES):
        _, old_size, old = kept.pop(0)
        old.unlink(missing_ok=True)
        total -= old_size


def _page(event: Event, status: int = 200, **context):
    return render_template(
        "host/packs.html", event=event, modes=MODES, languages=i18n.LANGUAGE_NAMES,
        question_total=sum(len(r.questions) for r in event.rounds), say=say, **context,
    ), status


def _mode() -> str:
    mode = request.form.get("mode", "replace")
    return mode if mode in MODES else "replace"


@bp.get("/programme")
@host_required
def programme(event: Event):
    return _page(event)


@bp.post("/programme/preview")
@host_required
def pack_preview(event: Event):
    upload = request.files.get("pack")
    kept = request.form.get("upload")
    if (upload is None or not upload.filename) and kept:  # the same file, chosen again
        path = _upload_path(kept)
        if not path.is_file():
            raise DeskError("This upload has expired: choose the file again.")
        data, filename, upload_id = path.read_bytes(), request.form.get("filename", "pack"), kept
    elif upload is None or not upload.filename:
        return _page(event, 400, problem=_("Choose a pack file first."))
    else:
        data = upload.read()
        filename = upload.filename.rsplit("/", 1)[-1].rsplit("\\", 1)[-1]
        upload_id = None
    mode = _mode()
    problem = None
    try:
        pack = parse_pack(data, filename)
        try:
            pack, choice = formats.of(event).choose_pack(pack, request.form)
        except DeskError as refusal:  # a choice the pack cannot give: shown beside its default
            problem = refusal.message
            pack, choice = formats.of(event).choose_pack(pack, {})
        summary = preview(pack, event, mode)
    except PackError as err:
        return _page(event, 422, filename=filename, error=err)
    if upload_id is None:
        upload_id = secrets.token_hex(16)
        path = _upload_path(upload_id)
        path.parent.mkdir(mode=0o700, parents=True, exist_ok=True)
        _make_room(path.parent, len(data))
        path.write_bytes(data)
    return _page(event, 400 if problem else 200, summary=summary, filename=filename,
                 upload_id=upload_id, mode=mode, choice=choice, problem=problem)


def _layout() -> list[int] | None:
    """The host's round for each theme of the pack, where the game lets the host lay
    the pack out (Format.pack_layout); None: the game's own default."""
    chosen = request.form.getlist("layout")
    if not chosen:
        return None
    return [int(v) if v.isdigit() else -1 for v in chosen]


@bp.post("/programme/import")
@host_required
def pack_import(event: Event):
    path = _upload_path(request.form.get("upload", ""))
    if not path.is_file():
        raise DeskError("This upload has expired: choose the file again.")
    filename = request.form.get("filename", "pack")
    layout = _layout()
    try:
        pack, _choice = formats.of(event).choose_pack(parse_pack(path.read_bytes(), filename),
                                                     request.form)
    except PackError as err:
        return _page(event, 422, filename=filename, error=err)
    try:
        report = import_pack(event, pack, actor="host", mode=_mode(), layout=layout)
    except PackError as err:  # the host's layout: the preview again, as chosen
        return _page(event, 422, summary=preview(pack, event, _mode()),
                     filename=filename, upload_id=path.name, mode=_mode(), chosen=layout,
                     problem=say(err))
    path.unlink(missing_ok=True)
    flash(_("Imported %(questions)s into rounds %(rounds)s.",
            questions=_questions(report.question_count),
            rounds=", ".join(str(n) for n in report.rounds)))
    return redirect(url_for("host.dashboard", code=event.code))


def _questions(count: int) -> str:
    return ngettext("%(num)d question", "%(num)d questions", count)


@bp.get("/programme/export.<fmt>")
@host_required
def pack_export(event: Event, fmt: str):
    if fmt not in ("yaml", "json"):
        raise DeskError("Choose YAML or JSON.")
    text = dump_native(export_pack(event), fmt)
    mimetype = "application/json" if fmt == "json" else "application/yaml"
    return Response(text, mimetype=f"{mimetype}; charset=utf-8", headers={
        "Content-Disposition": f'attachment; filename="answerdesk-{event.code}.{fmt}"'})


@bp.post("/programme/screen-language")
@host_required
def screen_language(event: Event):
    i18n.set_screen_locale(event, request.form.get("locale", ""), actor="host")
    flash(_("The projector now speaks %(language)s.",
            language=i18n.LANGUAGE_NAMES[event.screen_locale]))
    return redirect(url_for("host.programme", code=event.code))
