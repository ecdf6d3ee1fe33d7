"""A reference table server for capsa: Starlette + uvicorn, one sealed round
state per table, records in :mod:`capsa.store` (``examples/server/README.md``).

``create_app(store_url, key, ...)`` (:mod:`examples.server.app`) builds the
application; ``python -m examples.server`` runs it.
"""
