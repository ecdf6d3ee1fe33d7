"""Tests of capsa.records: reading, replaying and verifying round records and
void records, and the ids they hold."""
