"""One round of one table, as a game server runs it, dealt provably fair.

The :class:`Round` state machine is in :mod:`capsa.round.machine`; its
parts: what a server hands it (:mod:`~capsa.round.args`), each seat's play
and the close (:mod:`~capsa.round.play`), its sealed saved state
(:mod:`~capsa.round.state`), its timers and auto-arrange policy
(:mod:`~capsa.round.timers`) and what a player may see
(:mod:`~capsa.round.view`).
"""

from capsa.round.machine import PHASES, Round, RoundError, StaleStateError

__all__ = ["PHASES", "Round", "RoundError", "StaleStateError"]
