"""The buzzer's pure arithmetic (OQ-4): offsets from sync samples, press times clamped
to what is possible, the one-second window, the order with its margins."""

from __future__ import annotations

from answerdesk.formats.buzzer.timing import (
    READING_PENALTY_MS,
    WINDOW_MS,
    Estimate,
    Flag,
    Press,
    Sample,
    estimate,
    order,
    place,
    sample_is_plausible,
    window_closes_ms,
)


def exchange(offset: int, out_ms: int, back_ms: int, at_server: int) -> Sample:
    """A sync exchange of a phone whose clock is ``offset`` behind the server's."""
    send = at_server - out_ms - offset
    return Sample(send, at_server, send + out_ms + back_ms)


def test_symmetric_trip_gives_the_exact_offset():
    sample = exchange(offset=5_000, out_ms=30, back_ms=30, at_server=1_000_000)
    assert sample.rtt_ms == 60
    assert sample.offset_ms == 5_000


def test_estimate_keeps_the_smallest_round_trips_as_ntp_does():
    # Jittery Wi-Fi: slow trips are lopsided (slow out, fast back) and lie by half
    # the difference; the quick ones are nearly symmetric.
    samples = [exchange(-7_000, 250, 10, 1_000_000 + i * 500) for i in range(6)]
    samples += [exchange(-7_000, 12, 10, 2_000_000), exchange(-7_000, 10, 11, 2_000_400),
                exchange(-7_000, 11, 11, 2_000_800)]
    est = estimate(samples, keep=3)
    assert est is not None
    assert est.rtt_ms == 21
    assert abs(est.offset_ms - -7_000) <= est.uncertainty_ms
    assert abs(est.offset_ms - -7_000) < 2
    assert est.samples == 9


def test_estimate_without_usable_samples_is_none():
    assert estimate([]) is None
    assert estimate([Sample(1_000, 5_000, 900)]) is None  # received before it was sent


def test_server_refuses_a_receipt_the_phone_stretched_or_misdated():
    honest = Sample(10_000, 50_000, 10_060)
    assert sample_is_plausible(honest, next_send_ms=10_500, next_server_ms=50_440)
    # The receipt is after the phone's own next send: impossible.
    assert not sample_is_plausible(honest, next_send_ms=10_050, next_server_ms=50_440)
    # A trip longer than the server saw pass between the two requests.
    stretched = Sample(10_000, 50_000, 11_000)
    assert not sample_is_plausible(stretched, next_send_ms=11_100, next_server_ms=50_300)
    assert not sample_is_plausible(Sample(10_000, 50_000, 9_000))


EST = Estimate(offset_ms=3_000, rtt_ms=40, samples=4)


def test_press_converts_to_server_time():
    placed = place(Press(1, claimed_ms=7_250, received_ms=10_300, estimate=EST), opened_ms=10_000)
    assert (placed.at_ms, placed.flags) == (10_250, ())


def test_press_within_the_uncertainty_before_the_opening_is_clamped_to_it():
    placed = place(Press(1, claimed_ms=6_990, received_ms=10_100, estimate=EST), opened_ms=10_000)
    assert (placed.at_ms, placed.flags) == (10_000, ())


def test_press_claimed_before_the_question_reached_the_phone_counts_at_arrival():
    placed = place(Press(1, claimed_ms=6_500, received_ms=10_400, estimate=EST), opened_ms=10_000)
    assert (placed.at_ms, placed.flags) == (10_400, (Flag.BEFORE_QUESTION,))


def test_press_claimed_after_its_own_arrival_counts_at_arrival():
    placed = place(Press(1, claimed_ms=7_900, received_ms=10_400, estimate=EST), opened_ms=10_000)
    assert (placed.at_ms, placed.flags) == (10_400, (Flag.AFTER_ARRIVAL,))
    # Within the uncertainty it is clamped to the arrival without a flag.
    near = place(Press(1, claimed_ms=7_410, received_ms=10_400, estimate=EST), opened_ms=10_000)
    assert (near.at_ms, near.flags) == (10_400, ())


def test_press_of_an_unsynchronised_phone_counts_at_arrival():
    placed = place(Press(1, claimed_ms=1, received_ms=10_400), opened_ms=10_000)
    assert (placed.at_ms, placed.flags) == (10_400, (Flag.NO_SYNC,))


def test_oq4_press_during_the_reading_gets_two_seconds():
    placed = place(Press(1, claimed_ms=8_000, received_ms=11_050, estimate=EST),
                   opened_ms=10_000, reading_until_ms=12_000)
    assert placed.pressed_ms == 11_000
    assert placed.at_ms == 11_000 + READING_PENALTY_MS
    assert placed.flags == (Flag.READING,)
    after = place(Press(2, claimed_ms=9_100, received_ms=12_150, estimate=EST),
                  opened_ms=10_000, reading_until_ms=12_000)
    assert (after.at_ms, after.penalty_ms) == (12_100, 0)


def test_oq4_window_is_one_second_after_the_first_arrival():
    assert WINDOW_MS == 1000
    assert window_closes_ms([10_700, 10_300, 10_900]) == 11_300
    assert window_closes_ms([]) is None


def test_oq4_order_by_press_time_with_margins():
    presses = [Press(1, 7_300, 10_900, EST), Press(2, 7_260, 10_320, EST),
               Press(3, 7_300, 10_500, EST)]
    ranked = order([place(p, opened_ms=10_000) for p in presses])
    assert [(r.place, r.competitor, r.margin_ms, r.behind_first_ms) for r in ranked] == [
        (1, 2, 0, 0), (2, 3, 40, 40), (3, 1, 0, 40)]  # a tie goes to the earlier arrival


def test_one_quick_trip_outweighs_many_slow_lopsided_ones():
    samples = [exchange(2_000, 690, 40, 1_000_000 + i * 2_000) for i in range(4)]
    samples.append(exchange(2_000, 20, 20, 1_020_000))
    est = estimate(samples)
    assert est is not None and est.offset_ms == 2_000 and est.rtt_ms == 40
