//! How a knob's value meets its field of [`Rules`]: one codec per kind of
//! field, named by the knob's row of the table ([`super::knobs::KNOBS`]),
//! from which [`Rules::set_knob`] and [`Rules::knob`] follow.

use std::marker::PhantomData;

use super::choices::{AddedSuits, FlagChoice, RuleChoice};
use super::{KnobValue, NaturalEntry, RankedRow};
use crate::error::{Error, Result};
use crate::rank::parse_suit_order;

/// The conversion between a knob's value and its field of type `F`.
pub trait Codec<F: ?Sized> {
    /// Sets the field from the value; errors name the knob.
    fn set(name: &str, field: &mut F, value: KnobValue) -> Result<()>;
    /// The field as a value; `None` for a knob the engine does not keep or
    /// an optional knob left out.
    fn get(field: &F) -> Option<KnobValue>;
}

fn wrong_value(name: &str, value: &KnobValue) -> Error {
    Error::rules(format!("{name} cannot take {value:?}"))
}

fn text(name: &str, value: KnobValue) -> Result<String> {
    match value {
        KnobValue::Text(t) => Ok(t),
        other => Err(wrong_value(name, &other)),
    }
}

/// Free text the engine checks and drops (`name`, `description`).
pub struct AsText;
impl Codec<()> for AsText {
    fn set(name: &str, _: &mut (), value: KnobValue) -> Result<()> {
        crate::texts::check_rules_text(name, &text(name, value)?).map_err(Error::rules)
    }
    fn get(_: &()) -> Option<KnobValue> {
        None
    }
}

/// An integer.
pub struct AsInt;
impl Codec<i64> for AsInt {
    fn set(name: &str, field: &mut i64, value: KnobValue) -> Result<()> {
        match value {
            KnobValue::Int(v) => {
                *field = v;
                Ok(())
            }
            other => Err(wrong_value(name, &other)),
        }
    }
    fn get(field: &i64) -> Option<KnobValue> {
        Some(KnobValue::Int(*field))
    }
}

/// A number of players.
pub struct AsCount;
impl Codec<usize> for AsCount {
    fn set(name: &str, field: &mut usize, value: KnobValue) -> Result<()> {
        let mut v = 0i64;
        AsInt::set(name, &mut v, value)?;
        *field = usize::try_from(v)
            .map_err(|_| Error::rules(format!("{name} is a number of players, got {v}")))?;
        Ok(())
    }
    fn get(field: &usize) -> Option<KnobValue> {
        Some(KnobValue::Int(i64::try_from(*field).unwrap_or(i64::MAX)))
    }
}

/// `true` or `false`.
pub struct AsFlag;
impl Codec<bool> for AsFlag {
    fn set(name: &str, field: &mut bool, value: KnobValue) -> Result<()> {
        match value {
            KnobValue::Flag(b) => {
                *field = b;
                Ok(())
            }
            other => Err(wrong_value(name, &other)),
        }
    }
    fn get(field: &bool) -> Option<KnobValue> {
        Some(KnobValue::Flag(*field))
    }
}

/// One of a few names, kept as its enum.
pub struct AsChoice;
impl<T: RuleChoice> Codec<T> for AsChoice {
    fn set(name: &str, field: &mut T, value: KnobValue) -> Result<()> {
        *field = text(name, value)?.parse()?;
        Ok(())
    }
    fn get(field: &T) -> Option<KnobValue> {
        Some(KnobValue::Text(field.to_string()))
    }
}

/// One of two names, kept as the engine's flag (true for the second).
pub struct AsFlagChoice<T>(PhantomData<T>);
impl<T: FlagChoice> Codec<bool> for AsFlagChoice<T> {
    fn set(name: &str, field: &mut bool, value: KnobValue) -> Result<()> {
        *field = text(name, value)?.parse::<T>()?.flag();
        Ok(())
    }
    fn get(field: &bool) -> Option<KnobValue> {
        Some(KnobValue::Text(T::from_flag(*field).to_string()))
    }
}

/// The suit order, kept as each suit's strength (d, c, h, s).
pub struct AsSuitOrder;
impl Codec<[u8; 4]> for AsSuitOrder {
    fn set(name: &str, field: &mut [u8; 4], value: KnobValue) -> Result<()> {
        *field = parse_suit_order(&text(name, value)?)?;
        Ok(())
    }
    fn get(field: &[u8; 4]) -> Option<KnobValue> {
        let mut order: Vec<(u8, char)> = field.iter().copied().zip("dchs".chars()).collect();
        order.sort_unstable_by_key(|&(strength, _)| std::cmp::Reverse(strength));
        Some(KnobValue::Text(order.iter().map(|(_, c)| c).collect()))
    }
}

/// A royalty row.
pub struct AsRoyalties;
impl Codec<[i64; 10]> for AsRoyalties {
    fn set(name: &str, field: &mut [i64; 10], value: KnobValue) -> Result<()> {
        match value {
            KnobValue::Royalties(row) => {
                *field = row;
                Ok(())
            }
            other => Err(wrong_value(name, &other)),
        }
    }
    fn get(field: &[i64; 10]) -> Option<KnobValue> {
        Some(KnobValue::Royalties(*field))
    }
}

/// A ranked royalty row.
pub struct AsRanked;
impl Codec<RankedRow> for AsRanked {
    fn set(name: &str, field: &mut RankedRow, value: KnobValue) -> Result<()> {
        match value {
            KnobValue::RoyaltiesByRank(row) => {
                *field = *row;
                Ok(())
            }
            other => Err(wrong_value(name, &other)),
        }
    }
    fn get(field: &RankedRow) -> Option<KnobValue> {
        Some(KnobValue::RoyaltiesByRank(Box::new(*field)))
    }
}

/// `naturals.enabled`.
pub struct AsNaturals;
impl Codec<Vec<NaturalEntry>> for AsNaturals {
    fn set(name: &str, field: &mut Vec<NaturalEntry>, value: KnobValue) -> Result<()> {
        match value {
            KnobValue::Naturals(list) => {
                *field = list;
                Ok(())
            }
            other => Err(wrong_value(name, &other)),
        }
    }
    fn get(field: &Vec<NaturalEntry>) -> Option<KnobValue> {
        Some(KnobValue::Naturals(field.clone()))
    }
}

/// An optional card, as card text (`"Ah"`, `"10h"`, either case, suit
/// symbols as the card reader reads them).
pub struct AsCard;
impl Codec<Option<u8>> for AsCard {
    fn set(name: &str, field: &mut Option<u8>, value: KnobValue) -> Result<()> {
        let t = text(name, value)?;
        let card = crate::cards::parse_token(t.trim()).ok_or_else(|| {
            Error::rules(format!("{name} must be a card such as \"Ah\", got {t:?}"))
        })?;
        *field = Some(card);
        Ok(())
    }
    fn get(field: &Option<u8>) -> Option<KnobValue> {
        Some(KnobValue::Text(crate::cards::card_text((*field)?)))
    }
}

/// `deck.added_suits`: its name (an [`AddedSuits`]) in the rules, a bit per
/// suit in the deck.
pub(super) struct AsAddedSuits;
impl Codec<u8> for AsAddedSuits {
    fn set(name: &str, field: &mut u8, value: KnobValue) -> Result<()> {
        let added: AddedSuits = text(name, value)?.parse()?;
        *field = added.suits();
        Ok(())
    }
    fn get(field: &u8) -> Option<KnobValue> {
        let added = AddedSuits::ALL.iter().find(|a| a.suits() == *field)?;
        Some(KnobValue::Text(added.to_string()))
    }
}
