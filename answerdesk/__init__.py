"""answerdesk: the answer desk for live quiz nights."""

from __future__ import annotations

import os
from collections.abc import Mapping
from pathlib import Path
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from flask import Flask

# Flask is imported inside the functions only: the pure packages below
# (answerdesk.checker, answerdesk.formats.bg.scoring) must import without it.
ROOT = Path(__file__).resolve().parent.parent


def select_locale() -> str:
    """Bulgarian first; the phone's own language when it is one we speak."""
    from flask import current_app, request, session

    from .i18n import choose_locale, screen_locale

    if screen := screen_locale():
        return screen
    return choose_locale(current_app.config["LANGUAGES"],
                         request.args.get("lang") or session.get("lang"),
                         request.accept_languages)


def create_app(config: Mapping[str, Any] | None = None) -> Flask:
    """Application factory: configure extensions and blueprints, do no other work."""
    from flask_babel import get_locale

    from . import cli
    from .access import desk_role
    from .api import bp as api_bp
    from .config import load_config
    from .core.charts import chart_json
    from .core.disputes import offered as appeals_offered
    from .core.formats import of as format_of
    from .core.labels import register as register_labels
    from .database.busy import tune_postgresql
    from .database.sqlite import tune_sqlite
    from .display import bp as display_bp
    from .extensions import babel, csrf, db, migrate
    from .formats import load_all as load_formats
    from .host import bp as host_bp
    from .i18n import bp as i18n_bp
    from .i18n import reason_text
    from .lean_routes import install as install_lean_routes
    from .logs import init_logging
    from .media import bp as media_bp
    from .qr import qr_svg
    from .security import init_security, trust_proxies
    from .slots import init_slots
    from .start import bp as start_bp
    from .team import bp as team_bp
    from .web import DeskFlask, register_error_handlers, register_transaction

    config = dict(config or {})
    instance = config.pop("INSTANCE_PATH", None) or os.environ.get("INSTANCE_PATH")
    app = DeskFlask(
        __name__,
        instance_path=os.path.abspath(instance) if instance else None,
        instance_relative_config=True,
        template_folder=str(ROOT / "templates"),
        static_folder=str(ROOT / "static"),
    )
    app.config.update(load_config(app.instance_path, config))
    init_logging(app)
    load_formats(app)
    db.init_app(app)
    migrate.init_app(app, db, directory=str(ROOT / "migrations"))
    csrf.init_app(app)
    babel.init_app(app, locale_selector=select_locale)
    app.jinja_env.globals["get_locale"] = get_locale
    app.jinja_env.globals["qr_svg"] = qr_svg
    register_labels(app)
    app.jinja_env.filters["chart_json"] = chart_json
    app.jinja_env.globals["reason_text"] = reason_text
    app.jinja_env.globals["desk_role"] = desk_role
    app.jinja_env.globals["format_of"] = format_of
    app.jinja_env.globals["appeals_offered"] = appeals_offered
    with app.app_context():
        tune_sqlite(db.engine, app.config["DATABASE_LOCK_TIMEOUT"])
        tune_postgresql(db.engine, app.config["DATABASE_LOCK_TIMEOUT"])
    for blueprint in (api_bp, team_bp, host_bp, display_bp, media_bp, i18n_bp, start_bp):
        app.register_blueprint(blueprint)
    csrf.exempt(api_bp)
    register_transaction(app)
    register_error_handlers(app)
    init_security(app)
    init_slots(app)
    install_lean_routes(app)
    trust_proxies(app)
    cli.register(app)
    return app
