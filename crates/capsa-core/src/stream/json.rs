//! JSON values read as the stream reads them: members and elements left as
//! raw text, a key given twice refused, integers exactly.

use std::borrow::Cow;
use std::collections::HashSet;
use std::fmt;

use serde::de::{Deserializer, MapAccess, SeqAccess, Visitor};
use serde_json::value::RawValue;

use crate::canonical::Key;
use crate::error::{Error, Result};
use crate::flags::not_a_flag;

pub(super) fn bad(message: impl Into<String>) -> Error {
    Error::table(message)
}

pub(super) fn utf8(bytes: &[u8]) -> Result<&str> {
    std::str::from_utf8(bytes).map_err(|e| {
        let at = e.valid_up_to();
        bad(format!(
            "the text is not valid UTF-8 (byte 0x{:02x} at byte {})",
            bytes[at],
            at + 1
        ))
    })
}

pub(super) fn malformed(e: serde_json::Error) -> Error {
    bad(format!("malformed JSON: {e}"))
}

/// The members of a JSON object in order, values left as raw text; a key
/// given twice is an error.
struct Members<'a>(Vec<(Cow<'a, str>, &'a RawValue)>);

impl<'de> serde::Deserialize<'de> for Members<'de> {
    fn deserialize<D: Deserializer<'de>>(d: D) -> std::result::Result<Self, D::Error> {
        struct V;
        impl<'de> Visitor<'de> for V {
            type Value = Members<'de>;
            fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
                f.write_str("a JSON object")
            }
            fn visit_map<A: MapAccess<'de>>(
                self,
                mut map: A,
            ) -> std::result::Result<Self::Value, A::Error> {
                let mut out: Vec<(Cow<'de, str>, &'de RawValue)> = Vec::new();
                let mut seen: HashSet<Cow<'de, str>> = HashSet::new();
                while let Some(Key(key)) = map.next_key::<Key<'de>>()? {
                    if !seen.insert(key.clone()) {
                        return Err(serde::de::Error::custom(format_args!(
                            "key {key:?} is given twice"
                        )));
                    }
                    out.push((key, map.next_value()?));
                }
                Ok(Members(out))
            }
        }
        d.deserialize_map(V)
    }
}

/// The elements of a JSON array, left as raw text.
struct Elements<'a>(Vec<&'a RawValue>);

impl<'de> serde::Deserialize<'de> for Elements<'de> {
    fn deserialize<D: Deserializer<'de>>(d: D) -> std::result::Result<Self, D::Error> {
        struct V;
        impl<'de> Visitor<'de> for V {
            type Value = Elements<'de>;
            fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
                f.write_str("a JSON array")
            }
            fn visit_seq<A: SeqAccess<'de>>(
                self,
                mut seq: A,
            ) -> std::result::Result<Self::Value, A::Error> {
                let mut out = Vec::new();
                while let Some(v) = seq.next_element()? {
                    out.push(v);
                }
                Ok(Elements(out))
            }
        }
        d.deserialize_seq(V)
    }
}

/// The kind of a raw JSON value, from its first character.
#[derive(Clone, Copy, PartialEq, Eq)]
pub(super) enum Kind {
    Null,
    Bool,
    Number,
    String,
    Array,
    Object,
}

pub(super) fn kind(v: &RawValue) -> Kind {
    match v.get().as_bytes().first() {
        Some(b'n') => Kind::Null,
        Some(b't' | b'f') => Kind::Bool,
        Some(b'"') => Kind::String,
        Some(b'[') => Kind::Array,
        Some(b'{') => Kind::Object,
        _ => Kind::Number,
    }
}

/// A raw JSON value cut short for a message.
pub(super) fn shown(v: &RawValue) -> String {
    let text = v.get();
    match text.char_indices().nth(40) {
        Some((cut, _)) => format!("{}...", &text[..cut]),
        None => text.to_string(),
    }
}

pub(super) fn members(v: &RawValue) -> Result<Vec<(Cow<'_, str>, &RawValue)>> {
    serde_json::from_str::<Members>(v.get())
        .map(|m| m.0)
        .map_err(|e| bad(e.to_string()))
}

pub(super) fn elements(v: &RawValue) -> Result<Vec<&RawValue>> {
    serde_json::from_str::<Elements>(v.get())
        .map(|m| m.0)
        .map_err(|e| bad(e.to_string()))
}

pub(super) fn string(v: &RawValue) -> Result<String> {
    serde_json::from_str::<String>(v.get()).map_err(|e| bad(e.to_string()))
}

/// A JSON number written as an integer (no fraction, no exponent), exactly;
/// `None` when it is not one or does not fit in an `i64`.
pub(super) fn integer(v: &RawValue) -> Option<i64> {
    let text = v.get();
    if !is_integer_text(text) {
        return None;
    }
    text.parse().ok()
}

pub(super) fn flag(v: &RawValue, what: impl fmt::Display) -> Result<bool> {
    match v.get() {
        "true" => Ok(true),
        "false" => Ok(false),
        _ => Err(bad(not_a_flag(what, kind_name(v)))),
    }
}

/// What a raw JSON value is, as a record's reader names it (see
/// `Json::kind`): "a boolean", "an integer", "a number", ...
pub(super) fn kind_name(v: &RawValue) -> &'static str {
    match kind(v) {
        Kind::Null => "null",
        Kind::Bool => "a boolean",
        Kind::Number if is_integer_text(v.get()) => "an integer",
        Kind::Number => "a number",
        Kind::String => "a string",
        Kind::Array => "an array",
        Kind::Object => "an object",
    }
}

/// An integer written without a fraction or an exponent, of any size.
pub(super) fn is_integer_text(text: &str) -> bool {
    let digits = text.strip_prefix('-').unwrap_or(text);
    !digits.is_empty() && digits.bytes().all(|b| b.is_ascii_digit())
}
