"""`flask --app answerdesk ...` commands."""

from __future__ import annotations

import json
from pathlib import Path

import click
from flask import Flask, current_app

from .core import formats
from .extensions import db
from .models import Event

#: The demo evening is a Bulgarian pub quiz (its format provides it).
DEMO_FORMAT = "bg"


def _links(code: str, base_url: str) -> dict[str, str]:
    base = base_url.rstrip("/")
    return {
        "team_url": f"{base}/e/{code}",
        "host_url": f"{base}/host/{code}/",
        "screen_url": f"{base}/e/{code}/screen",
    }


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
        config = current_app.config
        base = base_url or config["PUBLIC_URL"] or f"http://{config['HOST']}:{config['PORT']}"
        record = Path(current_app.instance_path) / "demo.json"
        saved = json.loads(record.read_text()) if once and record.exists() else None
        if saved and db.session.scalar(db.select(Event.id).where(Event.code == saved["code"])):
            saved.update(_links(saved["code"], base))
            click.echo(json.dumps(saved, ensure_ascii=False))
            return
        event, password = formats.get(DEMO_FORMAT).create_demo()
        data = {"code": event.code, "host_password": password, **_links(event.code, base)}
        record.write_text(json.dumps(data, ensure_ascii=False))
        click.echo(json.dumps(data, ensure_ascii=False))

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
        livecheck.run(current_app._get_current_object(), interval)
