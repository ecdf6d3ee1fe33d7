"""The ledger of a house: many rounds of many tables, each player's running
balance and the house's rake, zero-sum at every step.

:class:`Ledger` books records (:mod:`capsa.ledger.book`); its entries and
the checks of its saved form are in :mod:`capsa.ledger.data`.
"""

from capsa.ledger.book import LEDGER_FORMAT, LEDGER_VERSION, Ledger, LedgerEntry

__all__ = ["LEDGER_FORMAT", "LEDGER_VERSION", "Ledger", "LedgerEntry"]
