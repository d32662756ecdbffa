"""Entry point for gunicorn: `gunicorn wsgi:app`."""

import os

from answerdesk import create_app
from answerdesk.checker import preload

app = create_app()

# Each server process loads the checker's word lists at start (about 2 s), so the
# host's first "close round" does not wait for them. CHECKER_PRELOAD=0 skips it.
if os.environ.get("CHECKER_PRELOAD", "1") != "0":
    preload()
