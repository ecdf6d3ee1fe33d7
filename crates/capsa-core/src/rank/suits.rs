//! The suit key of the suit tie-break without a per-hand sort.
//!
//! Listing a hand's cards by rank and then by suit strength, both descending
//! ("descending card order"), differs from significance order (docs/rules.md,
//! "Suit tie-break and `suit_order`") only by where whole rank groups sit:
//! a pair moves ahead of higher kickers, the ace of a low wheel moves last.
//! That move depends on the rank pattern alone, so each class's table entry
//! carries it (as a row of the suit key table), and the suit key is one read
//! of that table, indexed by the row and the suits in descending card
//! order. Those suits come from the hand's cards as bits of one word, each
//! at `4 * rank + suit strength`, so the lowest set bit is always the
//! weakest remaining card, whatever the order the cards were given in.

/// Rows of the suit key table: at most this many distinct moves (8 occur
/// in either wheel mode).
const MOVES: usize = 16;

/// Per suit order, each card's bit `4 * rank + suit strength`; 256 entries
/// an order (zero past 51) so that indexing by a `u8` needs no bounds check.
/// The 24 suit orders take 48 KB, built at compile time.
static CARD_BITS: [[u64; 256]; 24] = {
    let mut all = [[0u64; 256]; 24];
    let mut order = 0;
    while order < 24 {
        let strength = nth_suit_strength(order);
        let mut id = 0;
        while id < 52 {
            all[order][id] = 1 << (4 * (id / 4) + strength[id % 4] as usize);
            id += 1;
        }
        order += 1;
    }
    all
};

/// The `n`-th of the 24 suit strength permutations, lexicographically.
const fn nth_suit_strength(n: usize) -> [u8; 4] {
    let mut found = 0;
    let mut code = 0;
    while code < 256 {
        let s = [code & 3, (code >> 2) & 3, (code >> 4) & 3, (code >> 6) & 3];
        let distinct = s[0] != s[1]
            && s[0] != s[2]
            && s[0] != s[3]
            && s[1] != s[2]
            && s[1] != s[3]
            && s[2] != s[3];
        if distinct {
            if found == n {
                return [s[0] as u8, s[1] as u8, s[2] as u8, s[3] as u8];
            }
            found += 1;
        }
        code += 1;
    }
    panic!("there are 24 suit orders")
}

/// The card bits of a suit order given as suit strengths (a permutation of
/// 0..4, as [`super::parse_suit_order`] makes them). Strengths that are not
/// one, which `Rules::validate` refuses, get the default order's bits.
pub(super) fn card_bits(suit_strength: [u8; 4]) -> &'static [u64; 256] {
    let find = |strength| (0..24).find(|&n| nth_suit_strength(n) == strength);
    let order = find(suit_strength)
        .or_else(|| find(super::Ranking::default().suit_strength))
        .unwrap_or(0);
    &CARD_BITS[order]
}

/// Bits of a [`suit_planes`] value: five cards' low suit bits, then
/// their high suit bits.
const PLANES_BITS: u32 = 10;

/// The suit strengths of the `n` cards whose bits `hand` holds, as two
/// planes: each card's low bit in bits 0..4 and its high bit in bits 5..9,
/// the weakest card in descending card order first; a three-card hand's
/// cards take the upper three places of each plane.
#[inline(always)]
pub(super) fn suit_planes(mut hand: u64, n: u32) -> u32 {
    // bit 63 is no card's: it keeps the word non-zero, so that finding the
    // lowest bit needs no zero case
    hand |= 1 << 63;
    let (mut low, mut high) = (0, 0);
    for i in 0..n {
        let suit = hand.trailing_zeros();
        low |= (suit & 1) << i;
        high |= (suit >> 1 & 1) << i;
        hand &= hand - 1;
    }
    (low | high << 5) << (5 - n)
}

/// Whether this processor has BMI2 (`pext`, `pdep`).
pub(super) fn has_bmi2() -> bool {
    #[cfg(target_arch = "x86_64")]
    {
        std::arch::is_x86_feature_detected!("bmi2")
    }
    #[cfg(not(target_arch = "x86_64"))]
    {
        false
    }
}

/// [`suit_planes`] by BMI2; only called where [`has_bmi2`] said yes. A
/// card's bit sits at `4 * rank + suit strength`, so `pext` of the pattern
/// with every odd bit set, under the hand's card bits, lists the low bit of
/// each card's suit strength, weakest card first, and the pattern with the
/// upper two bits of every nibble set lists the high bit.
#[inline(always)]
pub(super) fn suit_planes_bmi2(hand: u64, n: u32) -> u32 {
    #[cfg(target_arch = "x86_64")]
    {
        // inline assembly rather than the intrinsics: they carry the
        // feature, so they would not inline into code built for baseline
        // x86-64, and the whole caller would need a dispatched copy
        let (low, high): (u64, u64);
        // SAFETY: the instructions touch only these registers; the caller
        // checked that the processor has them.
        unsafe {
            std::arch::asm!(
                "pext {low}, {odd}, {hand}",
                "pext {high}, {upper}, {hand}",
                hand = in(reg) hand,
                odd = in(reg) 0xAAAA_AAAA_AAAA_AAAAu64,
                upper = in(reg) 0xCCCC_CCCC_CCCC_CCCCu64,
                low = out(reg) low,
                high = lateout(reg) high,
                options(pure, nomem, nostack, preserves_flags),
            );
        }
        ((low | high << 5) as u32) << (5 - n)
    }
    #[cfg(not(target_arch = "x86_64"))]
    {
        suit_planes(hand, n)
    }
}

/// Where significance order takes each card from descending card order,
/// for a class of `ranks` (ascending, 3 or 5 of them) with `counts` per rank
/// and `distinct` its distinct ranks in significance order. A three-card
/// hand's two unused slots stay in place.
pub(super) fn significance_order(ranks: &[u8], counts: &[u8; 13], distinct: &[u8]) -> [u8; 5] {
    let descending: Vec<u8> = ranks.iter().rev().copied().collect();
    let mut order = [0, 1, 2, 3, 4];
    let mut slot = 0;
    for &r in distinct {
        let first = descending
            .iter()
            .position(|&x| x == r)
            .expect("a rank of the hand");
        for k in 0..counts[r as usize] as usize {
            order[slot] = (first + k) as u8;
            slot += 1;
        }
    }
    assert_eq!(slot, ranks.len(), "significance order lists every card");
    order
}

/// The distinct moves met while the tables are built; a class's row is its
/// move's place here.
#[derive(Default)]
pub(super) struct Moves(Vec<[u8; 5]>);

impl Moves {
    /// The row of the move `order`, added if new.
    pub(super) fn row(&mut self, order: [u8; 5]) -> u32 {
        let row = self.0.iter().position(|m| *m == order).unwrap_or_else(|| {
            self.0.push(order);
            self.0.len() - 1
        });
        assert!(row < MOVES, "{} moves", row + 1);
        row as u32
    }
}

/// The strength without its suit key of a table entry (a base strength
/// with its row where the suit key goes).
#[inline(always)]
pub(super) fn base(entry: u32) -> u32 {
    entry & !((1 << PLANES_BITS) - 1)
}

/// The suit key of every row's move and every [`suit_planes`] value:
/// `MOVES` rows of 1,024 (32 KB).
pub(super) struct SuitOrders {
    keys: [u16; MOVES << PLANES_BITS],
}

impl SuitOrders {
    /// Fills the rows for the moves met, each a significance order.
    pub(super) fn fill(&mut self, moves: &Moves) {
        for (row, order) in moves.0.iter().enumerate() {
            for planes in 0..1u32 << PLANES_BITS {
                // the card in place `slot` of descending card order is the
                // planes' card `4 - slot`
                let suit_at = |slot: u8| {
                    let card = 4 - slot as u32;
                    (planes >> card & 1) | (planes >> (5 + card) & 1) << 1
                };
                let key = (0..5).fold(0, |key, k| key | suit_at(order[k]) << (8 - 2 * k as u32));
                self.keys[row << PLANES_BITS | planes as usize] = key as u16;
            }
        }
    }

    /// The suit key of a hand of table entry `entry` (its row in the low
    /// bits) with its suits as [`suit_planes`] lays them out.
    #[inline(always)]
    pub(super) fn key(&self, entry: u32, planes: u32) -> u32 {
        let row = ((entry as usize) & (MOVES - 1)) << PLANES_BITS;
        self.keys[(row | planes as usize) & ((MOVES << PLANES_BITS) - 1)] as u32
    }
}
