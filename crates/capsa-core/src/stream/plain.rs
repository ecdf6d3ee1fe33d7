//! The shape most streams give a round in — `id`, `rules`, `seats` of rows
//! as lists of card ids, no stakes — read in one pass. Anything else, and
//! anything in doubt (an escape in a string, a key given twice, a number
//! that is not a plain integer, a row of the wrong size), is left to the
//! general reader, which reads every form and names every error; what this
//! reader accepts, that reader reads the same.

use crate::rows::ROW_SIZES;
use crate::settle::{SeatInput, MAX_SEATS, MIN_SEATS};

/// A round read in one pass: its id and rules name as written (the id as
/// raw JSON, the name without its quotes) and its seats.
pub(super) struct PlainRound<'a> {
    pub id: Option<&'a str>,
    pub rules: Option<&'a str>,
    pub seats: Vec<SeatInput>,
}

struct Cursor<'a> {
    text: &'a str,
    at: usize,
}

impl<'a> Cursor<'a> {
    fn peek(&self) -> Option<u8> {
        self.text.as_bytes().get(self.at).copied()
    }

    fn skip_space(&mut self) {
        while matches!(self.peek(), Some(b' ' | b'\t' | b'\n' | b'\r')) {
            self.at += 1;
        }
    }

    /// Skips white space, then takes `b`.
    fn eat(&mut self, b: u8) -> Option<()> {
        self.skip_space();
        (self.peek() == Some(b)).then(|| self.at += 1)
    }

    fn word(&mut self, word: &str) -> Option<()> {
        let end = self.at + word.len();
        (self.text.get(self.at..end) == Some(word)).then(|| self.at = end)
    }

    /// A string without escapes or control characters, without its quotes.
    fn plain_string(&mut self) -> Option<&'a str> {
        self.eat(b'"')?;
        let start = self.at;
        let len = self.text.as_bytes()[start..]
            .iter()
            .position(|&b| b == b'"' || b == b'\\' || b < 0x20)?;
        self.at = start + len;
        // the end of the string, not white space or an escape before it
        (self.peek() == Some(b'"')).then(|| self.at += 1)?;
        Some(&self.text[start..start + len])
    }

    /// An integer as JSON writes one (no fraction, exponent or leading
    /// zero), as its text.
    fn integer(&mut self) -> Option<&'a str> {
        self.skip_space();
        let start = self.at;
        if self.peek() == Some(b'-') {
            self.at += 1;
        }
        let digits = self.text.as_bytes()[self.at..]
            .iter()
            .take_while(|b| b.is_ascii_digit())
            .count();
        let first = self.peek()?;
        if digits == 0 || (first == b'0' && digits > 1) {
            return None;
        }
        self.at += digits;
        match self.peek() {
            Some(b'.' | b'e' | b'E') => None,
            _ => Some(&self.text[start..self.at]),
        }
    }

    fn flag(&mut self) -> Option<bool> {
        self.skip_space();
        match self.peek()? {
            b't' => self.word("true").map(|()| true),
            b'f' => self.word("false").map(|()| false),
            _ => None,
        }
    }

    /// `null`, or else nothing read.
    fn null(&mut self) -> bool {
        self.skip_space();
        self.word("null").is_some()
    }

    /// After a member or an element: true for a comma, false for `close`.
    fn more(&mut self, close: u8) -> Option<bool> {
        self.skip_space();
        match self.peek()? {
            b',' => {
                self.at += 1;
                Some(true)
            }
            b if b == close => {
                self.at += 1;
                Some(false)
            }
            _ => None,
        }
    }

    /// The members of an object, each key's value read by `member`; a key
    /// given twice, or not among `keys`, is left to the general reader.
    fn object_members(
        &mut self,
        keys: &[&str],
        member: &mut impl FnMut(&mut Self, usize) -> Option<()>,
    ) -> Option<()> {
        self.eat(b'{')?;
        let mut seen = 0u32;
        loop {
            let key = self.plain_string()?;
            let k = keys.iter().position(|&name| name == key)?;
            if seen & (1 << k) != 0 {
                return None;
            }
            seen |= 1 << k;
            self.eat(b':')?;
            member(self, k)?;
            if !self.more(b'}')? {
                return Some(());
            }
        }
    }
}

/// A row of card ids, 0 to 51, exactly as many as the row holds.
fn read_row(c: &mut Cursor<'_>, row: usize, cards: &mut [u8; 13]) -> Option<()> {
    let start = [0, 3, 8][row];
    c.eat(b'[')?;
    for k in 0..ROW_SIZES[row] {
        let id: u8 = c.integer()?.parse().ok()?;
        if id > 51 {
            return None;
        }
        cards[start + k] = id;
        let last = k + 1 == ROW_SIZES[row];
        if c.more(b']')? == last {
            return None;
        }
    }
    Some(())
}

fn read_seat(c: &mut Cursor<'_>) -> Option<SeatInput> {
    const KEYS: [&str; 5] = ["top", "middle", "bottom", "surrender", "declare_natural"];
    let mut seat = SeatInput {
        cards: [0; 13],
        surrender: false,
        declare_natural: true,
        banker: false,
        multiplier: 1,
    };
    let mut rows = 0;
    c.object_members(&KEYS, &mut |c: &mut Cursor<'_>, k| {
        match k {
            0..=2 => {
                read_row(c, k, &mut seat.cards)?;
                rows += 1;
            }
            3 => seat.surrender = c.flag()?,
            _ => seat.declare_natural = c.flag()?,
        }
        Some(())
    })?;
    (rows == 3).then_some(seat)
}

fn read_seats(c: &mut Cursor<'_>) -> Option<Vec<SeatInput>> {
    c.eat(b'[')?;
    let mut seats = Vec::with_capacity(MAX_SEATS);
    loop {
        seats.push(read_seat(c)?);
        if seats.len() > MAX_SEATS {
            return None;
        }
        if !c.more(b']')? {
            break;
        }
    }
    (seats.len() >= MIN_SEATS).then_some(seats)
}

/// The round `text` holds, when it is in the plain shape; `None` leaves it
/// to the general reader.
pub(super) fn read_plain_round(text: &str) -> Option<PlainRound<'_>> {
    const KEYS: [&str; 4] = ["id", "rules", "stakes", "seats"];
    let mut c = Cursor { text, at: 0 };
    let mut round = PlainRound {
        id: None,
        rules: None,
        seats: Vec::new(),
    };
    c.object_members(&KEYS, &mut |c: &mut Cursor<'_>, k| match k {
        0 => read_id(c).map(|id| round.id = Some(id)),
        1 if c.null() => Some(()),
        1 => c.plain_string().map(|name| round.rules = Some(name)),
        2 => c.null().then_some(()),
        _ => read_seats(c).map(|seats| round.seats = seats),
    })?;
    c.skip_space();
    (c.at == text.len() && !round.seats.is_empty()).then_some(round)
}

/// An id: a plain string or integer, or null, as its raw text.
fn read_id<'a>(c: &mut Cursor<'a>) -> Option<&'a str> {
    c.skip_space();
    let start = c.at;
    match c.peek()? {
        b'"' => c.plain_string().map(|_| &c.text[start..c.at]),
        b'n' => c.null().then(|| &c.text[start..c.at]),
        _ => c.integer(),
    }
}
