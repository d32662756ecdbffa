"""`flask --app answerdesk ...` commands."""

from __future__ import annotations

import json
from pathlib import Path

import click
from flask import Flask, current_app

from .core.organiser import (
    base_url_of,
    create_new_event,
    event_line,
    event_links,
    read_pack,
)
from .demo import create_demo_event
from .errors import DeskError
from .extensions import db
from .instance import write_private
from .models import Event
from .packs.importer import attach_local_media


def _with_organiser(data: dict[str, str]) -> dict[str, str]:
    """The demo line, with the organiser password when this instance made it up
    (a newcomer has no other way to learn it; one set in the environment is not echoed)."""
    config = current_app.config
    if config.get("ORGANISER_PASSWORD_GENERATED"):
        return {**data, "organiser_password": config["ORGANISER_PASSWORD"]}
    return data


def register(app: Flask) -> None:
    from .packs import commands as pack_commands

    pack_commands.register(app)

    @app.cli.command("demo")
    @click.option("--once", is_flag=True,
                  help="Create the demo event only if none was created before; "
                       "otherwise print the one made earlier.")
    @click.option("--base-url", default=None, help="Address the links should use.")
    def demo(once: bool, base_url: str | None) -> None:
        """Create a demo event and print its code, host password and links as JSON."""
        base = base_url_of(base_url)
        record = Path(current_app.instance_path) / "demo.json"
        saved = json.loads(record.read_text()) if once and record.exists() else None
        if saved and db.session.scalar(db.select(Event.id).where(Event.code == saved["code"])):
            saved.update(event_links(saved["code"], base))
            click.echo(json.dumps(_with_organiser(saved), ensure_ascii=False))
            return
        event, password = create_demo_event()
        db.session.commit()  # the command is the boundary
        data = event_line(event, password, base)
        write_private(record, json.dumps(data, ensure_ascii=False))
        click.echo(json.dumps(_with_organiser(data), ensure_ascii=False))

    @app.cli.command("new-event")
    @click.option("--name", required=True, help="The event's name.")
    @click.option("--format", "fmt", required=True, help="The game: bg, chgk, …")
    @click.option("--date", default=None, help="YYYY-MM-DD (default: today).")
    @click.option("--screen-locale", default=None, help="The projector's language: bg, ru, en.")
    @click.option("--pack", "pack_file", default=None,
                  type=click.Path(exists=True, dir_okay=False, path_type=Path),
                  help="A question pack to import (native YAML/JSON, CSV, .siq, .txt).")
    @click.option("--base-url", default=None, help="Address the links should use.")
    def new_event(name: str, fmt: str, date: str | None, screen_locale: str | None,
                  pack_file: Path | None, base_url: str | None) -> None:
        """Create an event and print its code, host password and links as JSON."""
        try:
            pack = None
            if pack_file is not None:
                pack = read_pack(pack_file.read_bytes(), pack_file.name)
                attach_local_media(pack, pack_file.parent)
            event, password = create_new_event(name, fmt, date, screen_locale, pack,
                                               actor="organiser:cli")
        except DeskError as err:
            raise click.ClickException(str(err)) from None
        db.session.commit()  # the command is the boundary
        click.echo(json.dumps(event_line(event, password, base_url_of(base_url)),
                              ensure_ascii=False))

    @app.cli.command("check-live")
    @click.option("--interval", default=1.0, show_default=True,
                  help="Seconds between two passes.")
    @click.option("--once", is_flag=True, help="One pass, then print how many were checked.")
    def check_live(interval: float, once: bool) -> None:
        """Check the answers of open rounds as they arrive (the live checker).

        gunicorn.conf.py runs one beside the web workers; run this one instead
        where the app servers run without it (LIVE_CHECKER=0).
        """
        from . import livecheck

        if once:
            click.echo(livecheck.check_open_rounds())
            return
        # current_app is a LocalProxy (the documented way to its app); typed as Flask
        app = current_app._get_current_object()  # type: ignore[attr-defined]
        livecheck.run(app, interval)
