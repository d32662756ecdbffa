"""The buzzer OpenQuiz plays with (OQ-4), shared by the formats that use one.

Not a format of its own: ``timing`` is the pure arithmetic (offsets, press times,
window, order); ``presses`` stores sync samples and presses in the database;
``api`` adds the phone's sync and press routes. A format that plays with the
buzzer imports these; formats still never import each other.
"""
