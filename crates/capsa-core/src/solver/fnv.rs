//! The 64-bit FNV-1a hash.

/// The 64-bit FNV-1a hash: the random baseline's seed from a hand's cards,
/// the cache's id of a tables file.
pub(super) fn fnv1a(bytes: &[u8]) -> u64 {
    bytes.iter().fold(0xcbf2_9ce4_8422_2325u64, |h, &c| {
        (h ^ c as u64).wrapping_mul(0x100_0000_01b3)
    })
}
