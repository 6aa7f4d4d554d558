"""The rules of floating bridge: presets, flags, and the pure rule functions.

>>> r = Rules.from_spec({"preset": "bridgebot", "play_all_tricks": True})
>>> r.name
'bridgebot+play_all_tricks'
>>> targets(Call.parse("3S"))
(9, 5)

Every function here is pure and works on plain ints (cards 0-51, 52-bit hand masks) so the
engine can call it in its inner loop.
"""

from __future__ import annotations

from dataclasses import asdict, dataclass, fields, replace
from typing import Any, Mapping

from ...errors import ReplayError
from .cards import CALLS, PASS_VALUE, SUIT_MASKS, Call


class RulesError(ReplayError, ValueError):
    """An unknown preset or flag, or a flag of the wrong type."""


@dataclass(frozen=True, slots=True)
class Rules:
    """A rule set: a preset plus any flags that differ from it."""

    preset: str = "bridgebot"
    play_all_tricks: bool = False
    trump_in_first_trick: bool = True
    self_partner: bool = False
    wash_threshold: int = 4

    @classmethod
    def preset_named(cls, name: str) -> "Rules":
        try:
            return PRESETS[name]
        except KeyError:
            raise RulesError(
                f"unknown rules preset {name!r} (known: {', '.join(sorted(PRESETS))})"
            ) from None

    @classmethod
    def from_spec(cls, spec: "str | Mapping[str, Any] | Rules | None") -> "Rules":
        """Read the log's ``rules`` field: a preset name or ``{"preset": ..., flag: value}``."""
        if spec is None:
            return PRESETS["bridgebot"]
        if isinstance(spec, Rules):
            return spec
        if isinstance(spec, str):
            return cls.preset_named(spec)
        if not isinstance(spec, Mapping):
            raise RulesError(f"rules must be a preset name or an object, not {type(spec).__name__}")
        base = cls.preset_named(spec.get("preset", "bridgebot"))
        changes: dict[str, Any] = {}
        for key, value in spec.items():
            if key == "preset":
                continue
            if key not in FLAG_TYPES:
                raise RulesError(f"unknown rules flag {key!r} (known: {', '.join(FLAG_TYPES)})")
            expected = FLAG_TYPES[key]
            if type(value) is not expected:
                raise RulesError(f"rules flag {key!r} must be {expected.__name__}, not {value!r}")
            if key == "wash_threshold" and not 0 <= value <= 40:
                raise RulesError(f"rules flag 'wash_threshold' must be 0-40, not {value}")
            changes[key] = value
        return replace(base, **changes)

    @property
    def overrides(self) -> dict[str, Any]:
        """The flags that differ from the preset."""
        base = PRESETS[self.preset]
        return {
            f.name: getattr(self, f.name)
            for f in fields(self)
            if f.name != "preset" and getattr(self, f.name) != getattr(base, f.name)
        }

    @property
    def name(self) -> str:
        """A short human name: the preset, plus ``+flag``/``-flag``/``flag=N`` for overrides."""
        parts = [self.preset]
        for key, value in self.overrides.items():
            if isinstance(value, bool):
                parts.append(("+" if value else "-") + key)
            else:
                parts.append(f"+{key}={value}")
        return "".join(parts)

    def to_spec(self) -> "str | dict[str, Any]":
        """The canonical log form: the preset name alone, or an object with the overrides."""
        overrides = self.overrides
        if not overrides:
            return self.preset
        return {"preset": self.preset, **overrides}

    def as_dict(self) -> dict[str, Any]:
        return asdict(self)


FLAG_TYPES: dict[str, type] = {
    "play_all_tricks": bool,
    "trump_in_first_trick": bool,
    "self_partner": bool,
    "wash_threshold": int,
}

PRESETS: dict[str, Rules] = {
    "bridgebot": Rules("bridgebot"),
    "all-tricks": Rules("all-tricks", play_all_tricks=True),
}
DEFAULT_RULES = PRESETS["bridgebot"]


# --- auction -------------------------------------------------------------------------------

def legal_calls(highest_bid: int | None) -> list[Call]:
    """Pass, and every bid above the highest so far (``None`` when nobody has bid)."""
    start = 0 if highest_bid is None else highest_bid + 1
    return [CALLS[PASS_VALUE], *CALLS[start:PASS_VALUE]]


def targets(contract: int) -> tuple[int, int]:
    """Tricks the declarer's side and the defenders need: ``6 + level`` and ``8 - level``."""
    level = contract // 5 + 1
    return 6 + level, 8 - level


# --- play ----------------------------------------------------------------------------------

def legal_cards_mask(
    hand: int,
    led_suit: int | None,
    trump: int | None,
    trump_broken: bool,
    first_trick: bool,
    rules: Rules,
) -> int:
    """The legal cards of a hand (as a mask) for the next card of the current trick.

    ``led_suit`` is None when this card leads. ``trump`` is None in NT.
    """
    if led_suit is not None:
        follow = hand & SUIT_MASKS[led_suit]
        if follow:
            return follow
        if first_trick and trump is not None and not rules.trump_in_first_trick:
            non_trump = hand & ~SUIT_MASKS[trump]
            if non_trump:
                return non_trump
        return hand
    # leading
    if trump is None:
        return hand
    allowed = hand
    if not trump_broken:
        non_trump = allowed & ~SUIT_MASKS[trump]
        if non_trump:
            allowed = non_trump
    if first_trick and not rules.trump_in_first_trick:
        non_trump = allowed & ~SUIT_MASKS[trump]
        if non_trump:
            allowed = non_trump
    return allowed


def trick_winner_index(cards: "list[int] | tuple[int, ...]", trump: int | None) -> int:
    """Index (0-3, in play order) of the card that wins a trick."""
    best = 0
    best_card = cards[0]
    for i in range(1, len(cards)):
        card = cards[i]
        suit = card // 13
        best_suit = best_card // 13
        if suit == best_suit:
            if card > best_card:
                best, best_card = i, card
        elif suit == trump and best_suit != trump:
            best, best_card = i, card
        # otherwise: off-suit and not a trump, so it cannot win
    return best


def first_leader(declarer: int, contract: int) -> int:
    """The declarer leads in NT; otherwise the player after the declarer."""
    return declarer if contract % 5 == 4 else (declarer + 1) & 3
