//! JSON values as round records hold them, read strictly and written in one
//! canonical form, the form a record's digest is taken over.
//!
//! Reading refuses what would make a record ambiguous: a key given twice, a
//! number that is not an integer of at most 64 bits (records hold no
//! fractions; a float would round), text that is not UTF-8, a lone
//! surrogate, anything after the value, nesting deeper than 128.
//!
//! The canonical form is UTF-8 JSON with no insignificant whitespace,
//! object members sorted by key (by code point, which is UTF-8 byte order),
//! integers in plain decimal, and strings escaped only where JSON requires:
//! `\"`, `\\`, `\b`, `\f`, `\n`, `\r`, `\t`, the other characters below
//! U+0020 as `\u00xx` (lowercase hex), everything else as itself. It is what
//! Python's `json.dumps(value, sort_keys=True, separators=(",", ":"),
//! ensure_ascii=False)` writes for such values, and RFC 8785 (JCS) for
//! values whose keys are ASCII and whose integers are below 2^53.

use serde::de::{DeserializeSeed, Deserializer, MapAccess, SeqAccess, Visitor};
use std::borrow::Cow;
use std::collections::HashSet;
use std::fmt::{self, Write};

use crate::error::{Error, Result};

/// A JSON value of a record; its texts borrow from the text read where
/// they can (a string without escapes).
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Json<'a> {
    Null,
    Bool(bool),
    /// An integer in `i64::MIN..=u64::MAX`.
    Int(i128),
    Str(Cow<'a, str>),
    Array(Vec<Json<'a>>),
    /// Members in the order read (keys distinct); written sorted.
    Object(Vec<(Cow<'a, str>, Json<'a>)>),
    /// Text already in canonical form, written as it is (for values the
    /// engine writes itself, e.g. a settlement).
    Raw(Cow<'a, str>),
}

impl<'a> Json<'a> {
    /// A string value.
    pub fn str(text: impl Into<Cow<'a, str>>) -> Self {
        Json::Str(text.into())
    }

    /// The same value owning all its text.
    pub fn into_owned(self) -> Json<'static> {
        let own = |c: Cow<'a, str>| Cow::Owned(c.into_owned());
        match self {
            Json::Null => Json::Null,
            Json::Bool(b) => Json::Bool(b),
            Json::Int(v) => Json::Int(v),
            Json::Str(s) => Json::Str(own(s)),
            Json::Raw(s) => Json::Raw(own(s)),
            Json::Array(items) => Json::Array(items.into_iter().map(Json::into_owned).collect()),
            Json::Object(members) => Json::Object(
                members
                    .into_iter()
                    .map(|(k, v)| (own(k), v.into_owned()))
                    .collect(),
            ),
        }
    }

    /// The member `key` of an object, if it has one.
    pub fn get(&self, key: &str) -> Option<&Json<'a>> {
        match self {
            Json::Object(members) => members.iter().find(|(k, _)| k == key).map(|(_, v)| v),
            _ => None,
        }
    }

    /// What kind of value this is, for messages.
    pub fn kind(&self) -> &'static str {
        match self {
            Json::Null => "null",
            Json::Bool(_) => "a boolean",
            Json::Int(_) => "an integer",
            Json::Str(_) => "a string",
            Json::Array(_) => "an array",
            Json::Object(_) | Json::Raw(_) => "an object",
        }
    }
}

/// An object key, borrowed from the text when it has no escapes.
pub struct Key<'a>(pub Cow<'a, str>);

impl<'de> serde::Deserialize<'de> for Key<'de> {
    fn deserialize<D: Deserializer<'de>>(d: D) -> std::result::Result<Self, D::Error> {
        struct V;
        impl<'de> Visitor<'de> for V {
            type Value = Key<'de>;
            fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
                f.write_str("a key")
            }
            fn visit_borrowed_str<E>(self, v: &'de str) -> std::result::Result<Key<'de>, E> {
                Ok(Key(Cow::Borrowed(v)))
            }
            fn visit_str<E>(self, v: &str) -> std::result::Result<Key<'de>, E> {
                Ok(Key(Cow::Owned(v.to_owned())))
            }
            fn visit_string<E>(self, v: String) -> std::result::Result<Key<'de>, E> {
                Ok(Key(Cow::Owned(v)))
            }
        }
        d.deserialize_str(V)
    }
}

impl<'de> serde::Deserialize<'de> for Json<'de> {
    fn deserialize<D: Deserializer<'de>>(d: D) -> std::result::Result<Self, D::Error> {
        struct V;
        impl<'de> Visitor<'de> for V {
            type Value = Json<'de>;
            fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
                f.write_str("a JSON value")
            }
            fn visit_unit<E>(self) -> std::result::Result<Json<'de>, E> {
                Ok(Json::Null)
            }
            fn visit_bool<E>(self, v: bool) -> std::result::Result<Json<'de>, E> {
                Ok(Json::Bool(v))
            }
            fn visit_i64<E>(self, v: i64) -> std::result::Result<Json<'de>, E> {
                Ok(Json::Int(i128::from(v)))
            }
            fn visit_u64<E>(self, v: u64) -> std::result::Result<Json<'de>, E> {
                Ok(Json::Int(i128::from(v)))
            }
            fn visit_f64<E: serde::de::Error>(self, _: f64) -> std::result::Result<Json<'de>, E> {
                Err(not_an_integer())
            }
            fn visit_borrowed_str<E>(self, v: &'de str) -> std::result::Result<Json<'de>, E> {
                Ok(Json::Str(Cow::Borrowed(v)))
            }
            fn visit_str<E>(self, v: &str) -> std::result::Result<Json<'de>, E> {
                Ok(Json::Str(Cow::Owned(v.to_owned())))
            }
            fn visit_string<E>(self, v: String) -> std::result::Result<Json<'de>, E> {
                Ok(Json::Str(Cow::Owned(v)))
            }
            fn visit_seq<A: SeqAccess<'de>>(
                self,
                mut seq: A,
            ) -> std::result::Result<Json<'de>, A::Error> {
                let mut items = Vec::new();
                while let Some(item) = seq.next_element()? {
                    items.push(item);
                }
                Ok(Json::Array(items))
            }
            fn visit_map<A: MapAccess<'de>>(
                self,
                mut map: A,
            ) -> std::result::Result<Json<'de>, A::Error> {
                let mut members: Vec<(Cow<'de, str>, Json<'de>)> = Vec::new();
                // keys in order (canonical text) are distinct; once one is
                // out of order, every key goes through a set of those seen
                let mut seen: Option<HashSet<Cow<'de, str>>> = None;
                while let Some(Key(key)) = map.next_key::<Key<'de>>()? {
                    let in_order = match members.last() {
                        Some((last, _)) => seen.is_none() && *last < key,
                        None => true,
                    };
                    if !in_order {
                        let set = seen.get_or_insert_with(|| {
                            members.iter().map(|(k, _)| k.clone()).collect()
                        });
                        if !set.insert(key.clone()) {
                            return Err(given_twice(&key));
                        }
                    }
                    members.push((key, map.next_value()?));
                }
                Ok(Json::Object(members))
            }
        }
        d.deserialize_any(V)
    }
}

/// Reads one JSON value from UTF-8 bytes (see the module documentation).
pub fn parse(bytes: &[u8]) -> Result<Json<'_>> {
    parse_str(utf8(bytes)?)
}

/// The bytes as text, or where they are not UTF-8.
pub fn utf8(bytes: &[u8]) -> Result<&str> {
    std::str::from_utf8(bytes).map_err(|e| {
        let at = e.valid_up_to();
        Error::table(format!(
            "the text is not valid UTF-8 (byte 0x{:02x} at byte {})",
            bytes[at],
            at + 1
        ))
    })
}

/// Reads one JSON value from text (see the module documentation).
pub fn parse_str(text: &str) -> Result<Json<'_>> {
    parse_seeded(text, std::marker::PhantomData::<Json<'_>>)
}

/// Reads one JSON value from text into what `seed` builds of it, under
/// the same rules as [`parse_str`] (the seed refuses a key given twice with
/// [`given_twice`]).
pub fn parse_seeded<'de, S: DeserializeSeed<'de>>(text: &'de str, seed: S) -> Result<S::Value> {
    let mut de = serde_json::Deserializer::from_str(text);
    seed.deserialize(&mut de)
        .and_then(|v| de.end().map(|()| v))
        .map_err(|e| Error::table(format!("malformed JSON: {e}")))
}

/// The fault of an object whose `key` is given twice.
pub fn given_twice<E: serde::de::Error>(key: &str) -> E {
    E::custom(format_args!("key {key:?} is given twice"))
}

/// A record's integers are at most 64 bits: the fault of any other number.
pub fn not_an_integer<E: serde::de::Error>() -> E {
    E::custom("a number that is not an integer of at most 64 bits (records hold integers only)")
}

/// Appends `text` as a canonical JSON string.
pub fn write_str(out: &mut String, text: &str) {
    out.push('"');
    // no early exit: the scan of a whole short text vectorises
    let plain = text.bytes().fold(true, |plain, b| {
        plain & (b >= 0x20) & (b != b'"') & (b != b'\\')
    });
    if plain {
        out.push_str(text);
        out.push('"');
        return;
    }
    let mut start = 0;
    for (at, c) in text.char_indices() {
        let short = match c {
            '"' => Some("\\\""),
            '\\' => Some("\\\\"),
            '\u{8}' => Some("\\b"),
            '\u{c}' => Some("\\f"),
            '\n' => Some("\\n"),
            '\r' => Some("\\r"),
            '\t' => Some("\\t"),
            c if (c as u32) < 0x20 => None,
            _ => continue,
        };
        out.push_str(&text[start..at]);
        match short {
            Some(escape) => out.push_str(escape),
            None => {
                let _ = write!(out, "\\u{:04x}", c as u32);
            }
        }
        start = at + c.len_utf8();
    }
    out.push_str(&text[start..]);
    out.push('"');
}

/// Appends an integer in plain decimal.
pub fn write_int(out: &mut String, v: i128) {
    out.push_str(itoa::Buffer::new().format(v));
}

/// The length of the canonical form of `value`, read by [`parse_str`]
/// from text that is in that form as far as the value shows: every string
/// and key borrowed from the text (written without escapes, so as the
/// canonical form writes it) and every object's keys in order. None when
/// it shows otherwise. Text of this length is then the canonical form
/// itself: each of its tokens is written as the canonical form writes it
/// (integers have one form here), so whitespace between them would make
/// it longer.
pub fn read_canonical_len(value: &Json<'_>) -> Option<usize> {
    Some(match value {
        Json::Null | Json::Bool(true) => 4,
        Json::Bool(false) => 5,
        Json::Int(v) => int_len(*v),
        Json::Str(Cow::Borrowed(s)) => s.len() + 2,
        Json::Str(Cow::Owned(_)) | Json::Raw(_) => return None,
        Json::Array(items) => {
            let mut len = 2 + items.len().saturating_sub(1);
            for item in items {
                len += read_canonical_len(item)?;
            }
            len
        }
        Json::Object(members) => {
            let mut len = 2 + members.len().saturating_sub(1);
            for (k, (key, item)) in members.iter().enumerate() {
                if !matches!(key, Cow::Borrowed(_)) || (k > 0 && members[k - 1].0 >= *key) {
                    return None;
                }
                len += key.len() + 3 + read_canonical_len(item)?;
            }
            len
        }
    })
}

/// The number of characters of an integer in plain decimal.
fn int_len(v: i128) -> usize {
    let mut rest = v.unsigned_abs();
    let mut len = usize::from(v < 0) + 1;
    while rest >= 10 {
        rest /= 10;
        len += 1;
    }
    len
}

/// Appends the canonical form of `value`.
pub fn write(out: &mut String, value: &Json) {
    match value {
        Json::Null => out.push_str("null"),
        Json::Bool(true) => out.push_str("true"),
        Json::Bool(false) => out.push_str("false"),
        Json::Int(v) => write_int(out, *v),
        Json::Str(s) => write_str(out, s),
        Json::Raw(text) => out.push_str(text),
        Json::Array(items) => {
            out.push('[');
            for (k, item) in items.iter().enumerate() {
                if k > 0 {
                    out.push(',');
                }
                write(out, item);
            }
            out.push(']');
        }
        Json::Object(members) => write_members(out, members, None),
    }
}

/// Appends the canonical form of an object of `members`, leaving out the
/// member `skip` when given.
pub fn write_members(out: &mut String, members: &[(Cow<'_, str>, Json<'_>)], skip: Option<&str>) {
    write_members_noting(out, members, skip, "", &mut (0..0));
}

/// [`write_members`], noting in `span` where the value of the member
/// `noted` was written in `out`.
pub fn write_members_noting(
    out: &mut String,
    members: &[(Cow<'_, str>, Json<'_>)],
    skip: Option<&str>,
    noted: &str,
    span: &mut std::ops::Range<usize>,
) {
    out.push('{');
    let mut write_member = |k: usize, key: &str, item: &Json<'_>| {
        if k > 0 {
            out.push(',');
        }
        write_str(out, key);
        out.push(':');
        let start = out.len();
        write(out, item);
        if key == noted {
            *span = start..out.len();
        }
    };
    let kept = members.iter().filter(|(k, _)| Some(k.as_ref()) != skip);
    // canonical text, the common case, is sorted already
    if members.windows(2).all(|w| w[0].0 < w[1].0) {
        for (k, (key, item)) in kept.enumerate() {
            write_member(k, key, item);
        }
    } else {
        let mut sorted: Vec<&(Cow<'_, str>, Json<'_>)> = kept.collect();
        sorted.sort_unstable_by(|a, b| a.0.cmp(&b.0));
        for (k, (key, item)) in sorted.into_iter().enumerate() {
            write_member(k, key, item);
        }
    }
    out.push('}');
}

/// The canonical form of `value`.
pub fn to_string(value: &Json) -> String {
    let mut out = String::with_capacity(256);
    write(&mut out, value);
    out
}

#[cfg(test)]
mod tests;
