"""The buzzer's bound on claimed press times (issue 31, OQ-4), simulated on timing.py.

Phones sync every 5 s over venue Wi-Fi whose one-way delays jitter (a lognormal around
a base delay with rare spikes, as measured trips on crowded 2.4 GHz look); the server
estimates each phone's clock and times its round trips itself, exactly as
formats/buzzer/presses.py does, then places presses with timing.place.

- honest: two honest phones, both on jittery Wi-Fi, press at random moments; how often
  is the order different from what it was before the bound (timing.place without an
  allowance), and what does a phone lose when its press's trip outlasts its allowance?
- cheater: a cheater presses D ms after an honest phone and claims it pressed when the
  question opened (the issue's attack; it cannot see the honest press, presses.public_buzz);
  its gain is how much earlier than its real press it is placed; the largest must stay
  within MAX_ALLOWANCE_MS + ALLOWANCE_MARGIN_MS, also for a cheater that stretches the
  round trips the server times.

    python bench/buzzer_bench.py [--rounds 20000] [--seed 31]
"""

from __future__ import annotations

import argparse
import random
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
from answerdesk.formats.buzzer import timing  # noqa: E402


class Wifi:
    """One-way delays of one phone's link (ms)."""

    def __init__(self, rng: random.Random, base: float, spread: float, spikes: float) -> None:
        self.rng, self.base, self.spread, self.spikes = rng, base, spread, spikes

    def delay(self) -> int:
        d = self.base * self.rng.lognormvariate(0, self.spread)
        if self.rng.random() < self.spikes:
            d += self.rng.uniform(100, 600)  # a retransmission burst
        return max(1, round(d))


def synced(rng: random.Random, wifi: Wifi, skew: int, now: int, syncs: int = 12):
    """The server's estimate and allowance of a phone after ``syncs`` exchanges 5 s apart."""
    samples, seen = [], []
    t = now - syncs * 5000
    previous = None
    for _ in range(syncs):
        up, down = wifi.delay(), wifi.delay()
        send = t + skew
        server = t + up
        receive = t + up + down + skew
        if previous is not None:  # this request completes the previous exchange
            sample = timing.Sample(*previous)
            if timing.sample_is_plausible(sample, send, server):
                samples.append(sample)
                trip = timing.seen_rtt(sample, send, server)
                if trip is not None:
                    seen.append(trip)
        previous = (send, server, receive)
        t += 5000 + rng.randint(-200, 200)
    return timing.estimate(samples), timing.allowance_ms(seen[-timing.ALLOWANCE_SAMPLES:])


def placed(competitor: int, pressed: int, claimed_local: int, arrival: int, est, allowance,
           opened: int) -> timing.Placed:
    return timing.place(timing.Press(competitor, claimed_local, arrival, est, allowance), opened)


def honest_run(rng: random.Random, rounds: int, wifi_args: tuple) -> None:
    changed = clamped = 0
    losses: list[int] = []
    for _ in range(rounds):
        opened = 10_000_000
        phones = []
        for competitor in (1, 2):
            wifi = Wifi(rng, *wifi_args)
            skew = rng.randint(-5000, 5000)
            est, allowance = synced(rng, wifi, skew, opened)
            pressed = opened + rng.randint(500, 4000)
            arrival = pressed + wifi.delay()
            phones.append((competitor, pressed, pressed + skew, arrival, est, allowance))
        now = [placed(c, p, cl, a, e, al, opened) for c, p, cl, a, e, al in phones]
        before = [placed(c, p, cl, a, e, None, opened) for c, p, cl, a, e, _ in phones]
        ranks = [[r.competitor for r in timing.order(run)] for run in (now, before)]
        changed += ranks[0] != ranks[1]
        for new, old in zip(now, before, strict=True):
            if timing.Flag.EARLY_CLAIM in new.flags:
                clamped += 1
                losses.append(new.at_ms - old.at_ms)
    losses.sort()
    worst = losses[-1] if losses else 0
    p99 = losses[int(len(losses) * 0.99)] if losses else 0
    print(f"honest, wifi {wifi_args}: {rounds} questions, order changed by the bound in "
          f"{changed} ({100 * changed / rounds:.2f} %); presses clamped {clamped} of "
          f"{2 * rounds}; loss when clamped p99 {p99} ms, worst {worst} ms")


def cheater_run(rng: random.Random, rounds: int, wifi_args: tuple, stretch: bool) -> None:
    """``stretch``: the cheater also understates its waits between syncs, so the server
    times its trips as long as the cap allows (the most it can buy)."""
    gains: list[int] = []
    wins_before = wins_now = 0
    for _ in range(rounds):
        opened = 10_000_000
        honest_wifi, cheat_wifi = Wifi(rng, *wifi_args), Wifi(rng, 8, 0.3, 0.0)
        h_skew, c_skew = rng.randint(-3000, 3000), rng.randint(-3000, 3000)
        h_est, h_allow = synced(rng, honest_wifi, h_skew, opened)
        c_est, c_allow = synced(rng, cheat_wifi, c_skew, opened)
        if stretch:
            c_allow = timing.allowance_ms([timing.MAX_RTT_MS])
        h_pressed = opened + rng.randint(300, 5000)
        c_pressed = h_pressed + rng.randint(0, 600)  # it presses after the honest phone
        h_arrival = h_pressed + honest_wifi.delay()
        c_arrival = c_pressed + cheat_wifi.delay()
        claim = opened + c_skew  # "I pressed when the question opened"
        honest = placed(1, h_pressed, h_pressed + h_skew, h_arrival, h_est, h_allow, opened)
        cheat = placed(2, c_pressed, claim, c_arrival, c_est, c_allow, opened)
        cheat_old = placed(2, c_pressed, claim, c_arrival, c_est, None, opened)
        honest_old = placed(1, h_pressed, h_pressed + h_skew, h_arrival, h_est, None, opened)
        gains.append(c_pressed - cheat.pressed_ms)
        wins_now += timing.order([honest, cheat])[0].competitor == 2
        wins_before += timing.order([honest_old, cheat_old])[0].competitor == 2
    bound = timing.MAX_ALLOWANCE_MS + timing.ALLOWANCE_MARGIN_MS
    how = "stretching cheater" if stretch else "cheater"
    print(f"{how} vs honest on wifi {wifi_args}: {rounds} questions; cheater first "
          f"before the bound {wins_before} ({100 * wins_before / rounds:.1f} %), now "
          f"{wins_now} ({100 * wins_now / rounds:.1f} %); largest gain {max(gains)} ms "
          f"(bound {bound} ms) {'OK' if max(gains) <= bound else 'BEYOND THE BOUND'}")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rounds", type=int, default=20_000)
    parser.add_argument("--seed", type=int, default=31)
    args = parser.parse_args(argv)
    rng = random.Random(args.seed)
    for wifi in ((10, 0.4, 0.0), (25, 0.6, 0.02), (60, 0.8, 0.08)):  # good, busy, bad
        honest_run(rng, args.rounds, wifi)
    for wifi in ((25, 0.6, 0.02), (60, 0.8, 0.08)):
        for stretch in (False, True):
            cheater_run(rng, args.rounds, wifi, stretch)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
