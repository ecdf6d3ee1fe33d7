"""The rake of an engine (docs/rules.md, "Money, rake and exactness"): the rate
in basis points, the minimum pot and the caps per pot and per round, solved
from the money and rake of ``settle`` answers."""

from __future__ import annotations

from collections.abc import Sequence

from capsa.conformance.inference.knobs import integers, with_knobs
from capsa.conformance.inference.probes import RAKE_KNOBS, Probe, rake_probe, three_winners
from capsa.conformance.inference.solving import Inferrer
from capsa.rules import Rules

__all__ = ["RakingParts"]

BASIS = 10_000  # the rate is in hundredths of a percent
_BISECTIONS = 48  # stakes halved to find where the rake starts: more than 2**40
_RATE, _MINIMUM, _PER_POT, _PER_ROUND = RAKE_KNOBS
_NO_RAKE_FROM = 10**12  # a winner's money untaxed at this is no rate at all


def _shown(probes: Sequence[Probe]) -> str:
    names = [p.name for p in probes]
    return ", ".join(names[:4]) + (f" and {len(names) - 4} more" if len(names) > 4 else "")


def _rate_bounds(raked: Sequence[tuple[int, int]], capped: int) -> tuple[int, int]:
    """The rates (lowest, highest) that give each (money, rake) seen, a rake at
    the cap ``capped`` (0: none) only bounding the rate from below."""
    low, high = 1, BASIS
    for m, r in raked:
        low = max(low, -(-r * BASIS // m))
        if not capped or r < capped:
            high = min(high, ((r + 1) * BASIS - 1) // m)
    return low, high


def _separating_money(low: int, high: int, capped: int, points: int, start: int) -> int | None:
    """A winner's money (a multiple of ``points``, at least ``start``) whose rake
    under the cap ``capped`` is one more at some rate of ``low..high`` than at
    the rate below it, the rates nearest the middle tried first; None when
    the range is one rate or no such money exists."""
    if low >= high or capped < 2 or points < 1:
        return None
    middle = (low + high + 1) // 2
    for rate in sorted(range(low + 1, high + 1), key=lambda r: abs(r - middle))[:64]:
        for rake in range(capped - 1, max(0, capped - 200), -1):
            money = -(-rake * BASIS // rate)
            money = max(-(-money // points) * points, -(-start // points) * points)
            if money * (rate - 1) < rake * BASIS <= money * rate:
                return money
    return None


class RakingParts(Inferrer):
    """The four rake knobs, solved from the rake probes."""

    def money_and_rake(self, probe: Probe) -> tuple[tuple[int, ...], tuple[int, ...]] | None:
        """The engine's money and rake per seat for a settle answer that has both."""
        answer = self.answers.get(probe.name)
        if answer is None or answer[0] != "ok" or not isinstance(answer[1], dict):
            return None
        money, rake = integers(answer[1].get("money")), integers(answer[1].get("rake"))
        if money is None or rake is None or len(money) != len(rake):
            return None
        return money, rake

    def one_winner(self, probe: Probe) -> tuple[int, int] | None:
        """(money, rake) of the one seat that wins money in a probe's answer;
        None when not exactly one seat wins or another seat pays rake."""
        seen = self.money_and_rake(probe)
        if seen is None:
            return None
        money, rake = seen
        winners = [k for k, m in enumerate(money) if m > 0]
        if len(winners) != 1 or any(r for k, r in enumerate(rake) if k != winners[0]):
            return None
        return money[winners[0]], rake[winners[0]]

    def every_winner(self, probes: Sequence[Probe]) -> set[tuple[int, int]]:
        """(money, rake) of every seat that wins money in the probes' answers."""
        out = set()
        for probe in probes:
            seen = self.money_and_rake(probe)
            if seen is not None:
                out |= {(m, r) for m, r in zip(*seen, strict=True) if m > 0}
        return out

    def rake(self, probes: Sequence[Probe]) -> None:
        """The rake knobs from the probes whose points the inferred rules give:
        the rate from one winner at a ladder of stakes, the minimum pot by
        halving the stakes where the rake starts, the caps from the top of the
        ladder and from three winners. Every candidate is checked against
        every answer; none or several that fit are not determined."""
        usable = [
            p
            for p in self.answered(probes)
            if p.name not in self.partial
            and self.money_and_rake(p) is not None
            and self.expect(p, self.rules)[0] == self.got(p)[0]
        ]
        if not usable:
            self._no_rake(probes)
            return
        usable += self._bisect([p for p in usable if self.one_winner(p) is not None])
        seen = sorted(w for p in usable if (w := self.one_winner(p)) is not None)
        if not seen:  # several winners in every answer (rounds widened): each seat's rake
            seen = sorted(self.every_winner(usable))
        self.note(RAKE_KNOBS, usable)
        if not any(r for _, r in seen):
            self.rules = with_knobs(self.rules, {_RATE: 0})
            for knob in RAKE_KNOBS[1:]:
                self.probed.pop(knob, None)
            self.moot(RAKE_KNOBS[1:], "the engine takes no rake (money.rake_basis_points = 0)")
            return
        self._solve(seen, usable)

    def _no_rake(self, probes: Sequence[Probe]) -> None:
        """When no rake probe's points are the inferred rules' (a ranking or a
        scoring the knobs do not express), the rakes still read: none taken
        from any winner, one of them collecting at least 10^12, is rate 0."""
        answered = [p for p in probes if self.money_and_rake(p) is not None]
        seen = self.every_winner(answered)
        if not seen or any(r for _, r in seen) or max(m for m, _ in seen) < _NO_RAKE_FROM:
            self.skip(RAKE_KNOBS, "no rake probe's points matched the inferred rules")
            return
        self.note([_RATE], answered)
        self.rules = with_knobs(self.rules, {_RATE: 0})
        self.moot(RAKE_KNOBS[1:], "the engine takes no rake (money.rake_basis_points = 0)")

    def _bisect(self, singles: Sequence[Probe]) -> list[Probe]:
        """Halves the stakes between the largest one-winner stake with no rake and
        the smallest with some; returns the probes asked."""
        by_stake = {}
        for p in singles:
            stake = p.input["round"]["stakes"]
            if isinstance(stake, int) and len(p.input["round"]["seats"]) == 2:
                by_stake[stake] = self.one_winner(p)
        raked = [s for s, w in by_stake.items() if w is not None and w[1] > 0]
        if not raked:
            return []
        high = min(raked)
        low = max((s for s, w in by_stake.items() if w is not None and s < high), default=0)
        asked: list[Probe] = []
        for _ in range(_BISECTIONS):
            if high - low <= 1:
                break
            middle = (low + high) // 2
            probe = rake_probe(middle)
            self.ask([probe])
            won = self.one_winner(probe) if self.has_answer(probe) else None
            if won is None:
                break
            asked.append(probe)
            if won[1] > 0:
                high = middle
            else:
                low = middle
        return asked

    def _solve(self, seen: Sequence[tuple[int, int]], usable: list[Probe]) -> None:
        raked = [(m, r) for m, r in seen if r > 0]
        start = raked[0][0]
        spared = max((m for m, r in seen if r == 0 and m < start), default=0)
        top = raked[-1][1]
        capped = top if sum(1 for _, r in raked if r == top) > 1 else 0
        low, high = _rate_bounds(raked, capped)
        # below a cap the ladder may leave the rate open: a winner's money where
        # two candidate rates round to different rakes under the cap tells them apart
        points = next(
            (max(self.points(p) or (0,)) for p in usable if p.name.startswith("rake-stake-")), 0
        )
        for _ in range(_BISECTIONS):
            money = _separating_money(low, high, capped, points, start)
            if money is None:
                break
            probe = rake_probe(money // points)
            self.ask([probe])
            won = self.one_winner(probe) if self.has_answer(probe) else None
            if won is None or probe in usable:
                break
            usable.append(probe)
            raked.append(won)
            bounds = _rate_bounds([w for w in raked if w[1] > 0], capped)
            if bounds == (low, high):
                break
            low, high = bounds
        names = _shown(usable)
        if low > high:
            for knob in RAKE_KNOBS:
                self.undetermine(knob, f"no value of it explains the answers to {names}")
            return
        rate = self.rules[_RATE] if low <= self.rules[_RATE] <= high else low
        if low < high:
            why = f"the answers to {names} fit {_RATE} = {low}..{high} (kept {rate})"
            self.undetermine(_RATE, why)
        minimum = self._minimum(spared, start, rate)
        usable += self._shared_cap(capped, rate, usable)
        caps = self._caps(capped, usable)
        fits = [
            pair
            for pair in caps
            if all(self.matches(p, self._with(rate, minimum, pair)) for p in usable)
        ]
        if not fits:
            for knob in RAKE_KNOBS:
                self.undetermine(knob, f"no value of it explains the answers to {names}")
            return
        if capped and {(capped, 0), (0, capped)} <= set(fits):
            why = f"the answers to {names} fit a cap of {capped} per pot or per round"
            self.undetermine(_PER_POT, why)
            self.undetermine(_PER_ROUND, why)
        self.rules = self._with(rate, minimum, fits[0])

    def _with(self, rate: int, minimum: int, caps: tuple[int, int]) -> Rules:
        knobs = {_RATE: rate, _MINIMUM: minimum, _PER_POT: caps[0], _PER_ROUND: caps[1]}
        return with_knobs(self.rules, knobs)

    def _minimum(self, spared: int, start: int, rate: int) -> int:
        """The minimum pot: ``start``, the least money seen raked, when the most
        money seen unraked would have paid at the rate (not determined when the
        stakes could not be halved to one unit of money between them); any
        value up to ``start`` gives the same rakes otherwise (the base's kept,
        else 0)."""
        if spared * rate // BASIS == 0:
            current = self.rules[_MINIMUM]
            return int(current) if current <= start else 0
        if start - spared > 1:
            self.undetermine(_MINIMUM, f"the rake starts between money {spared + 1} and {start}")
        return start

    def _shared_cap(self, capped: int, rate: int, usable: Sequence[Probe]) -> list[Probe]:
        """Three winners whose rakes would be about the cap, a half and a third of
        it: a cap they share shows how the units left over are given."""
        big = next((p for p in usable if p.name == "rake-three-winners"), None)
        seen = self.money_and_rake(big) if big is not None else None
        if capped < 6 or seen is None or min(seen[0][:3]) <= 0:
            return []
        stakes = []
        for seat, share in enumerate((capped, capped // 2 + 1, capped // 3 + 1)):
            points = seen[0][seat] // 10**12
            money = -(-share * BASIS // rate)
            stakes.append(max(1, -(-money // max(points, 1))))
        probe = three_winners("rake-shared-cap", stakes)
        self.ask([probe])
        return [probe] if self.money_and_rake(probe) is not None else []

    def _caps(self, capped: int, usable: Sequence[Probe]) -> list[tuple[int, int]]:
        """(cap per pot, cap per round) to try, simplest first (the base's before
        them): none; the one-winner cap ``capped`` per pot or per round; a round
        cap that the rake of several winners shows."""
        totals = []
        for probe in usable:
            seen = self.money_and_rake(probe)
            if seen is not None and sum(1 for m in seen[0] if m > 0) > 1:
                totals.append(sum(seen[1]))
        pots = (0, capped) if capped else (0,)
        out = [(self.rules[_PER_POT], self.rules[_PER_ROUND]), (0, 0)]
        if capped:
            out += [(capped, 0), (0, capped)]
        out += [(pot, t) for t in sorted(set(totals)) for pot in pots if t > 0]
        return list(dict.fromkeys(out))
