//! The fast-score values of the five-card classes as a middle and as a
//! bottom in one open-addressing table: the scan looks each of a hand's
//! 1,287 five-card subsets up once, one cache line, for both rows.

use super::model::hash;

/// One class's (value, P(win), P(lose)) as a middle and as a bottom.
#[derive(Clone, Copy)]
#[repr(C, align(32))]
struct Slot {
    /// The class, or [`EMPTY`].
    class: u32,
    as_middle: [f32; 3],
    as_bottom: [f32; 3],
}

/// No class is this large (a class is a strength shifted right).
const EMPTY: u32 = u32::MAX;

pub(super) struct FiveValues {
    slots: Vec<Slot>,
    bits: u32,
}

impl FiveValues {
    /// The table of `entries`: (class, as a middle, as a bottom), distinct
    /// classes.
    pub(super) fn new(entries: &[(u32, [f32; 3], [f32; 3])]) -> FiveValues {
        let bits = (usize::BITS - (2 * entries.len().max(4)).leading_zeros()).max(4);
        let empty = Slot {
            class: EMPTY,
            as_middle: [0.0; 3],
            as_bottom: [0.0; 3],
        };
        let mut slots = vec![empty; 1 << bits];
        let mask = (1 << bits) - 1;
        for &(class, as_middle, as_bottom) in entries {
            let mut h = hash(class, bits);
            while slots[h].class != EMPTY {
                h = (h + 1) & mask;
            }
            slots[h] = Slot {
                class,
                as_middle,
                as_bottom,
            };
        }
        FiveValues { slots, bits }
    }

    /// A class's values as a middle and as a bottom, if the table has it.
    #[inline(always)]
    pub(super) fn get(&self, class: u32) -> Option<([f32; 3], [f32; 3])> {
        let mask = (1usize << self.bits) - 1;
        let mut h = hash(class, self.bits);
        loop {
            let slot = &self.slots[h];
            if slot.class == class {
                return Some((slot.as_middle, slot.as_bottom));
            }
            if slot.class == EMPTY {
                return None;
            }
            h = (h + 1) & mask;
        }
    }
}
