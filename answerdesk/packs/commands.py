"""`flask --app answerdesk import-pack` and `export-pack`: packs from the shell."""

from __future__ import annotations

import sys
from pathlib import Path

import click
from flask import Flask

from ..core import formats
from ..core.events import event_by_code
from ..errors import DeskError
from ..extensions import db
from . import PackError, dump_native, parse_pack
from .importer import MODES, PackSummary, attach_local_media, export_pack, import_pack, preview


def summary_lines(summary: PackSummary, code: str) -> list[str]:
    """The preview as plain text lines (the host page shows the same facts)."""
    lines = [f"Pack: {summary.title} ({summary.format})"]
    if summary.mode == "replace":
        old = ", ".join(str(n) for n in summary.replaces) or "none"
        lines.append(f"Event {code}: the programme is replaced (rounds now: {old})")
    else:
        lines.append(f"Event {code}: the rounds are added after the existing ones")
    for r in summary.rounds:
        media = f", {r.media} media" if r.media else ""
        lines.append(f"  round {r.number}: {r.name} · {r.kind} · {r.points} pts · "
                     f"{r.check_mode} · {r.questions} questions{media}")
    lines.append(f"{summary.question_count} questions, {summary.media_files} media files")
    lines += [f"warning: {w}" for w in summary.warnings]
    lines += [f"missing media file: {m}" for m in summary.missing_media]
    return lines


def register(app: Flask) -> None:
    @app.cli.command("import-pack")
    @click.argument("file", type=click.Path(exists=True, dir_okay=False, path_type=Path))
    @click.option("--event", "code", required=True, help="Code of the event to fill.")
    @click.option("--mode", type=click.Choice(MODES), default="replace", show_default=True,
                  help="replace the programme (no answers yet) or append after its rounds.")
    @click.option("--dry-run", is_flag=True, help="Show the preview, write nothing.")
    def import_pack_command(file: Path, code: str, mode: str, dry_run: bool) -> None:
        """Import a question pack (.yaml/.json, .csv, .siq, db.chgk.info .txt) into an event."""
        try:
            event = event_by_code(code)
            pack = parse_pack(file.read_bytes(), file.name)
            attach_local_media(pack, file.parent)
            pack = formats.of(event).choose_pack(pack, {})[0]  # as the event's game plays it
            summary = preview(pack, event, mode)
            for line in summary_lines(summary, event.code):
                click.echo(line)
            if summary.blocked:
                click.echo(f"Error: {summary.blocked}", err=True)
                sys.exit(1)
            if dry_run:
                click.echo("Dry run: nothing was written.")
                return
            report = import_pack(event, pack, actor="cli", mode=mode)
        except (PackError, DeskError) as exc:
            click.echo(f"Error: {exc}", err=True)
            sys.exit(1)
        db.session.commit()  # the command is the boundary
        click.echo(f"Imported {report.question_count} questions into rounds "
                   + ", ".join(str(n) for n in report.rounds) + ".")

    @app.cli.command("export-pack")
    @click.option("--event", "code", required=True, help="Code of the event to save.")
    @click.option("--format", "fmt", type=click.Choice(("yaml", "json")), default="yaml",
                  show_default=True)
    @click.option("--output", "-o", type=click.Path(dir_okay=False, path_type=Path),
                  default=None, help="File to write (default: standard output).")
    def export_pack_command(code: str, fmt: str, output: Path | None) -> None:
        """Save an event's programme as a native pack (media files embedded)."""
        try:
            event = event_by_code(code)
        except DeskError as exc:
            click.echo(f"Error: {exc}", err=True)
            sys.exit(1)
        text = dump_native(export_pack(event), fmt)
        if output is None:
            click.echo(text, nl=False)
        else:
            output.write_text(text, encoding="utf-8")
            click.echo(f"Wrote {output}", err=True)
