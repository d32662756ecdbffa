"""Entry point for gunicorn: `gunicorn wsgi:app` (settings in gunicorn.conf.py)."""

import gc
import os

from answerdesk import create_app
from answerdesk.checker import preload
from answerdesk.extensions import db

app = create_app()

# The checker's word lists load at start (about 2 s, 300 MB), so the host's first
# "close round" does not wait for them. gunicorn loads this module once in its
# master (preload_app) and forks the workers, which share those pages; gc.freeze()
# keeps the collector from touching, and so copying, them. CHECKER_PRELOAD=0 skips it.
if os.environ.get("CHECKER_PRELOAD", "1") != "0":
    preload()
gc.freeze()

# A forked worker must never use a database connection of its parent.
with app.app_context():
    _engines = list(db.engines.values())
os.register_at_fork(after_in_child=lambda: [e.dispose(close=False) for e in _engines])
