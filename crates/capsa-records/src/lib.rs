//! capsa-records: round records and the provably fair deal.
//!
//! [`record`] writes, reads, replays and verifies round records
//! (docs/records.md); [`fair`] is the provably fair deal (the server seed's
//! commitment, client seeds, the deal drawn from both); [`state_mac`] seals
//! saved state under a server's key. Built on `capsa-core`.

pub mod fair;
pub mod record;
pub mod state_mac;
