//! Settlement of a table. See RULES.md section 6.
