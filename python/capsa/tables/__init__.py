"""Per-row win-probability tables of the arranging solver, one file per preset
(a preset that plays another preset's tables ships none).

``<preset>.bin`` holds, for the top, middle and bottom rows, the distribution
of a well-playing opponent's row hands over rank classes (``strength >> 10``:
category and rank key, suits ignored), computed by iterated best response,
and how the three rows move together (a copula: the hands counted in a grid
of their three rows' percentiles). Files are
keyed by rank-class value, never by an internal index.

Format: ``CAPSATB1``, a little-endian u32 length and that many bytes of
``key=value`` lines (the rules the tables were trained for, the trainer
version, the training parameters, ``scoop_rate``), then per row a varint
count and (varint class delta, varint weight) pairs, then the joint section:
varint bins and bins^3 varint counts (top bin, then middle, then bottom).
Tables without the joint section are read too.

Commands (``capsa tables``, or ``python -m capsa.tables``)::

    train --preset pagat            # writes ./pagat.bin
    train --rules house.toml        # writes ./<rules name>.bin
    train --all --ship              # regenerates the shipped files (source checkout)
    check --preset pagat            # retrains, compares with the shipped bytes
    info --preset pagat             # metadata of the tables the solver uses

Training with the defaults takes about 4.5 min per preset on two cores; the
shipped files are the output of ``train --ship`` byte for byte, at the
defaults or at the smaller size some are trained at (docs/solver.md gives
the commands), and ``check --all`` proves it (about 25 minutes).

The shipped files are the game core's data (``crates/capsa-core/tables`` in a
source checkout), embedded in the extension when it is built: :func:`shipped`
gives a preset's bytes.
"""

from __future__ import annotations

from pathlib import Path

from capsa import _core

__all__ = ["shipped", "source_tables_dir"]

# the root of a source checkout, when the package is run from one
# (python/capsa/tables/__init__.py)
_CHECKOUT = Path(__file__).resolve().parents[3]


def shipped(name: str) -> bytes | None:
    """The bytes of a preset's shipped tables file, as the solver uses them,
    or ``None`` for a preset that ships none (the nearest shipped tables play
    it). Raises nothing."""
    return _core.shipped_tables(name)


def source_tables_dir() -> Path | None:
    """The tables folder of a source checkout (the core crate's, whose build
    embeds it), or ``None`` for an installed package, which training never
    writes into. Raises nothing."""
    folder = _CHECKOUT / "crates" / "capsa-core" / "tables"
    if (_CHECKOUT / "Cargo.toml").is_file() and folder.is_dir():
        return folder
    return None
