"""The texts the Своя игра phone's script shows (templates/si/phone.html, static/si_phone.js),
in one table instead of an attribute each in the template: the page hands them to the
script translated, their %(name)s placeholders as {name} for the script's fill()."""

from __future__ import annotations

import re

from flask_babel import gettext

from ...core.labels import N_

#: name (data-t-<name> on the page, t.t<Name> in the script) → English msgid
TEXTS = {
    "where": N_("Round %(round)s · %(theme)s"),
    "theme": N_("Theme %(n)s"),
    "value": N_("Question value: %(value)s"),
    "waiting": N_("Waiting for the host to open a question"),
    "open": N_("Open: send your answer"),
    "closed": N_("Closed (ВСЁ): the host is checking the answers"),
    "published": N_("Results published"),
    "sent": N_("Sent: %(answer)s"),
    "sent-late": N_("Sent after ВСЁ: %(answer)s"),
    "sending": N_("sending…"),
    "network": N_("No network: try again in a moment."),
    "kept": N_("No network: your answer goes as soon as it is back."),
    "place": N_("Place %(place)s"),
    "out": N_("out of competition"),
    "removed": N_("You were removed from the game (SI-1.3)."),
    "warnings": N_("Warnings: %(count)s of 2"),
    "author": N_("You wrote this theme: you play it only by answering its most expensive "
                 "question (SI-0)."),
    "claim-on-time": N_("Your answer came on time: the host will check it again."),
    "claim-late": N_("Your answer came after ВСЁ: the host decides whether it is listed as 0."),
    "claim-pending": N_("ПРОПУСТИЛИ: your claim is with the host."),
    "protest-filed": N_("Your protest is with the host."),
    "protest-heard": N_("The host is hearing your protest (СТОЮ)."),
    "protest-upheld": N_("Your protest was upheld."),
    "protest-rejected": N_("Your protest was rejected."),
    "stop-which": N_("Round %(round)s · %(theme)s · question for %(value)s"),
    "stop-answer": N_("Correct answer: %(answer)s"),
    "stop": N_("СТОП"),
}

_PLACEHOLDER = re.compile(r"%\((\w+)\)s")


def phone_texts() -> dict[str, str]:
    """Each text in the reader's language, placeholders as {name} (a Jinja global)."""
    return {name: _PLACEHOLDER.sub(r"{\1}", gettext(msgid)) for name, msgid in TEXTS.items()}
