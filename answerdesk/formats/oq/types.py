"""OpenQuiz question types (RULES.md OQ-3, OQ-5), pure: one table, each type owns its rules.

``TYPES`` is the registry (as CTFd's challenge classes): a question's type says who
answers (the buzzer's fair order, the team the secret question is handed to, the
auction's winner, every team at once), what it is worth (its value, or the winning
stake) and what a wrong answer costs (−value, nothing for no-risk). The refusals
here take plain data (team ids, scores, options) and change nothing; the game
(typeplay.py) stores what they allow. No Flask, no database.
"""

from __future__ import annotations

from collections.abc import Collection, Mapping, Sequence
from typing import Any, ClassVar

from ...errors import Conflict
from ...packs.model import price_choices
from .rules import N_, Outcome
from .rules import points as rule_points


class ChoiceRefused(Conflict):
    """OQ-3: a choice from a team that may not choose now, or not one of the options."""

    code = "choice_refused"


class StakeRefused(Conflict):
    """OQ-3 auction: a stake above the score, from a team at 0, not above the highest."""

    code = "stake_refused"


class SecretRefused(Conflict):
    """OQ-3 secret: handed by a team without the turn, or handed twice."""

    code = "secret_refused"


class WrongQuestionType(Conflict):
    """An action the question's type does not have (a stake on a buzzer question)."""

    code = "wrong_question_type"


class QuestionType:
    """The classic buzzer question (OQ-3, OQ-4): the first in the fair order answers; a
    rejected or late answer costs the value and returns the question to the others."""

    name: ClassVar[str] = "buzzer"
    label: ClassVar[str] = N_("Buzzer")
    #: OQ-4: the fair order of presses says who answers.
    buzzer: ClassVar[bool] = True
    #: A wrong answer returns the question to the teams not yet out.
    returns: ClassVar[bool] = True
    #: Answered by choosing one of the options shown (the key names the right one).
    choosing: ClassVar[bool] = False
    #: Every team chooses at once, sealed until the host closes the question.
    for_all: ClassVar[bool] = False
    #: The team with the turn hands the question to a team (secret).
    handed: ClassVar[bool] = False
    #: Teams bid for it (auction).
    bidding: ClassVar[bool] = False
    #: The host's calls on the answering team (OQ-4/OQ-5), and why others are refused.
    host_calls: ClassVar[frozenset[Outcome]] = frozenset(Outcome)
    call_refusal: ClassVar[str] = ""

    def points(self, outcome: Outcome, value: int, factor: float = 1.0) -> int:
        """OQ-5: accepted +value (× factor), rejected or timed out −value."""
        return rule_points(outcome, value, factor)

    def worth(self, value: int, stake: int | None) -> int:
        """What the question is played for: its value on the board."""
        return value

    def returns_after(self, outcome: Outcome) -> bool:
        """Whether the question goes back to the other teams after this call."""
        return self.returns and outcome != Outcome.ACCEPT

    def check_call(self, outcome: Outcome) -> None:
        """Refuse a host's call the type does not take."""
        if outcome not in self.host_calls:
            raise WrongQuestionType(self.call_refusal)


class Choices(QuestionType):
    """OQ-3 choices: the first to buzz chooses; a wrong choice (−value) returns the
    question to the others. The option is judged by the key at once; the host calls
    only a timeout (the winner did not choose in time)."""

    name = "choices"
    label = N_("Choices")
    choosing = True
    host_calls = frozenset({Outcome.TIMEOUT})
    call_refusal = N_("A choice is judged by the option chosen: the host calls only a "
                      "timeout.")


class ChoicesForAll(QuestionType):
    """OQ-3 choices for all: no buzzer; every team chooses once, at the same time.
    When the host closes it: right +value, wrong −value, no choice 0."""

    name = "choices_all"
    label = N_("Choices for all")
    buzzer = False
    returns = False
    choosing = True
    for_all = True
    host_calls = frozenset()
    call_refusal = N_("Every team's choice is judged when the host closes the question.")


class NoRisk(QuestionType):
    """OQ-3/OQ-5 no-risk: played with the buzzer; a wrong answer costs nothing.
    **Decision:** a timeout costs nothing either (nothing is at risk)."""

    name = "norisk"
    label = N_("No risk")

    def points(self, outcome: Outcome, value: int, factor: float = 1.0) -> int:
        return rule_points(outcome, value, factor, no_risk=True)


class Secret(QuestionType):
    """OQ-3 secret (cat in a bag): the team with the turn hands it to any team, itself
    included; that team alone answers, ±value, and the question does not return. The
    value is the pack's own price when it has one (SIGame), fixed at the hand-over
    (``secret_price``) and kept as the play's stake; else the board value."""

    name = "secret"
    label = N_("Secret question")
    buzzer = False
    returns = False
    handed = True

    def worth(self, value: int, stake: int | None) -> int:
        return value if stake is None else stake


class Auction(QuestionType):
    """OQ-3 auction: teams bid; the highest stake answers alone and the stake is the
    value (OQ-5: ±stake); nobody bids: the team that picked it plays it for its value."""

    name = "auction"
    label = N_("Auction")
    buzzer = False
    returns = False
    bidding = True

    def worth(self, value: int, stake: int | None) -> int:
        return value if stake is None else stake


BUZZER = QuestionType()
TYPES: dict[str, QuestionType] = {t.name: t for t in (
    BUZZER, Choices(), ChoicesForAll(), NoRisk(), Secret(), Auction())}

#: SIGame's question types (packs/siq.py normalises them) as OpenQuiz plays them.
SIQ_VARIANTS = {"stake": "auction", "secret": "secret", "norisk": "norisk",
                "forall": "choices_all"}


def type_of(variant: str | None, options: Mapping[str, str] | None) -> QuestionType:
    """A question's type from what its pack or the host set (``variant``: a type's
    name or a SIGame type) and its options: choosing types need options; a question
    with options and no type is a choices question."""
    name = SIQ_VARIANTS.get(variant or "", variant or "")
    kind = TYPES.get(name)
    if kind is None or (kind.choosing and not options):
        kind = TYPES["choices"] if options and kind is None else BUZZER
    return kind


def set_type_refusal(name: object, options: Mapping[str, str] | None) -> str | None:
    """The host sets a question's type before it plays: None when it may, else the msgid."""
    if not isinstance(name, str) or name not in TYPES:
        return N_("The type must be one of: %(types)s.")
    if TYPES[name].choosing and len(options or {}) < 2:
        return N_("A choices question needs at least two options.")
    return None


# -- choices (OQ-3) ----------------------------------------------------------------------

def chosen_option(option: object, options: Mapping[str, str]) -> str:
    """The option a team chose, by its label ("A", "Б"), else a refusal."""
    label = option.strip() if isinstance(option, str) else None
    if label not in options:
        folded = {k.casefold(): k for k in options}
        label = folded.get(label.casefold()) if label else None
    if label is None:
        raise ChoiceRefused("Choose one of the options shown: %(options)s.",
                            options=", ".join(options))
    return label


def check_chooser(team: int, kind: QuestionType, answering: int | None,
                  answered: Collection[int]) -> None:
    """Who may choose now: for all, any team once; else the buzzer's winner."""
    if team in answered:
        raise ChoiceRefused("Your team has already answered this question.")
    if not kind.for_all and team != answering:
        raise ChoiceRefused("Only the team that won the buzzer chooses.")


def choice_outcome(option: str, options: Mapping[str, str], key: Any) -> Outcome:
    """Right when the key names the option by its label or by its text."""
    right = key.get("accept", []) if isinstance(key, dict) else key
    right = [right] if isinstance(right, str) else list(right or [])
    folded = {str(r).strip().casefold() for r in right}
    hit = option.casefold() in folded or options.get(option, "").strip().casefold() in folded
    return Outcome.ACCEPT if hit else Outcome.REJECT


def for_all_points(choices: Mapping[int, str], options: Mapping[str, str], key: Any,
                   value: int) -> dict[int, int]:
    """OQ-3/OQ-5 choices for all, on closing: +value right, −value wrong (a team that
    did not choose is not in ``choices`` and scores nothing)."""
    return {team: rule_points(choice_outcome(option, options, key), value)
            for team, option in choices.items()}


# -- auction (OQ-3) ----------------------------------------------------------------------

def stake_least(value: int, highest: int | None) -> int:
    """The least stake now: the question's value, then above the highest stake."""
    return value if highest is None else max(value, highest + 1)


def check_stake(amount: object, score: int, value: int, highest: int | None,
                passed: bool) -> int:
    """A stake, refused unless it is a whole number from the question's value (above
    the highest so far) to the team's score; a team at 0 or below does not bid.

    **Decision** (SIGame's auction, which OpenQuiz follows): a team whose score is
    below the least stake may still go all in with its whole score, if that is
    above the highest stake so far.
    """
    if passed:
        raise StakeRefused("Your team has passed this auction.")
    if score <= 0:
        raise StakeRefused("A team at 0 points or below cannot bid.")
    if isinstance(amount, bool) or not isinstance(amount, int):
        raise StakeRefused("The stake must be a whole number of points.")
    if amount > score:
        raise StakeRefused("The stake cannot be above your team's score (%(score)s).",
                           score=score)
    if highest is not None and amount <= highest:
        raise StakeRefused("The stake must be above the highest so far (%(highest)s).",
                           highest=highest)
    if amount < stake_least(value, highest) and amount != score:
        raise StakeRefused("The stake must be at least %(least)s, or your whole score.",
                           least=stake_least(value, highest))
    return amount


def auction_result(stakes: Sequence[tuple[int, int]], holder: int | None,
                   value: int) -> tuple[int | None, int]:
    """(the team that answers, what for): the highest stake (the earliest of equal
    ones); with no stake, the team that picked the question, for its value."""
    if not stakes:
        return holder, value
    team, amount = max(stakes, key=lambda s: s[1])
    return team, amount


def auction_over(teams: Collection[int], passed: Collection[int], leader: int | None) -> bool:
    """Every team but the highest bidder has passed (or every team, nobody bidding)."""
    return all(t in passed or t == leader for t in teams)


# -- secret (OQ-3) -----------------------------------------------------------------------

def secret_prices(price: Mapping[str, int] | None) -> list[int] | None:
    """The prices the handing team may name for a secret question (OQ-3.4): the pack's
    own (SIGame's ``price`` number set, packs.model.price_choices), one when it is
    fixed; None when the pack gives none (the board value is played)."""
    return price_choices(dict(price)) if price else None


def secret_price(price: Mapping[str, int] | None, chosen: object) -> int | None:
    """What a secret question is played for, fixed when it is handed: the pack's own
    price (``secret_prices``) — a fixed price, or the one the handing team chose of its
    choices (none chosen: the lowest, SIGame's first offer); a pack without a price:
    None, the board value."""
    choices = secret_prices(price)
    if not choices:
        return None
    if chosen is None:
        return choices[0]
    if isinstance(chosen, bool) or not isinstance(chosen, int) or chosen not in choices:
        raise SecretRefused("The price of this secret question is one of: %(prices)s.",
                            prices=", ".join(map(str, choices)))
    return chosen


def check_hand(giver: int, holder: int | None, receiver: int, teams: Collection[int],
               handed_to: int | None) -> int:
    """The team with the turn hands the secret question once, to any team in the game,
    itself included (OQ-3)."""
    if handed_to is not None:
        raise SecretRefused("The secret question was already handed to a team.")
    if giver != holder:
        raise SecretRefused("Only the team with the turn hands the secret question.")
    if receiver not in teams:
        raise SecretRefused("That team does not play this game.")
    return receiver
