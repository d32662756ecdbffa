"""The game-neutral core: events, teams, rounds and questions, answers, review, audit.

Core names no game: what differs between games is asked of the event's format
through the registry in ``core.formats`` (filled by ``answerdesk.formats.load_all``).
"""
