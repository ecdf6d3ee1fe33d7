"""Rules: every knob of the game as one immutable, hashable value.

Rules are data. A preset is a TOML file of the game core
(``crates/capsa-core/presets``, embedded in the extension); a house variant
is a TOML file with the same keys (see ``docs/rules.md``). Keys a file leaves
out take the values of its ``base`` preset (``capsa-susun`` unless it says
otherwise); unknown keys, keys given twice, wrong types and out-of-range
values raise :class:`RulesError` naming the key. A wrong Python type of an
argument (TOML text that is not a ``str``, a config that is not a mapping)
raises :class:`TypeError`.

Every knob is a row of the engine's knob table, ``KNOBS`` (the same tuple as
``capsa._core.KNOBS``): its dotted name, type, range or choices, default
(the ``capsa-susun`` preset), the sentence ``docs/rules.md`` gives it and
its place in the solver tables' metadata. ``DEFAULT_PRESET`` is the preset
``Rules()`` is (``"capsa-susun"``); ``MAX_RULES_BYTES`` the largest rules
file (in bytes) or TOML text (in characters) read, 1 MiB; ``INT_MAX`` the
largest integer a knob takes (2**63 - 1, the engine's 64-bit points);
``KNOB_NAMES`` every knob's dotted name, in the table's order;
``RANKING_KNOBS`` those that change how hands rank.

The modules, by job: ``loading`` (presets, rules files and TOML text, with
their guards), ``checks`` (rules data checked against the knob table),
``value`` (the ``Rules`` value), ``writer`` (TOML text), ``reference``
(the knob reference of ``docs/rules.md``, the protocol schema's rules and
the values of the ``capsa-susun`` preset file, written from the table:
``python -m capsa.rules.reference --write``).
"""

from __future__ import annotations

from capsa._core import KNOBS, Knob, RulesError
from capsa.rules import writer as _writer
from capsa.rules.checks import INT_MAX, KNOB_NAMES, RANKING_KNOBS
from capsa.rules.loading import DEFAULT_PRESET, MAX_RULES_BYTES, presets
from capsa.rules.value import Rules

__all__ = [
    "DEFAULT_PRESET",
    "INT_MAX",
    "KNOBS",
    "KNOB_NAMES",
    "MAX_RULES_BYTES",
    "RANKING_KNOBS",
    "Knob",
    "Rules",
    "RulesError",
    "presets",
]

# The TOML key writer, which the tests read here.
_toml_key = _writer.toml_key
