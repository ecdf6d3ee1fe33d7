"""What an engine's ``hello`` claims, checked, and which cases those claims admit.

The ``hello`` result may say which knob values the engine plays
(``knobs``), the full rules it plays (``rules``), that it never scores a
fouled arrangement (``fouls: "never"``) and at which table sizes its
``settle`` answers need not sum to zero (``not_zero_sum``);
``docs/conformance.md``, "The handshake".
:func:`check_claims` refuses a claim naming an unknown knob or an
impossible value with a :class:`ClaimError` naming it; :class:`Claims`
holds them checked. :data:`LEGACY_CLAIMS` are the claims of a knob older
rules spell otherwise (``money.rake_percent``), read as the knob they set.

Whether a case is admitted is decided per op by the knobs the op's
answer depends on (:data:`OP_KNOBS`): claiming ``scoop.bonus: [3]`` says
nothing about ``compare``.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from capsa import NATURAL_NAMES
from capsa.arrangement import Arrangement
from capsa.conformance.errors import HandshakeError
from capsa.conformance.protocol import Case, RulesSpec
from capsa.rules import KNOBS, RANKING_KNOBS, Rules, RulesError

__all__ = [
    "DECK_KNOBS",
    "HOUSE_KNOBS",
    "LEGACY_CLAIMS",
    "OP_KNOBS",
    "ClaimError",
    "Claims",
    "check_claims",
    "knob_names",
]

RANKING = RANKING_KNOBS
# Claims of a knob older rules spell otherwise (docs/conformance.md, "The
# handshake"): the old name, the knob it claims, the old name's range and
# the factor to the knob's unit. The same renaming as rules files get.
LEGACY_CLAIMS: dict[str, tuple[str, int, int]] = {
    # a whole percent is 100 basis points
    "money.rake_percent": ("money.rake_basis_points", 100, 100),
}
# A claim lists at most this many values: a hello is data, not a search space.
MAX_CLAIM_VALUES = 256
_WHOLE = ("naturals.enabled", "royalties.top", "royalties.middle", "royalties.bottom")
_LABELS = ("name", "description")
_POINTS = "naturals.points."


class ClaimError(HandshakeError):
    """A ``hello`` member the harness cannot use; ``claim`` names it (``knobs.wheel``,
    ``fouls``, ``not_zero_sum.seats``, ``rules``, ...)."""

    def __init__(self, claim: str, message: str) -> None:
        super().__init__(f"hello {claim}: {message}")
        self.claim = claim


def knob_names() -> tuple[str, ...]:
    """Every knob of the rules data as a dotted name, from the knob table
    (royalty tables and ``naturals.enabled`` whole), the text knobs
    ``name`` and ``description`` and the knobs rules data may leave out
    (``Knob.required`` false) left out. Raises nothing."""
    return tuple(k.name for k in KNOBS if k.type != "text" and k.required)


# The knobs added with the rules of every house (rules data may leave them
# out): an engine is asked them only when it claims them, so an engine
# written before them is tested on what it plays.
HOUSE_KNOBS: tuple[str, ...] = tuple(k.name for k in KNOBS if k.type != "text" and not k.required)
# the naturals the protocol had before them, and the fields of an entry then
_FIRST_NATURALS = frozenset(NATURAL_NAMES[:15])
_FIRST_ENTRY_FIELDS = frozenset(("name", "points"))
# the fields of an entry that change which 13 cards qualify: the only ones a
# `natural` answer depends on
_PARAMETER_FIELDS = frozenset(("lowest", "highest", "count", "exactly"))
_HOUSE_FOUL_MODES = frozenset(("none", "refuse"))


# The knobs each op's answer depends on (docs/conformance.md, "Claims"):
# a hand's category depends on no knob; natural reads naturals.enabled's
# names in their order, not their points.
# Every op but digest reads the deck: which cards there are, and how copies
# and jokers rank.
DECK_KNOBS: dict[str, Any] = {k.name: k.default for k in KNOBS if k.name.startswith("deck.")}
OP_KNOBS: dict[str, frozenset[str]] = {
    "compare": frozenset((*RANKING, *DECK_KNOBS)),
    "category": frozenset(DECK_KNOBS),
    "foul": frozenset((*RANKING, "foul_check", *DECK_KNOBS)),
    "natural": frozenset({"naturals.enabled", *DECK_KNOBS}),
    "count_splits": frozenset((*RANKING, "foul_check", *DECK_KNOBS)),
    "settle": frozenset((*knob_names(), *DECK_KNOBS)),
    "digest": frozenset(RANKING),
}


def _knob_of(claim: str) -> str:
    return "naturals.enabled" if claim == "naturals.names" or claim.startswith(_POINTS) else claim


# ------------------------------------------------------------------ checking


def _check_knob_values(claim: str, values: list[Any]) -> list[Any]:
    base = Rules.preset("pagat")
    out = []
    for value in values:
        try:
            out.append(base.derive({claim: value})[claim])
        except (RulesError, TypeError) as exc:
            raise ClaimError(
                f"knobs.{claim}", f"{value!r:.80} is not a value of it ({exc})"
            ) from None
    return out


def _check_claim(claim: Any, values: Any) -> list[Any]:
    where = f"knobs.{str(claim)[:80]}"
    if not isinstance(values, list):
        raise ClaimError(where, f"a claim is a list of values, not {type(values).__name__}")
    if len(values) > MAX_CLAIM_VALUES:
        raise ClaimError(where, f"more than {MAX_CLAIM_VALUES} values")
    if claim == "naturals.names" or (isinstance(claim, str) and claim.startswith(_POINTS)):
        name = claim[len(_POINTS) :] if claim.startswith(_POINTS) else None
        if name is not None and name not in NATURAL_NAMES:
            raise ClaimError(where, f"{name!r} is not a natural ({', '.join(NATURAL_NAMES)})")
        if name is not None and not values:
            raise ClaimError(where, "claims no value at all")
        for value in values:
            ok = value in NATURAL_NAMES if name is None else _is_points(value)
            if not ok:
                what = "a natural's name" if name is None else "an integer >= 0"
                raise ClaimError(where, f"{value!r:.80} is not {what}")
        return list(values)
    if claim not in knob_names() and claim not in HOUSE_KNOBS:
        raise ClaimError(where, f"{claim!r:.80} is not a knob (docs/rules.md lists them)")
    if not values:
        raise ClaimError(where, "claims no value at all")
    return _check_knob_values(claim, values)


def _renamed(knobs: Mapping[Any, Any]) -> dict[Any, Any]:
    """The claims with a knob older rules spell otherwise (``money.rake_percent``)
    claimed as the knob it sets, each value in that knob's unit."""
    out: dict[Any, Any] = {}
    for claim, values in knobs.items():
        if claim in LEGACY_CLAIMS:
            name, high, factor = LEGACY_CLAIMS[claim]
            if name in knobs:
                raise ClaimError(f"knobs.{claim}", f"{claim} and {name} claim one knob; give one")
            if isinstance(values, list):
                bad = [v for v in values if not _is_points(v) or v > high]
                if bad:
                    why = f"{bad[0]!r:.80} is not a value of it (an integer 0..{high})"
                    raise ClaimError(f"knobs.{claim}", why)
                values = [v * factor for v in values]
            claim = name
        out[claim] = values
    return out


def _is_points(value: Any) -> bool:
    return isinstance(value, int) and not isinstance(value, bool) and 0 <= value < 2**63


def _check_rules(data: Any) -> Rules:
    if not isinstance(data, Mapping):
        raise ClaimError("rules", "the full rules data is an object")
    try:
        rules = Rules.from_dict({k: v for k, v in data.items() if k != "base"})
    except (RulesError, TypeError) as exc:
        raise ClaimError("rules", str(exc)) from None
    missing = [k for k in knob_names() if not _has(data, k)]
    if missing:
        raise ClaimError("rules", f"missing knobs {', '.join(missing)} (send the full rules data)")
    return rules


def _has(data: Mapping[str, Any], dotted: str) -> bool:
    cur: Any = data
    for part in dotted.split("."):
        if not isinstance(cur, Mapping) or part not in cur:
            return False
        cur = cur[part]
    return True


def _check_not_zero_sum(value: Any) -> frozenset[int]:
    if not isinstance(value, Mapping) or set(value) - {"seats", "note"}:
        raise ClaimError("not_zero_sum", 'is {"seats": [table sizes], "note": "..."}')
    seats = value.get("seats")
    if (
        not isinstance(seats, list)
        or not seats
        or not all(isinstance(n, int) and not isinstance(n, bool) and 2 <= n <= 8 for n in seats)
    ):
        raise ClaimError("not_zero_sum.seats", f"a list of table sizes 2..8, not {seats!r:.80}")
    if not isinstance(value.get("note", ""), str):
        raise ClaimError("not_zero_sum.note", "free text (a string)")
    return frozenset(seats)


def check_claims(hello: Mapping[str, Any]) -> Claims:
    """The claims of a ``hello`` result, checked.

    Raises :class:`ClaimError` naming the claim for an unknown knob, a value
    the knob cannot take, a ``rules`` that is not full rules data, a
    ``fouls`` other than ``"scored"``/``"never"``, a malformed
    ``not_zero_sum``, or ``rules`` outside the engine's own ``knobs``. The
    ``preset`` member is a hint for ``infer`` (which notes an unknown name)
    and is not checked here."""
    knobs = hello.get("knobs") or {}
    if not isinstance(knobs, Mapping):
        raise ClaimError("knobs", "an object of dotted knob names to lists of values")
    checked = {str(k): _check_claim(k, v) for k, v in _renamed(knobs).items()}
    fouls = hello.get("fouls", "scored")
    if fouls not in ("scored", "never"):
        raise ClaimError("fouls", f'is "scored" or "never", not {fouls!r:.80}')
    rules = _check_rules(hello["rules"]) if hello.get("rules") is not None else None
    exempt = (
        _check_not_zero_sum(hello["not_zero_sum"])
        if hello.get("not_zero_sum") is not None
        else frozenset()
    )
    claims = Claims(checked, fouls == "never", exempt, rules)
    if rules is not None:
        outside = claims.outside("settle", rules)
        if outside:
            raise ClaimError("rules", f"the rules break the engine's own claim {outside}")
    return claims


# ------------------------------------------------------------------ admitting


@dataclass(frozen=True)
class Claims:
    """An engine's checked claims: ``knobs`` (claim name to the values claimed,
    normalised), ``no_fouls`` (``fouls: "never"``), ``not_zero_sum`` (the
    table sizes whose ``settle`` answers need not sum to zero) and ``rules``
    (the rules its ``hello`` says it plays, or None). Build one with
    :func:`check_claims`; building one directly checks nothing."""

    knobs: dict[str, list[Any]] = field(default_factory=dict)
    no_fouls: bool = False
    not_zero_sum: frozenset[int] = frozenset()
    rules: Rules | None = None

    def outside(self, op: str, rules: Rules, base: Rules | None = None) -> str | None:
        """The first claim the rules break among those ``op``'s answer depends
        on (``knobs.wheel``), or None when the op's answer under ``rules`` is
        within the claims. With ``base`` (the rules the engine is tested
        under), every knob no claim lists (``name`` included) must keep
        ``base``'s value (named ``rules.<knob>``): a case under the engine's
        rules differs from them only where the engine claims several values."""
        depends = OP_KNOBS[op]
        for claim, allowed in self.knobs.items():
            if _knob_of(claim) in depends and not _holds(claim, allowed, rules, op):
                return f"knobs.{claim}"
        newer = self._deck_outside(op, rules) or self._house_outside(op, rules)
        if newer is not None:
            return newer
        if base is not None:
            claimed = {_knob_of(c) for c in self.knobs}
            for knob in sorted({*knob_names(), "name"} - claimed):
                if rules[knob] != base[knob]:
                    return f"rules.{knob}"
        return None

    def _deck_outside(self, op: str, rules: Rules) -> str | None:
        """The first deck knob the engine does not claim that the rules move
        from the 52-card deck: an engine plays the 52-card deck unless it
        claims the knobs of larger ones (docs/conformance.md, "Claims")."""
        for knob, default in DECK_KNOBS.items():
            if knob in OP_KNOBS[op] and knob not in self.knobs and rules[knob] != default:
                return f"knobs.{knob}"
        return None

    def _house_outside(self, op: str, rules: Rules) -> str | None:
        """The first rule of every house the rules use and the engine does not
        claim: a newer knob away from its default (the rules' dict leaves a
        knob at its default out), a newer foul mode, a natural's entry with
        fields beyond its name and points (for ``natural``, a field that
        changes which cards qualify: ``lowest``, ``highest``, ``count``,
        ``exactly``), or a newer natural not in ``naturals.names``."""
        if op != "settle" and op != "natural":
            return None
        if op == "settle":
            data = rules.to_dict()
            for knob in HOUSE_KNOBS:
                if knob in self.knobs:
                    continue
                group, _, leaf = knob.rpartition(".")
                held = data.get(group, {}) if group else data
                if isinstance(held, Mapping) and leaf in held:
                    return f"knobs.{knob}"
            if "foul.mode" not in self.knobs and rules["foul.mode"] in _HOUSE_FOUL_MODES:
                return "knobs.foul.mode"
        enabled = rules["naturals.enabled"]
        if "naturals.enabled" not in self.knobs:
            for entry in enabled:
                fields = set(entry) - _FIRST_ENTRY_FIELDS
                if op == "natural":
                    fields &= _PARAMETER_FIELDS
                if fields:
                    return "knobs.naturals.enabled"
        names = self.knobs.get("naturals.names")
        for name in _names(enabled):
            if name not in _FIRST_NATURALS and (names is None or name not in names):
                return "knobs.naturals.names"
        return None

    def fouled(self, case: Case) -> bool:
        """True for a ``settle`` case holding a fouled seat when the engine never
        scores one (``fouls: "never"``)."""
        if not self.no_fouls or case.op != "settle":
            return False
        rules = case.rules.rules()
        seats = case.input["round"]["seats"]
        return any(
            Arrangement(s["top"], s["middle"], s["bottom"]).is_foul(rules)
            for s in seats
            if isinstance(s, Mapping)
        )

    def exempt(self, case: Case) -> bool:
        """True for a ``settle`` case at a table size declared not zero-sum."""
        if case.op != "settle" or not self.not_zero_sum:
            return False
        return len(case.input["round"]["seats"]) in self.not_zero_sum

    def fit(self, spec: RulesSpec) -> RulesSpec:
        """``spec`` with each knob outside a claim set to the claim's first value
        (and naturals the engine does not know dropped), so that fuzzing
        draws rules the engine claims."""
        rules = spec.rules()
        for claim, allowed in self.knobs.items():
            knob = _knob_of(claim)
            if knob == "naturals.enabled" or _holds(claim, allowed, rules, "settle"):
                continue
            spec = spec.with_knob(knob, allowed[0])
        naturals = _fit_naturals(spec.rules()["naturals.enabled"], self.knobs)
        if naturals != spec.rules()["naturals.enabled"]:
            spec = spec.with_knob("naturals.enabled", naturals)
        return spec

    def varied(self) -> dict[str, list[Any]]:
        """The knobs claimed with more than one value (what fuzzing varies around
        the engine's own rules), each with its values."""
        return {
            k: list(v)
            for k, v in self.knobs.items()
            if len(v) > 1 and _knob_of(k) == k and k in knob_names()
        }


def _names(enabled: Sequence[Mapping[str, Any]]) -> list[str]:
    return [str(entry["name"]) for entry in enabled]


def _holds(claim: str, allowed: list[Any], rules: Rules, op: str) -> bool:
    enabled = rules["naturals.enabled"]
    if claim == "naturals.names":
        return all(name in allowed for name in _names(enabled))
    if claim.startswith(_POINTS):
        if op != "settle":
            return True  # only settle pays a natural's points
        name = claim[len(_POINTS) :]
        return all(e["points"] in allowed for e in enabled if e["name"] == name)
    if claim == "naturals.enabled" and op == "natural":
        return any(_names(enabled) == _names(value) for value in allowed)
    return bool(rules[claim] in allowed)


def _fit_naturals(enabled: list[dict[str, Any]], knobs: Mapping[str, list[Any]]) -> Any:
    if "naturals.enabled" in knobs:
        options = knobs["naturals.enabled"]
        return enabled if enabled in options else options[0]
    names = knobs.get("naturals.names")
    out = []
    for entry in enabled:
        if names is not None and entry["name"] not in names:
            continue
        points = knobs.get(_POINTS + entry["name"])
        if points and entry["points"] not in points:
            entry = {"name": entry["name"], "points": points[0]}
        out.append(entry)
    return out
