"""Tests of capsa.bulk and capsa.dask: columnar settlement, records as rounds tables, exports."""
