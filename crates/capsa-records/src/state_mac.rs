//! The MAC of a saved round state: HMAC-SHA256 under a server key of each
//! named field, and of the whole.
//!
//! A field's MAC is over its name, one zero byte and its text (the field's
//! canonical JSON), so a value moved to another name no longer matches.
//! The whole's MAC is over every field's name, one zero byte and its
//! 32-byte MAC, in the order given, so a field added, removed or renamed
//! changes it too.

use hmac::{Hmac, Mac};
use sha2::Sha256;

use capsa_core::error::{Error, Result};

/// The shortest server key, in bytes (32 are recommended).
pub const MIN_KEY_BYTES: usize = 16;

type Keyed = Hmac<Sha256>;

fn keyed(key: &[u8]) -> Result<Keyed> {
    if key.len() < MIN_KEY_BYTES {
        return Err(Error::argument(format!(
            "key must be at least {MIN_KEY_BYTES} bytes (32 recommended), got {}",
            key.len()
        )));
    }
    <Keyed as Mac>::new_from_slice(key)
        .map_err(|_| Error::argument("key: HMAC-SHA256 takes a key of any length"))
}

/// A server key ready to MAC a state's fields.
#[derive(Clone)]
pub struct StateKey(Keyed);

impl StateKey {
    /// `key` (at least [`MIN_KEY_BYTES`] bytes, `ArgumentError` otherwise).
    pub fn new(key: &[u8]) -> Result<Self> {
        keyed(key).map(StateKey)
    }

    /// The MAC of one field: its name, one zero byte and its text.
    pub fn field_mac(&self, name: &str, text: &str) -> [u8; 32] {
        let mut one = self.0.clone();
        one.update(name.as_bytes());
        one.update(&[0]);
        one.update(text.as_bytes());
        one.finalize().into_bytes().into()
    }

    /// The MAC of one field given as its name, one zero byte and its text
    /// together.
    pub fn mac_of(&self, input: &[u8]) -> [u8; 32] {
        let mut one = self.0.clone();
        one.update(input);
        one.finalize().into_bytes().into()
    }

    /// The MAC of the whole: every field's name, one zero byte and its MAC,
    /// in the order given.
    pub fn whole_mac<'a>(
        &self,
        macs: impl IntoIterator<Item = (&'a str, &'a [u8; 32])>,
    ) -> [u8; 32] {
        let mut whole = self.0.clone();
        for (name, mac) in macs {
            whole.update(name.as_bytes());
            whole.update(&[0]);
            whole.update(mac);
        }
        whole.finalize().into_bytes().into()
    }
}

/// Each field's MAC and the whole's, under `key` (at least
/// [`MIN_KEY_BYTES`] bytes, `ArgumentError` otherwise).
pub fn state_macs(key: &[u8], fields: &[(&str, &str)]) -> Result<(Vec<[u8; 32]>, [u8; 32])> {
    let key = StateKey::new(key)?;
    let macs: Vec<[u8; 32]> = fields
        .iter()
        .map(|&(name, text)| key.field_mac(name, text))
        .collect();
    let whole = key.whole_mac(fields.iter().map(|f| f.0).zip(&macs));
    Ok((macs, whole))
}

/// Whether `mac` written in lowercase hex is `given`, in time that does
/// not depend on where they differ.
pub fn same_mac(mac: &[u8; 32], given: &str) -> bool {
    let written = crate::fair::hex(mac);
    if given.len() != written.len() {
        return false;
    }
    written
        .bytes()
        .zip(given.bytes())
        .fold(0u8, |diff, (a, b)| diff | (a ^ b))
        == 0
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_field_is_bound_to_its_name_and_the_whole_to_every_field() {
        let key = [7u8; 32];
        let (macs, whole) = state_macs(&key, &[("a", "1"), ("b", "2")]).unwrap();
        let (swapped, whole_swapped) = state_macs(&key, &[("a", "2"), ("b", "1")]).unwrap();
        assert_ne!(macs[0], swapped[1]);
        assert_ne!(whole, whole_swapped);
        let (fewer, whole_fewer) = state_macs(&key, &[("a", "1")]).unwrap();
        assert_eq!(fewer[0], macs[0]);
        assert_ne!(whole_fewer, whole);
        let mut direct = <Keyed as Mac>::new_from_slice(&key).unwrap();
        direct.update(b"a\x001");
        assert_eq!(macs[0], <[u8; 32]>::from(direct.finalize().into_bytes()));
    }

    #[test]
    fn a_mac_matches_only_its_own_hex() {
        let (_, whole) = state_macs(&[3; 32], &[("a", "1")]).unwrap();
        let written = crate::fair::hex(&whole);
        assert!(same_mac(&whole, &written));
        assert!(!same_mac(&whole, &written[1..]));
        assert!(!same_mac(&whole, &written.to_uppercase()));
        assert!(!same_mac(&whole, ""));
    }

    #[test]
    fn a_short_key_is_refused() {
        let error = state_macs(&[1; 15], &[]).unwrap_err();
        assert!(
            error.message().contains("at least 16 bytes"),
            "{}",
            error.message()
        );
        assert!(state_macs(&[1; 16], &[]).is_ok());
    }
}
