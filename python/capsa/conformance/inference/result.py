"""What ``infer`` found: :class:`Inference` and its :class:`Observation` s, and
how they print (a rules file with the findings as comments, JSON, a line)."""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from typing import Any

from capsa.conformance.inference.check import Check
from capsa.conformance.inference.knobs import all_knobs, get
from capsa.conformance.inference.toml_text import toml_key, toml_value
from capsa.conformance.inference.wording import printable
from capsa.rules import DEFAULT_PRESET, Rules, presets

__all__ = ["Inference", "Observation"]

# ------------------------------------------------------------------ results


@dataclass
class Observation:
    """An answer the inferred rules do not give: ``probe`` (the name of the
    probe that showed it), ``knobs`` (the knobs it bears on), ``message`` (in
    words), ``request`` (what was asked, to replay it) and ``kind``:
    ``"answer"``, ``"claim"`` (a hello claim the answers contradict),
    ``"not-zero-sum"`` or ``"declared-not-zero-sum"`` (settle answers that do
    not sum to zero at a table size, the engine's hello declaring it or
    not). Built by :func:`infer`; raises nothing."""

    probe: str
    knobs: tuple[str, ...]
    message: str
    request: dict[str, Any] = field(default_factory=dict)
    kind: str = "answer"

    def to_json(self) -> dict[str, Any]:
        """The observation as a JSON-ready dict."""
        return {
            "probe": self.probe,
            "knobs": list(self.knobs),
            "message": self.message,
            "request": self.request,
            "kind": self.kind,
        }


@dataclass
class Inference:
    """What ``infer`` found: ``rules`` (the rules the engine plays, as far as
    the probes show), ``base`` (the rules the probes were sent under),
    ``engine`` (its ``hello`` answer), ``probed`` (each determined knob ->
    the probes that fixed it), ``not_probed`` and ``undetermined`` (knob ->
    why, a sentence naming the knob: its value in ``rules`` is the base's,
    and the rules file does not write it), ``equivalent`` (knob -> the
    values that give the same answers to every case, and the one kept),
    ``observations`` (answers the inferred rules do not
    give), ``asked`` (requests sent), ``notes``, ``not_zero_sum`` (the
    table sizes whose settle answers were set aside) and ``check`` (the
    harness run under the inferred rules, a
    :class:`~capsa.conformance.inference.check.Check`, or None). Built by
    :func:`infer`; raises nothing."""

    rules: Rules
    base: Rules
    engine: dict[str, Any]
    probed: dict[str, list[str]]
    not_probed: dict[str, str]
    undetermined: dict[str, str]
    observations: list[Observation]
    asked: int
    notes: list[str] = field(default_factory=list)
    equivalent: dict[str, str] = field(default_factory=dict)
    not_zero_sum: list[int] = field(default_factory=list)
    check: Check | None = None

    @property
    def unexplained(self) -> list[Observation]:
        """The observations that are not declared differences (an answer that
        does not sum to zero at a size the hello declares is one)."""
        return [o for o in self.observations if o.kind != "declared-not-zero-sum"]

    @property
    def explains_every_answer(self) -> bool:
        """Whether capsa under the inferred rules gives every answer the engine gave
        (to the probes, and in the check's run when there was one), declared
        differences aside."""
        check = self.check is None or self.check.explains_every_answer
        return not self.unexplained and check

    def changed(self) -> dict[str, tuple[Any, Any]]:
        """Knob -> (the base's value, the inferred one), for every knob that differs."""
        out = {}
        for knob in all_knobs(self.base) | all_knobs(self.rules):
            before, after = get(self.base, knob), get(self.rules, knob)
            if before != after and knob != "name":
                out[knob] = (before, after)
        return dict(sorted(out.items()))

    def to_toml(self) -> str:
        """The inferred rules as a rules file, the findings as comments."""
        lines = [
            f"# Rules inferred by capsa conformance infer from {self.engine.get('engine')!r},",
            f"# probed under {self.base.name!r} ({self.asked} requests).",
        ]
        lines += [f"# note: {note}" for note in self.notes]
        declared = len(self.observations) - len(self.unexplained)
        lines.append(
            "# the inferred rules explain every probe's answer"
            + (f" but {declared} declared difference(s)" if declared else "")
            if not self.unexplained
            else f"# the inferred rules do not explain {len(self.unexplained)} finding(s): "
            "see the observations"
        )
        lines += [f"# {line}" for line in (self.check.lines() if self.check else [])]
        for knob, (before, after) in self.changed().items():
            if after is None:
                continue  # a natural not paid: naturals.enabled says so
            shown = f"{json.dumps(after)} (the base has {json.dumps(before)})"
            probes = self.probed.get(knob, [])
            fixed = f", fixed by {', '.join(probes[:6])}" + (", ..." if len(probes) > 6 else "")
            if knob in self.undetermined:
                fixed = ", not determined (below)"
            lines.append(
                f"# changed: {knob} = {shown}{fixed if probes or knob in self.undetermined else ''}"
            )
        for _, reason in sorted(self.equivalent.items()):
            lines.append(f"# equivalent: {reason}")
        for _, reason in sorted(self.undetermined.items()):
            lines.append(f"# not determined: {reason}")
        for _, reason in sorted(self.not_probed.items()):
            lines.append(f"# not probed: {reason}")
        for obs in self.observations:
            lines.append(f"# observation [{obs.probe}]: {obs.message}")
        # an engine's text in a comment must not end the comment
        comments = "\n".join(printable(line) for line in lines)
        return comments + "\n" + self._rules_text()

    def _rules_text(self) -> str:
        """The rules as a preset and the knobs that differ from it, dotted; a knob
        not determined is not written (a comment says so), so loading the file
        gives it the preset's value."""
        preset = next((n for n in presets() if Rules.preset(n) == self.base), DEFAULT_PRESET)
        reference = Rules.preset(preset).to_dict()
        lines = [f"base = {toml_value(preset)}", f"name = {toml_value(self.rules.name)}"]
        for key, value in self.rules.to_dict().items():
            if key == "name":
                continue
            pairs = value.items() if isinstance(value, dict) else [(None, value)]
            before = reference.get(key)
            for sub, inner in pairs:
                knob = key if sub is None else f"{key}.{sub}"
                was = before if sub is None else (before or {}).get(sub)
                if inner == was:
                    continue
                written = toml_key(key) + ("" if sub is None else "." + toml_key(sub))
                if knob in self.undetermined and knob != "naturals.enabled":
                    lines.append(f"# {written}: not determined, not written")
                    continue
                if knob in self.undetermined:
                    lines.append(f"# {written}: written as far as the answers show it")
                inside = "naturals.points." if knob == "naturals.enabled" else f"{knob}."
                parts = [k for k in self.undetermined if k.startswith(inside)]
                lines += [
                    f"# {k}: not determined; this table holds the base's value" for k in parts
                ]
                lines.append(f"{written} = {toml_value(inner)}")
        return "\n".join(lines) + "\n"

    def _how(self, knob: str) -> str:
        """How a changed knob was found: the probes that fixed it, or not at all."""
        if knob in self.undetermined:
            return ", not determined (below)"
        probes = self.probed.get(knob, [])
        if not probes:
            return ""
        return f", fixed by {', '.join(probes[:6])}" + (", ..." if len(probes) > 6 else "")

    def to_json(self) -> dict[str, Any]:
        """The findings as a JSON-ready dict (the rules as ``Rules.to_dict()``)."""
        return {
            "engine": self.engine,
            "base": self.base.name,
            "asked": self.asked,
            "rules": self.rules.to_dict(),
            "changed": {k: list(v) for k, v in self.changed().items()},
            "probed": self.probed,
            "not_probed": self.not_probed,
            "undetermined": self.undetermined,
            "equivalent": self.equivalent,
            "observations": [o.to_json() for o in self.observations],
            "notes": self.notes,
            "not_zero_sum": self.not_zero_sum,
            "explains_every_answer": self.explains_every_answer,
            "check": self.check.to_json() if self.check else None,
        }

    def summary(self) -> str:
        """One line: how many knobs differ, observations, probed and not."""
        changed = self.changed()
        parts = [f"{len(changed)} knob(s) differ from {self.base.name}"]
        parts.append(f"{len(self.observations)} observation(s)")
        parts.append(
            f"{len(self.probed)} probed, {len(self.equivalent)} equivalent, "
            f"{len(self.undetermined)} not determined, {len(self.not_probed)} not probed"
        )
        return ", ".join(parts) + f" ({self.asked} requests)"
