"""OpenQuiz's clocks, pure (formats/oq/timers.py), named by rule: OQ-4 the 30 s answer
timer, OQ-7 speed scales every timer but media, OQ-8 an hour of pauses per game (timers
stand still), 30 minutes idle and 5 hours stop the game."""

from __future__ import annotations

import pytest

from answerdesk.formats.oq import timers
from answerdesk.formats.oq.timers import Speed, Stop

MIN = 60_000


def test_oq4_the_answer_timer_is_30_seconds_at_normal_speed():
    assert timers.answer_ms(Speed.NORMAL) == 30_000


@pytest.mark.parametrize(("speed", "answer", "with_media"), [
    (Speed.SLOW, 45_000, 57_000), (Speed.NORMAL, 30_000, 42_000),
    (Speed.FAST, 15_000, 27_000)])
def test_oq7_speed_scales_every_timer_and_media_plays_at_its_real_length(
        speed, answer, with_media):
    assert timers.answer_ms(speed) == answer
    assert timers.scaled_ms(30_000, speed, media_ms=12_000) == with_media
    assert timers.scaled_ms(4_000, speed) == {Speed.SLOW: 6_000, Speed.NORMAL: 4_000,
                                              Speed.FAST: 2_000}[speed]


def test_oq8_a_pause_freezes_a_running_timer():
    assert timers.deadline_ms(0, 30_000, [], 5_000) == 30_000
    # A pause from 10 s to 20 s moves the deadline by 10 s.
    assert timers.deadline_ms(0, 30_000, [(10_000, 20_000)], 50_000) == 40_000
    # While it runs, the time left stands still at what it was when it began.
    running = [(10_000, None)]
    for now in (10_000, 25_000, 600_000):
        assert timers.deadline_ms(0, 30_000, running, now) - now == 20_000
    # Pauses before the timer started or after it ran out change nothing.
    assert timers.deadline_ms(100_000, 30_000, [(0, 50_000), (200_000, 300_000)],
                              400_000) == 130_000


def test_oq8_pauses_total_at_most_one_hour_then_the_game_goes_on():
    pauses = [(0, 40 * MIN)]
    assert timers.pause_left_ms(pauses, 45 * MIN) == 20 * MIN
    assert timers.pause_refusal(pauses, 45 * MIN) is None
    pauses = timers.pause(pauses, 50 * MIN)
    assert timers.is_paused(pauses, 69 * MIN)
    assert timers.pause_refusal(pauses, 69 * MIN) == "The game is already paused."
    # The hour is used up at 70 min: the pause ends by itself, the game goes on.
    assert not timers.is_paused(pauses, 70 * MIN)
    assert timers.paused_total_ms(pauses, 90 * MIN) == 60 * MIN
    assert timers.pause_refusal(pauses, 90 * MIN) == "The hour of pauses of this game is used up."
    assert timers.close(pauses, 90 * MIN) == [(0, 40 * MIN), (50 * MIN, 70 * MIN)]
    # A timer running through that pause stood still for 20 minutes only.
    assert timers.deadline_ms(49 * MIN, 2 * MIN, pauses, 90 * MIN) == 71 * MIN


def test_oq8_resuming_closes_the_running_pause_now():
    pauses = timers.pause([], 1_000)
    assert timers.is_paused(pauses, 1_000) and timers.is_paused(pauses, 5_000)
    assert timers.close(pauses, 5_000) == [(1_000, 5_000)]
    assert not timers.is_paused(timers.close(pauses, 5_000), 5_000)


def test_oq8_thirty_minutes_without_activity_stop_the_game():
    assert timers.stopped(None, None, [], 10 * 60 * MIN) is None  # never started
    assert timers.stopped(0, 10 * MIN, [], 39 * MIN) is None
    assert timers.stopped(0, 10 * MIN, [], 40 * MIN) == (Stop.IDLE, 40 * MIN)
    # Idle time stands still while the host's pause runs.
    assert timers.stopped(0, 10 * MIN, [(20 * MIN, 45 * MIN)], 50 * MIN) is None
    assert timers.stopped(0, 10 * MIN, [(20 * MIN, 45 * MIN)], 65 * MIN) == (
        Stop.IDLE, 65 * MIN)
    assert timers.stopped(0, 10 * MIN, [(20 * MIN, None)], 75 * MIN) is None


def test_oq8_a_game_lives_at_most_five_hours_whatever_the_activity_and_pauses():
    five_hours = 5 * 60 * MIN
    assert timers.stopped(0, five_hours - 1, [], five_hours - 1) is None
    assert timers.stopped(0, five_hours - 1, [(MIN, 30 * MIN)], five_hours) == (
        Stop.LIFETIME, five_hours)
