"""The files written from the knob table (``capsa.rules.KNOBS``): the knob
reference of ``docs/rules.md``, the rules of the protocol schema and the
default preset, ``crates/capsa-core/presets/capsa-susun.toml``, whose values are the
table's defaults.

``python -m capsa.rules.reference --write`` rewrites the three from a
checkout (the table in ``docs/rules.md`` between its two marker comments,
the ``rules`` definition of ``capsa/conformance/schema/protocol.json``, the
preset file below its opening comment); ``--check`` exits 1, naming the
file, when one is not what the table gives. ``knob_reference()``,
``rules_schema()`` and ``default_rules()`` return what they are written
from.
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path
from typing import Any

from capsa._core import KNOBS, Knob
from capsa.rules.checks import INT_MAX, RANKS
from capsa.rules.loading import DEFAULT_PRESET
from capsa.rules.writer import dump_toml, toml_value

__all__ = [
    "DOCS",
    "PRESET",
    "SCHEMA",
    "default_rules",
    "knob_reference",
    "main",
    "rules_schema",
]

_PACKAGE = Path(__file__).resolve().parents[1]
#: The rules reference, in a checkout.
DOCS = _PACKAGE.parents[1] / "docs" / "rules.md"
#: The conformance protocol's schema, shipped in the package.
SCHEMA = _PACKAGE / "conformance" / "schema" / "protocol.json"
#: The default preset, in a checkout: the game core's data.
PRESET = _PACKAGE.parents[1] / "crates" / "capsa-core" / "presets" / f"{DEFAULT_PRESET}.toml"

BEGIN = "<!-- knob reference: written by python -m capsa.rules.reference --write -->"
END = "<!-- end of the knob reference -->"


def _code(text: str) -> str:
    return f"`{text}`"


def _type_text(knob: Knob) -> str:
    if knob.type == "text":
        most = f"text of at most {knob.high:,} bytes"
        return most if knob.default is not None else f"{most}, optional"
    if knob.type == "suit-order":
        return "the letters `s h c d` once each, either case"
    if knob.type == "choice":
        return ", ".join(_code(json.dumps(name)) for name in knob.choices)
    if knob.type == "bool":
        return "true, false"
    if knob.type == "int":
        if knob.high == INT_MAX:
            return f"integer >= {knob.low}"
        return f"integer {knob.low}..{knob.high}"
    if knob.type == "naturals":
        return "list of `{ name, points, ... }`, names distinct, points integer >= 0"
    if knob.type == "card":
        return 'a card (`"Ah"`, `"10h"`, either case), optional'
    if knob.type == "royalties-by-rank":
        cats = (
            "any category"
            if len(knob.choices) == 10
            else "only " + ", ".join(map(_code, knob.choices))
        )
        return f"table of category = table of rank letter = integer >= 0, {cats}"
    every = next(k.choices for k in KNOBS if k.type == "royalties" and len(k.choices) == 10)
    if knob.choices == every:
        return "table of category = integer >= 0, any category"
    return "table of category = integer >= 0, only " + ", ".join(map(_code, knob.choices))


def _default_text(knob: Knob) -> str:
    default = knob.default
    if default is None:
        return "(none)"
    if knob.type == "naturals":
        return ", ".join(f"`{n['name']}` {n['points']}" for n in default)
    return _code(toml_value(default))


def _entry_schema(knob: Knob, points: dict[str, Any]) -> dict[str, Any]:
    rank = {"enum": list(RANKS)}
    flag = {"type": "boolean"}
    return {
        "type": "object",
        "required": ["name", "points"],
        "additionalProperties": False,
        "properties": {
            "name": {"enum": list(knob.choices)},
            "points": points,
            "lowest": rank,
            "highest": rank,
            "count": _int_schema(12, 13),
            "exactly": flag,
            "same_tier": flag,
            "raised_points": points,
            "raised_by": {"enum": ["quads", "straight-flush"]},
            "must_declare": flag,
            "bonus": flag,
        },
    }


def knob_reference() -> str:
    """The knob reference of ``docs/rules.md``: a Markdown table of every knob
    (and ``base``) with its type and range, its value in ``capsa-susun`` and
    its meaning, ending in a newline. Raises nothing."""
    lines = [
        "| knob | type, range | capsa-susun | meaning |",
        "|---|---|---|---|",
        "| `base` | a preset name | | keys left out come from this preset (default "
        "`capsa-susun`); not kept in the rules |",
    ]
    for knob in KNOBS:
        cells = (_code(knob.name), _type_text(knob), _default_text(knob), knob.doc)
        lines.append("| " + " | ".join(cells) + " |")
    return "\n".join(lines) + "\n"


def _int_schema(low: int, high: int) -> dict[str, Any]:
    return {"type": "integer", "minimum": low, "maximum": high}


def _knob_schema(knob: Knob) -> dict[str, Any]:
    if knob.type == "text":
        return {"type": "string"}
    if knob.type == "suit-order":
        return {"type": "string", "pattern": "^(?!.*(.).*\\1)[shcd]{4}$"}
    if knob.type == "choice":
        return {"enum": list(knob.choices)}
    if knob.type == "bool":
        return {"type": "boolean"}
    if knob.type == "int":
        return _int_schema(knob.low or 0, INT_MAX if knob.high is None else knob.high)
    if knob.type == "card":
        return {"type": "string"}
    points = _int_schema(0, INT_MAX)
    if knob.type == "naturals":
        return {"type": "array", "items": _entry_schema(knob, points)}
    if knob.type == "royalties-by-rank":
        ranks = {
            "type": "object",
            "propertyNames": {"enum": list(RANKS)},
            "additionalProperties": points,
        }
        return {
            "type": "object",
            "propertyNames": {"enum": list(knob.choices)},
            "additionalProperties": ranks,
        }
    return {
        "type": "object",
        "propertyNames": {"enum": list(knob.choices)},
        "additionalProperties": points,
    }


def _object(description: str | None = None) -> dict[str, Any]:
    shape: dict[str, Any] = {"type": "object"}
    if description is not None:
        shape["description"] = description
    shape.update(required=[], additionalProperties=False, properties={})
    return shape


def rules_schema() -> dict[str, Any]:
    """The protocol schema's ``rules`` definition: the full rules data, every
    knob of the table with its type and range, those rules data may leave
    out (``Knob.required`` false) not required. Raises nothing."""
    schema = _object(
        "the full rules data: every knob of docs/rules.md, as capsa.Rules.to_dict() writes it"
    )
    for knob in KNOBS:
        *tables, leaf = knob.name.split(".")
        where = schema
        for table in tables:
            if table not in where["properties"]:
                where["properties"][table] = _object()
            if knob.required and table not in where["required"]:
                where["required"].append(table)
            where = where["properties"][table]
        where["properties"][leaf] = _knob_schema(knob)
        if knob.required:
            where["required"].append(leaf)
    return schema


def _with_reference(text: str) -> str:
    start, end = text.index(BEGIN) + len(BEGIN), text.index(END)
    return text[:start] + "\n\n" + knob_reference() + "\n" + text[end:]


def _with_schema(text: str) -> str:
    data = json.loads(text)
    data["$defs"]["rules"] = rules_schema()
    return json.dumps(data, indent=1, ensure_ascii=True) + "\n"


def default_rules() -> dict[str, Any]:
    """The rules data of the knob table's defaults, nested as a rules file
    nests it, the knobs rules data may leave out left out (as
    ``Rules.to_dict()`` writes them): the values of the default preset.
    Raises nothing."""
    data: dict[str, Any] = {}
    for knob in KNOBS:
        if not knob.required:
            continue
        *tables, leaf = knob.name.split(".")
        where = data
        for table in tables:
            where = where.setdefault(table, {})
        where[leaf] = knob.default
    return data


def _with_defaults(text: str) -> str:
    # The opening comment (the variant's sources) is the file's own; what
    # follows it is the table's defaults.
    lines = text.splitlines(keepends=True)
    comment = 0
    while comment < len(lines) and lines[comment].startswith("#"):
        comment += 1
    return "".join(lines[:comment]) + dump_toml(default_rules())


def main(argv: list[str] | None = None) -> int:
    """``python -m capsa.rules.reference --write | --check``: rewrites, or
    checks, the knob reference of ``docs/rules.md``, the rules of the
    protocol schema and the default preset's values. Returns 0, or 1 from
    ``--check`` when a file is not current (naming it on stderr). Raises
    ``SystemExit`` for bad arguments and ``OSError`` when a file cannot be
    read or written."""
    parser = argparse.ArgumentParser(prog="python -m capsa.rules.reference")
    mode = parser.add_mutually_exclusive_group(required=True)
    mode.add_argument("--write", action="store_true", help="rewrite the files")
    mode.add_argument("--check", action="store_true", help="exit 1 if a file is not current")
    args = parser.parse_args(argv)
    stale = 0
    for path, rewrite in (
        (DOCS, _with_reference),
        (SCHEMA, _with_schema),
        (PRESET, _with_defaults),
    ):
        text = path.read_text(encoding="utf-8")
        current = rewrite(text)
        if current == text:
            continue
        if args.write:
            path.write_text(current, encoding="utf-8")
            print(f"wrote {path}")
        else:
            print(
                f"{path} is not what the knob table gives; run {parser.prog} --write",
                file=sys.stderr,
            )
            stale = 1
    return stale


if __name__ == "__main__":
    sys.exit(main())
