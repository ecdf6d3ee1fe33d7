"""Columnar rounds: settle Arrow tables, pandas frames and Parquet files,
and round records as rounds tables.

The package holds the columns of rounds and results tables
(:mod:`capsa.bulk.columns`, ``docs/bulk.md``) and a banker game's columns
(:mod:`capsa.bulk.roles`); the settlement of a table, a frame or a Parquet
file (:mod:`capsa.bulk.settle`); and round records read, replayed and laid
out as the rows of a rounds table (:mod:`capsa.bulk.record_tables`, in
bounded memory by :mod:`capsa.bulk.record_rows`). Dask runs the same on a
cluster: :mod:`capsa.dask`. Needs ``pyarrow`` (``pip install
'capsa[parquet]'``).
"""

import importlib
from types import ModuleType
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from capsa.bulk.record_tables import (
        RECORD_ID_COLUMNS,
        RULES_METADATA_KEY,
        OnError,
        OnVoid,
        RecordRound,
        parquet_rules,
        read_record_round,
        record_data,
        records_schema,
        round_id_of,
        rules_key,
        rules_name,
        rules_of_metadata,
        to_parquet,
    )
    from capsa.bulk.settle import (
        AUTO_COLUMNS,
        BANKER_COLUMN,
        CARD_COLUMNS,
        DECLARE_COLUMNS,
        DEFAULT_SEATS,
        ECHOED_COLUMNS,
        FIGURES,
        LAST_CARD_ID,
        MAX_SEATS,
        MULTIPLIER_COLUMNS,
        OUTCOMES,
        PLAYER_COLUMNS,
        SURRENDER_COLUMNS,
        ParquetResultsWriter,
        default_known_rules,
        echoed_fields,
        parquet_files,
        record_batches,
        records_table,
        results_schema,
        rounds_schema,
        rounds_table,
        settle_frame,
        settle_parquet,
        settle_table,
    )

__all__ = [
    "AUTO_COLUMNS",
    "BANKER_COLUMN",
    "CARD_COLUMNS",
    "DECLARE_COLUMNS",
    "DEFAULT_SEATS",
    "ECHOED_COLUMNS",
    "FIGURES",
    "LAST_CARD_ID",
    "MAX_SEATS",
    "MULTIPLIER_COLUMNS",
    "OUTCOMES",
    "PLAYER_COLUMNS",
    "RECORD_ID_COLUMNS",
    "RULES_METADATA_KEY",
    "SURRENDER_COLUMNS",
    "OnError",
    "OnVoid",
    "ParquetResultsWriter",
    "RecordRound",
    "default_known_rules",
    "echoed_fields",
    "parquet_files",
    "parquet_rules",
    "read_record_round",
    "record_batches",
    "record_data",
    "records_schema",
    "records_table",
    "results_schema",
    "round_id_of",
    "rounds_schema",
    "rounds_table",
    "rules_key",
    "rules_name",
    "rules_of_metadata",
    "settle_frame",
    "settle_parquet",
    "settle_table",
    "to_parquet",
]

# The names load their module on first use, so that reading the columns
# (every ``capsa`` command does) loads neither numpy nor the settlement.
_LAZY_NAMES: dict[str, str] = {
    "AUTO_COLUMNS": "capsa.bulk.settle",
    "BANKER_COLUMN": "capsa.bulk.settle",
    "CARD_COLUMNS": "capsa.bulk.settle",
    "DECLARE_COLUMNS": "capsa.bulk.settle",
    "DEFAULT_SEATS": "capsa.bulk.settle",
    "ECHOED_COLUMNS": "capsa.bulk.settle",
    "FIGURES": "capsa.bulk.settle",
    "LAST_CARD_ID": "capsa.bulk.settle",
    "MAX_SEATS": "capsa.bulk.settle",
    "MULTIPLIER_COLUMNS": "capsa.bulk.settle",
    "OUTCOMES": "capsa.bulk.settle",
    "PLAYER_COLUMNS": "capsa.bulk.settle",
    "SURRENDER_COLUMNS": "capsa.bulk.settle",
    "ParquetResultsWriter": "capsa.bulk.settle",
    "default_known_rules": "capsa.bulk.settle",
    "echoed_fields": "capsa.bulk.settle",
    "parquet_files": "capsa.bulk.settle",
    "record_batches": "capsa.bulk.settle",
    "records_table": "capsa.bulk.settle",
    "results_schema": "capsa.bulk.settle",
    "rounds_schema": "capsa.bulk.settle",
    "rounds_table": "capsa.bulk.settle",
    "settle_frame": "capsa.bulk.settle",
    "settle_parquet": "capsa.bulk.settle",
    "settle_table": "capsa.bulk.settle",
    "RECORD_ID_COLUMNS": "capsa.bulk.record_tables",
    "RULES_METADATA_KEY": "capsa.bulk.record_tables",
    "OnError": "capsa.bulk.record_tables",
    "OnVoid": "capsa.bulk.record_tables",
    "RecordRound": "capsa.bulk.record_tables",
    "parquet_rules": "capsa.bulk.record_tables",
    "read_record_round": "capsa.bulk.record_tables",
    "record_data": "capsa.bulk.record_tables",
    "records_schema": "capsa.bulk.record_tables",
    "round_id_of": "capsa.bulk.record_tables",
    "rules_key": "capsa.bulk.record_tables",
    "rules_name": "capsa.bulk.record_tables",
    "rules_of_metadata": "capsa.bulk.record_tables",
    "to_parquet": "capsa.bulk.record_tables",
}


def __getattr__(name: str) -> object:
    module = _LAZY_NAMES.get(name)
    if module is None:
        raise AttributeError(f"module 'capsa.bulk' has no attribute {name!r}")
    value = getattr(importlib.import_module(module), name)
    globals()[name] = value
    return value


def __dir__() -> list[str]:
    """The public names, loaded or not, and the submodules loaded so far."""
    loaded = (name for name, value in globals().items() if isinstance(value, ModuleType))
    return sorted({*__all__, *(name for name in loaded if name != "importlib")})
