//! A row of the knob table: what values a knob takes, its default, its
//! place in the solver tables' metadata, and the checks of its value: the
//! one place a knob's range and a royalty row's categories are checked,
//! for rules data as it is read and for the engine's rules alike.

/// The largest amount of points or money: the engine's 64-bit integers.
pub const INT_MAX: i64 = i64::MAX;

/// What values a knob takes.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum KnobType {
    /// Free text (the engine does not read it).
    Text,
    /// The four suit letters `s h c d` once each, strongest first.
    SuitOrder,
    /// One of a few names.
    Choice(&'static [&'static str]),
    /// `true` or `false`.
    Flag,
    /// An integer in `min..=max`.
    Int { min: i64, max: i64 },
    /// A list of `{ name, points }` tables: naturals, strongest first, each
    /// once, points >= 0.
    Naturals,
    /// A table of category = points >= 0, with the categories it may name.
    Royalties(&'static [&'static str]),
    /// A table of category = a table of rank letter = points >= 0, with the
    /// categories it may name.
    RoyaltiesByRank(&'static [&'static str]),
    /// One card, as card text (`"Ah"`).
    Card,
}

/// A knob's value in the `capsa-susun` preset.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum KnobDefault {
    /// The knob is optional and the preset leaves it out.
    Absent,
    Text(&'static str),
    Flag(bool),
    Int(i64),
    /// `naturals.enabled`: (natural name, points), strongest first.
    Naturals(&'static [(&'static str, i64)]),
    /// A royalty row: (category name, points); categories left out pay 0.
    Royalties(&'static [(&'static str, i64)]),
    /// A ranked royalty row with no rank listed.
    NoRankedRoyalties,
}

/// Where a knob goes in a solver tables file's metadata: the key it is
/// written under and its weight in the distance that picks the nearest
/// shipped tables for custom rules (per point of difference for numbers,
/// per royalty value for a royalty row, once when names differ).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct TablesKey {
    pub key: &'static str,
    pub weight: f64,
}

/// One row of the knob table.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Knob {
    /// The dotted name, as rules files, dicts and `rules["..."]` spell it.
    pub name: &'static str,
    pub kind: KnobType,
    pub default: KnobDefault,
    /// The sentence of the knob reference in `docs/rules.md`.
    pub doc: &'static str,
    /// Whether it changes how hands rank (and so what `compare` answers).
    pub ranking: bool,
    /// Its key and weight in the solver tables' metadata; `None` for the
    /// knobs the tables are not trained per.
    pub tables: Option<TablesKey>,
    /// Whether rules data in full must give it. A knob that need not is
    /// read as its default when left out and left out of rules data at its
    /// default: the knobs added after rules data was first written, whose
    /// defaults settle as before, so that data written before them reads
    /// (and is written) as it was.
    pub required: bool,
}

pub(super) const fn int(min: i64) -> KnobType {
    KnobType::Int { min, max: INT_MAX }
}

pub(super) const fn tables(key: &'static str, weight: f64) -> Option<TablesKey> {
    Some(TablesKey { key, weight })
}

impl Knob {
    /// Why `value` is out of this knob's range ("must be >= 0", "must be in
    /// 2..5"): an integer knob's, or the points of a royalty row (>= 0);
    /// `None` when it is in range or the knob holds no integers.
    pub fn int_fault(&self, value: i128) -> Option<String> {
        let (min, max) = match self.kind {
            KnobType::Int { min, max } => (min, max),
            KnobType::Royalties(_) | KnobType::RoyaltiesByRank(_) => (0, INT_MAX),
            _ => return None,
        };
        let (min, max) = (min as i128, max as i128);
        if (min..=max).contains(&value) {
            return None;
        }
        Some(if value < min && max == INT_MAX as i128 {
            format!("must be >= {min}")
        } else {
            format!("must be in {min}..{max}")
        })
    }

    /// Why a royalty row may not name `category` ("is not a category of
    /// that row; the categories are: ..."), or `None` when it may or the
    /// knob is not a royalty row.
    pub fn category_fault(&self, category: &str) -> Option<String> {
        let (KnobType::Royalties(allowed) | KnobType::RoyaltiesByRank(allowed)) = self.kind else {
            return None;
        };
        (!allowed.contains(&category)).then(|| {
            format!(
                "is not a category of that row; the categories are: {}",
                allowed.join(", ")
            )
        })
    }
}

/// Declares the knob table, `KNOBS` (in `knobs.rs`, where it expands),
/// from one declaration per knob: its row and its field of `Rules` (a codec
/// of `fields` and the place of the field in rules `r`), from which the
/// field access of `Rules::set_knob` and `Rules::knob` follows.
macro_rules! knob_table {
    (
        $(#[$meta:meta])*
        $({
            name: $name:expr,
            kind: $kind:expr,
            default: $default:expr,
            doc: $doc:expr,
            ranking: $ranking:expr,
            tables: $tables:expr,
            field: $codec:ty [$r:ident => $place:expr],
            required: $required:expr,
        },)*
    ) => {
        $(#[$meta])*
        pub const KNOBS: &[Knob] = &[$(
            Knob {
                name: $name,
                kind: $kind,
                default: $default,
                doc: $doc,
                ranking: $ranking,
                tables: $tables,
                required: $required,
            },
        )*];

        impl Rules {
            /// Sets the field of the knob `name` from `value`; `Ok(false)`
            /// for a name that is not a knob.
            #[allow(unused_variables)]
            pub(super) fn set_field(&mut self, name: &str, value: KnobValue) -> Result<bool> {
                $(if name == $name {
                    let $r = &mut *self;
                    <$codec as Codec<_>>::set(name, &mut $place, value)?;
                    return Ok(true);
                })*
                Ok(false)
            }

            /// The field of the knob `name` as a value; `None` for a name
            /// that is not a knob.
            #[allow(unused_variables)]
            pub(super) fn field(&self, name: &str) -> Option<Option<KnobValue>> {
                $(if name == $name {
                    let $r = self;
                    return Some(<$codec as Codec<_>>::get(&$place));
                })*
                None
            }
        }
    };
}
pub(super) use knob_table;
