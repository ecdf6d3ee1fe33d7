//! Every reader of a Python argument, one per input kind, each defined
//! once: the binding files that expose functions and classes call these
//! and never read an argument themselves. A reader calls the core's own
//! reader or check where the core has one, so a fault has one message
//! whatever channel it comes through.
//!
//! The files, from the bottom: `text` (type names for messages, str and
//! bytes, strings, per-seat lists, seeds, keys, digests, round and table
//! ids, the stream's lines), `numbers`
//! (integers in a range, the seat count, counts, seeds, nonces, threads),
//! `meta` (the server's notes for a record), `players` (a table's players
//! for a record), `flags` (a bool, per-seat flag
//! arrays), `cards` (one card, hands, card-id arrays), `stakes` (a table's
//! stakes, one stake per round), `seats` (the seats of a table, a
//! submitted arrangement, the seats of a played round), `roles` (a banker
//! game's banker and multipliers), `knobs` (a rules
//! dict, knob by knob) and `choices` (the rules, the stream's named rules,
//! the solver's tables, strategies, efforts, naturals by name).

pub(crate) mod cards;
pub(crate) mod choices;
pub(crate) mod flags;
pub(crate) mod knobs;
pub(crate) mod meta;
pub(crate) mod numbers;
pub(crate) mod players;
pub(crate) mod roles;
pub(crate) mod seats;
pub(crate) mod stakes;
pub(crate) mod text;
