//! The one validity rule for the texts a round names (docs/records.md, "Ids
//! and texts"): ids (of a table, a round, a player), display names, the
//! server's notes (`meta`) and the rules' own text (`name`, `description`).
//!
//! Every writer (a `Round`'s argument readers, the record writer, a server's
//! `join`) asks the rule of a *written* text; the record reader asks less of
//! an id, so that older records keep reading: it refuses only U+0000, which
//! a store cannot key by, so that no record it accepts is refused by a
//! store. The bounds keep every record well under the largest a reader
//! takes (`capsa_records::record::MAX_RECORD_BYTES`): a byte of text is at most 6
//! of JSON (`\u001f`), and the sum of the bounds, so escaped, is under
//! half a mebibyte.
//!
//! A text is UTF-8 by its type: a lone surrogate never reaches these checks
//! (the Python binding names the field that holds one).

/// The longest id (table, round or player), in bytes of UTF-8.
pub const MAX_ID_BYTES: usize = 256;

/// The longest display name of a player, in bytes of UTF-8.
pub const MAX_NAME_BYTES: usize = 256;

/// The longest key of the server's notes, in bytes of UTF-8.
pub const MAX_META_KEY_BYTES: usize = 64;

/// The longest text value of the server's notes, in bytes of UTF-8.
pub const MAX_META_TEXT_BYTES: usize = 1024;

/// The longest `name` of a rule set, in bytes of UTF-8.
pub const MAX_RULES_NAME_BYTES: usize = 256;

/// The longest `description` of a rule set, in bytes of UTF-8.
pub const MAX_RULES_DESCRIPTION_BYTES: usize = 16_384;

/// Whether `c` is a control character an id may not hold: U+0000 to
/// U+001F and U+007F.
pub fn is_id_control(c: char) -> bool {
    c < ' ' || c == '\u{7f}'
}

fn length(text: &str, field: &str, max: usize) -> Result<(), String> {
    if text.is_empty() || text.len() > max {
        return Err(format!(
            "{field} must be 1 to {max} bytes of UTF-8, got {}",
            text.len()
        ));
    }
    Ok(())
}

/// The first character of `text` for which `bad` holds, with its byte
/// offset, named for a message: `U+0000 at byte 3`.
fn first_bad(text: &str, bad: impl Fn(char) -> bool) -> Option<String> {
    text.char_indices()
        .find(|&(_, c)| bad(c))
        .map(|(at, c)| format!("U+{:04X} at byte {at}", c as u32))
}

/// An id as a writer takes it (a table, round or player id named `field`):
/// 1 to [`MAX_ID_BYTES`] bytes, no control character (U+0000 to U+001F,
/// U+007F). U+0000 is named as the record reader names it.
pub fn check_id(text: &str, field: &str) -> Result<(), String> {
    check_read_id(text, field)?;
    match first_bad(text, is_id_control) {
        Some(at) => Err(format!(
            "{field} holds {at}, which an id cannot hold (a control character: U+0000 to \
             U+001F, U+007F)"
        )),
        None => Ok(()),
    }
}

/// An id as the record reader takes it: 1 to [`MAX_ID_BYTES`] bytes, no
/// U+0000 (other controls are read, as older records may hold them).
pub fn check_read_id(text: &str, field: &str) -> Result<(), String> {
    length(text, field, MAX_ID_BYTES)?;
    no_nul(text, field, "an id")
}

/// A player's display name as a writer takes it: 1 to [`MAX_NAME_BYTES`]
/// bytes, no U+0000.
pub fn check_name(text: &str, field: &str) -> Result<(), String> {
    length(text, field, MAX_NAME_BYTES)?;
    no_nul(text, field, "a name")
}

/// A player's display name as the record reader takes it: 1 to
/// [`MAX_NAME_BYTES`] bytes.
pub fn check_read_name(text: &str, field: &str) -> Result<(), String> {
    length(text, field, MAX_NAME_BYTES)
}

/// A key of the server's notes as a writer takes it: 1 to
/// [`MAX_META_KEY_BYTES`] bytes, no U+0000.
pub fn check_meta_key(key: &str) -> Result<(), String> {
    check_read_meta_key(key)?;
    no_nul(key, &format!("meta key {:?}", short(key)), "a key")
}

/// A key of the server's notes as the record reader takes it: 1 to
/// [`MAX_META_KEY_BYTES`] bytes.
pub fn check_read_meta_key(key: &str) -> Result<(), String> {
    if key.is_empty() || key.len() > MAX_META_KEY_BYTES {
        return Err(format!(
            "meta: a key is 1 to {MAX_META_KEY_BYTES} bytes of UTF-8, got {} ({:?})",
            key.len(),
            short(key)
        ));
    }
    Ok(())
}

/// A text value of the server's notes at `key`, as a writer takes it: at
/// most [`MAX_META_TEXT_BYTES`] bytes (the empty text too), no U+0000.
pub fn check_meta_text(key: &str, text: &str) -> Result<(), String> {
    check_meta_text_length(key, text)?;
    no_nul(text, &format!("meta[{key:?}]"), "a text of meta")
}

/// A text value of the server's notes as the record reader takes it: at
/// most [`MAX_META_TEXT_BYTES`] bytes.
pub fn check_meta_text_length(key: &str, text: &str) -> Result<(), String> {
    if text.len() > MAX_META_TEXT_BYTES {
        return Err(format!(
            "meta[{key:?}]: a text is at most {MAX_META_TEXT_BYTES} bytes of UTF-8, got {}",
            text.len()
        ));
    }
    Ok(())
}

/// The most bytes of UTF-8 of the rules' text knob `knob` (`name`,
/// `description`); `None` for a knob that is not one.
pub fn rules_text_bound(knob: &str) -> Option<usize> {
    match knob {
        "name" => Some(MAX_RULES_NAME_BYTES),
        "description" => Some(MAX_RULES_DESCRIPTION_BYTES),
        _ => None,
    }
}

/// A text knob of the rules (`name`, `description`): at most its bound of
/// bytes ([`rules_text_bound`]).
pub fn check_rules_text(knob: &str, text: &str) -> Result<(), String> {
    let max = rules_text_bound(knob).unwrap_or(0);
    if text.len() > max {
        return Err(format!(
            "{knob} is at most {max} bytes of UTF-8, got {}",
            text.len()
        ));
    }
    Ok(())
}

fn no_nul(text: &str, field: &str, what: &str) -> Result<(), String> {
    match first_bad(text, |c| c == '\0') {
        Some(at) => Err(format!("{field} holds {at}, which {what} cannot hold")),
        None => Ok(()),
    }
}

/// The first 20 characters of `text`, to name it in a message.
fn short(text: &str) -> String {
    text.chars().take(20).collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ids_refuse_controls_when_written_and_nul_when_read() {
        for bad in ["a\0b", "a\nb", "\u{1f}", "x\u{7f}"] {
            assert!(check_id(bad, "table_id").is_err(), "{bad:?}");
        }
        assert_eq!(
            check_id("a\nb", "players[1].id").unwrap_err(),
            "players[1].id holds U+000A at byte 1, which an id cannot hold (a control \
             character: U+0000 to U+001F, U+007F)"
        );
        // U+0000 is named alike by the writer and the reader
        assert_eq!(check_id("a\n\0", "t"), check_read_id("a\n\0", "t"));
        assert!(check_read_id("a\nb", "round_id").is_ok());
        assert_eq!(
            check_read_id("ab\0", "round_id").unwrap_err(),
            "round_id holds U+0000 at byte 2, which an id cannot hold"
        );
        for good in ["t", "table 7/round 12", "é\u{80}\u{2028}😀"] {
            assert!(check_id(good, "table_id").is_ok(), "{good:?}");
        }
    }

    #[test]
    fn lengths_are_bytes_of_utf8_at_the_bounds() {
        let longest = "é".repeat(MAX_ID_BYTES / 2);
        assert!(check_id(&longest, "round_id").is_ok());
        assert_eq!(
            check_id(&format!("{longest}x"), "round_id").unwrap_err(),
            "round_id must be 1 to 256 bytes of UTF-8, got 257"
        );
        assert!(check_id("", "round_id").is_err());
        assert!(check_name(&"n".repeat(MAX_NAME_BYTES), "name").is_ok());
        assert!(check_name(&"n".repeat(MAX_NAME_BYTES + 1), "name").is_err());
        assert!(check_name("a\nb", "name").is_ok());
        assert!(check_name("a\0b", "name").is_err());
        assert!(check_read_name("a\0b", "name").is_ok());
        assert!(check_meta_text("k", "").is_ok());
        assert!(check_meta_text("k", &"t".repeat(MAX_META_TEXT_BYTES + 1)).is_err());
        assert!(check_meta_text("k", "\0").is_err());
        assert!(check_meta_key("").is_err() && check_meta_key("k\0").is_err());
        let description = "d".repeat(MAX_RULES_DESCRIPTION_BYTES);
        assert!(check_rules_text("description", &description).is_ok());
        assert!(check_rules_text("description", &format!("{description}d")).is_err());
        assert!(check_rules_text("name", &"n".repeat(MAX_RULES_NAME_BYTES + 1)).is_err());
        assert!(check_rules_text("name", "").is_ok() && check_rules_text("name", "\0").is_ok());
    }
}
