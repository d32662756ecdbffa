"""Entry point for gunicorn: `gunicorn wsgi:app`."""

from answerdesk import create_app

app = create_app()
