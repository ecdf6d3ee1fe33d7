"""Tests of capsa.render: showdown pages, histories and indexes, in words and in a browser."""
