"""A pack's themes laid out on Своя игра's three boards (SI-1.1), pure.

Any Своя игра source (a SIGame ``.siq`` of any rounds, a db.chgk.info «Своя игра»
``.txt``) becomes the same shape: three rounds of at most 5 themes × 5 questions,
question numbers 1..25 theme by theme (``rules.theme_of``), values r × (1..5) by the
question's place in its theme whatever the pack's prices. The pack's themes form a
pool in the pack's order; the host chooses on the import preview which theme goes to
which round (0: not played). A theme of more than 5 questions is cut into themes of 5
("Name", "Name · 2", …) so that no question is lost; a SIGame final round is not
played (SI-1.1 has no final) and its themes stay out of the pool.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field, replace

from ...packs.model import N_, Pack, PackError, QuestionSpec, RoundSpec
from . import rules

#: The svoyak parser's words on its own grouping of themes (packs/chgk.py), which the
#: layout replaces.
REGROUPED = frozenset({
    "Своя игра pack has %(count)s themes; SI-1.1 plays 15 (3 rounds × 5): grouped "
    "%(per_round)s themes per round",
    "Своя игра pack fills %(count)s rounds; SI-1.1 has 3: rounds past the third continue "
    "the values r×(1…5)",
})


@dataclass
class PoolTheme:
    """One theme the host may put on a board: its name, where the pack had it, its
    questions (at most ``rules.PER_THEME``)."""

    name: str
    source: str
    questions: list[QuestionSpec] = field(default_factory=list)

    @property
    def media(self) -> int:
        return sum(len(q.media) for q in self.questions)


@dataclass
class Layout:
    """What the preview shows: the pool, each theme's round (0: not played), and
    what became of the pack's final rounds."""

    themes: list[PoolTheme]
    rounds: list[int]
    finals: list[tuple[str, int]] = field(default_factory=list)


def _name(spec: RoundSpec, question: QuestionSpec, index: int) -> str:
    return question.theme or (spec.themes[index] if index < len(spec.themes) else "")


def pool(pack: Pack) -> tuple[list[PoolTheme], list[tuple[str, int]]]:
    """The pack's playable themes in order, and its final rounds as (name, themes)."""
    themes: list[PoolTheme] = []
    finals: list[tuple[str, int]] = []
    for spec in pack.rounds:
        if spec.kind == "final":
            finals.append((spec.name, len(spec.themes) or len(spec.questions)))
            continue
        groups: dict[str, list[QuestionSpec]] = {}
        for question in spec.questions:
            name = question.theme or spec.name
            groups.setdefault(name, []).append(question)
        for name, questions in groups.items():
            for part, start in enumerate(range(0, len(questions), rules.PER_THEME), 1):
                themes.append(PoolTheme(
                    name=name if part == 1 else f"{name} · {part}", source=spec.name,
                    questions=questions[start:start + rules.PER_THEME]))
    return themes, finals


def default_rounds(count: int) -> list[int]:
    """Five themes to a round in the pack's order; past the 15th, not played."""
    return [i // rules.THEMES + 1 if i < rules.ROUNDS * rules.THEMES else 0
            for i in range(count)]


def check(chosen: Sequence[int], count: int) -> list[int]:
    """The host's choice, refused with a PackError when a round would hold more than
    5 themes or no round would be played."""
    chosen = list(chosen)
    if len(chosen) != count or any(r not in range(rules.ROUNDS + 1) for r in chosen):
        raise PackError("the choice of rounds does not match the pack's themes: preview it "
                        "again")
    for number in range(1, rules.ROUNDS + 1):
        taken = chosen.count(number)
        if taken > rules.THEMES:
            raise PackError("round %(round)s would have %(count)s themes; Своя игра plays at "
                            "most %(most)s per round (SI-1.1)", round=number, count=taken,
                            most=rules.THEMES)
    if not any(chosen):
        raise PackError("no theme is put into a round: choose at least one")
    return chosen


def layout(pack: Pack, chosen: Sequence[int] | None = None) -> Layout:
    """The pool with the host's choice (checked) or the default one."""
    themes, finals = pool(pack)
    rounds = check(chosen, len(themes)) if chosen is not None else default_rounds(len(themes))
    return Layout(themes, rounds, finals)


def shape(pack: Pack, chosen: Sequence[int] | None = None) -> Pack:
    """The pack as Своя игра plays it: rounds 1..3 (those with a theme), themes in the
    pool's order, each question numbered by its slot and valued by SI-1.1."""
    plan = layout(pack, chosen)
    rounds: list[RoundSpec] = []
    for number in range(1, rules.ROUNDS + 1):
        picked = [t for t, r in zip(plan.themes, plan.rounds, strict=True) if r == number]
        if not picked:
            continue
        spec = RoundSpec(number=number, name=f"Раунд {number}", kind="open", points=number,
                         check_mode="typo3", themes=[t.name for t in picked])
        for slot, theme in enumerate(picked):
            for place, question in enumerate(theme.questions, 1):
                at = slot * rules.PER_THEME + place
                spec.questions.append(replace(question, number=at, theme=theme.name,
                                              points=rules.value(number, at), price=None))
        rounds.append(spec)
    warnings = [w for w in pack.warnings if getattr(w, "template", "") not in REGROUPED]
    for name, count in plan.finals:
        warnings.append(N_("round '%(round)s' is SIGame's final (%(count)s themes): Своя игра "
                           "has no final (SI-1.1), so it is not played", round=name,
                           count=count))
    idle = sum(1 for r in plan.rounds if r == 0)
    if idle:
        warnings.append(N_("%(count)s of the pack's %(total)s themes are not played: choose "
                           "the rounds of the themes on the preview", count=idle,
                           total=len(plan.themes)))
    dropped = [w for variant, w in pack.type_warnings if variant == "final"]
    return Pack(title=pack.title, format=pack.format, rounds=rounds, media=pack.media,
                warnings=[w for w in warnings if not any(w is d for d in dropped)],
                type_warnings=[(v, w) for v, w in pack.type_warnings if v != "final"])
