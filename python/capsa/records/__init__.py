"""Round records: reading, replay and verification of the provably fair deal.

What a record holds and how it is read, replayed and verified is in
:mod:`capsa.records.read`; a record's time (``meta.played_at``) in
:mod:`capsa.records.times`; the chains of many tables a log interleaves in
:mod:`capsa.records.chains`.
"""

from capsa.records.read import (
    AUTO_ARRANGE_POLICIES,
    FAIR_ALGORITHM,
    RECORD_FORMAT,
    RECORD_FORMAT_VERSION,
    SETTLEMENT_VERSION,
    VOID_FORMAT,
    VOID_FORMAT_VERSION,
    RecordError,
    ReplayError,
    SettlementVersionError,
    SolverMismatchError,
    View,
    canonical_json,
    read_record,
    read_records,
    record_digest,
    replay,
    rules_dict_of_format,
    verify_deal,
    void_record,
)

__all__ = [
    "AUTO_ARRANGE_POLICIES",
    "FAIR_ALGORITHM",
    "RECORD_FORMAT",
    "RECORD_FORMAT_VERSION",
    "SETTLEMENT_VERSION",
    "VOID_FORMAT",
    "VOID_FORMAT_VERSION",
    "RecordError",
    "ReplayError",
    "SettlementVersionError",
    "SolverMismatchError",
    "View",
    "canonical_json",
    "read_record",
    "read_records",
    "record_digest",
    "replay",
    "rules_dict_of_format",
    "verify_deal",
    "void_record",
]
