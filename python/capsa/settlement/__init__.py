"""Settlement: who pays whom, and why, when the arranging time runs out.

:func:`settle` settles one table with full detail (a :class:`Settlement`
with ``explain()`` and ``to_dict()``) of :class:`Seat` objects
(:mod:`capsa.settlement.seat`); :func:`settle_batch` settles many tables
given as numpy arrays, on every core, with points and money only
(:mod:`capsa.settlement.batch`); :func:`settle_json_lines` settles rounds
written as JSON, as ``capsa settle`` does (:mod:`capsa.settlement.json_lines`).
"""

from capsa._core import Settlement, settle
from capsa.settlement.batch import BatchSettlement, settle_batch
from capsa.settlement.json_lines import settle_json_lines
from capsa.settlement.seat import Seat

__all__ = [
    "BatchSettlement",
    "Seat",
    "Settlement",
    "settle",
    "settle_batch",
    "settle_json_lines",
]
