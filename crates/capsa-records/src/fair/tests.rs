use super::*;
use capsa_core::error::ErrorKind;

/// The server seed 00 01 .. 1f of the pinned vectors (tests/test_fair.py
/// pins the same ones, computed by the oracle with hashlib and hmac).
fn counting_seed() -> ServerSeed {
    std::array::from_fn(|i| i as u8)
}

const NO_SEEDS: [&str; 0] = [];

#[test]
fn commitment_is_the_sha256_of_the_seed() {
    assert_eq!(
        hex(&commitment(&counting_seed())),
        "630dcd2966c4336691125448bbb25b4ff412a49c732db2c8abc1b8581bd710dd"
    );
    // FIPS 180-2, "abc"
    assert_eq!(
        hex(&sha256(b"abc")),
        "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad"
    );
}

#[test]
fn hmac_is_rfc4231() {
    // RFC 4231 test case 2: key "Jefe", data "what do ya want for nothing?"
    let mut mac = <Hmac<Sha256> as Mac>::new_from_slice(b"Jefe").unwrap();
    mac.update(b"what do ya want for nothing?");
    assert_eq!(
        hex(&mac.finalize().into_bytes()),
        "5bdcc146bf60754e6a042426089575c75a003f089d2739839dec58b964ec3843"
    );
}

#[test]
fn message_is_length_prefixed() {
    assert_eq!(
        hex(&message(&["ab", ""], 5)),
        "63617073612d666169722d310000000000000000050000000200000002616200000000"
    );
    // the same bytes split differently give different messages
    assert_ne!(message(&["ab", "c"], 0), message(&["a", "bc"], 0));
    assert_ne!(message(&["", ""], 0), message(&NO_SEEDS, 0));
}

#[test]
fn words_are_the_pinned_stream() {
    let mut words = FairWords::new(&counting_seed(), &NO_SEEDS, 0);
    let first: Vec<u32> = (0..10).map(|_| words.next_word()).collect();
    assert_eq!(
        first,
        [
            0x396d_c8a1,
            0x1be4_61f3,
            0x9527_f551,
            0x6b7f_9e9f,
            0xa177_ee3e,
            0x74c8_5ede,
            0xd989_f9a5,
            0xc87a_7ef2,
            0x7de8_9052,
            0xe0b0_fa72
        ]
    );
    let mut later = FairWords::new(&counting_seed(), &NO_SEEDS, 0);
    later.seek(8);
    assert_eq!(later.next_word(), 0x7de8_9052);
    later.seek(3);
    assert_eq!(later.next_word(), 0x6b7f_9e9f);
}

#[test]
fn deal_is_the_pinned_deal() {
    let hands = deal(&counting_seed(), &NO_SEEDS, 0, 4).unwrap();
    let want: [[u8; 13]; 4] = [
        [3, 8, 11, 22, 24, 25, 28, 37, 38, 40, 42, 44, 50],
        [1, 2, 4, 6, 13, 14, 15, 16, 17, 32, 33, 36, 47],
        [7, 9, 10, 18, 19, 20, 21, 30, 35, 41, 43, 45, 48],
        [0, 5, 12, 23, 26, 27, 29, 31, 34, 39, 46, 49, 51],
    ];
    assert_eq!(hands, want);
    let seeded = deal(&counting_seed(), &["alice", "bob", "", "ünï ☃"], 12, 4).unwrap();
    assert_eq!(
        seeded[0],
        [5, 13, 14, 16, 28, 30, 34, 35, 38, 40, 46, 49, 51]
    );
}

#[test]
fn every_input_changes_the_deck() {
    let base = deck(&counting_seed(), &["a", "b"], 0);
    let mut other_seed = counting_seed();
    other_seed[31] ^= 1;
    assert_ne!(deck(&other_seed, &["a", "b"], 0), base);
    assert_ne!(deck(&counting_seed(), &["a", "c"], 0), base);
    assert_ne!(deck(&counting_seed(), &["a", "b"], 1), base);
    let mut sorted = base;
    sorted.sort_unstable();
    assert_eq!(sorted, std::array::from_fn(|i| i as u8));
}

#[test]
fn client_seeds_are_checked() {
    let e = deal(&counting_seed(), &["a", "b", "c"], 0, 4).unwrap_err();
    assert_eq!(e.kind(), ErrorKind::Argument);
    assert!(e.message().contains("one per seat (4)"), "{e}");
    let long = "x".repeat(MAX_CLIENT_SEED_BYTES + 1);
    let e = deal(&counting_seed(), &["a", long.as_str()], 0, 2).unwrap_err();
    assert_eq!((e.kind(), e.seat()), (ErrorKind::Argument, Some(1)));
    assert!(e.message().contains("client_seeds[1]"), "{e}");
    let longest = "x".repeat(MAX_CLIENT_SEED_BYTES);
    assert!(deal(&counting_seed(), &["a", longest.as_str()], 0, 2).is_ok());
    assert_eq!(
        deal(&counting_seed(), &NO_SEEDS, 0, 5).unwrap_err().kind(),
        ErrorKind::Table
    );
}

#[test]
fn hex_round_trips() {
    let seed = counting_seed();
    assert_eq!(parse_hex32(&hex(&seed)), Some(seed));
    assert_eq!(parse_hex32(&hex(&seed).to_uppercase()), None);
    assert_eq!(parse_hex32("00"), None);
    assert_eq!(parse_hex32(&"g".repeat(64)), None);
    assert_eq!(parse_hex32(&"é".repeat(32)), None);
}

/// A deal is the deck of its own inputs, whatever was dealt before it on
/// the thread (the last deck is kept): each input changed alone, dealt
/// twice in a row and in turn with the first.
#[test]
fn a_deal_follows_every_input_after_another_deal() {
    let seed = counting_seed();
    let mut other_seed = seed;
    other_seed[31] ^= 1;
    let inputs: [(ServerSeed, [&str; 4], u64); 6] = [
        (seed, ["ab", "", "c", "d"], 7),
        (other_seed, ["ab", "", "c", "d"], 7),
        (seed, ["ab", "", "c", "d"], 8),
        (seed, ["a", "b", "c", "d"], 7),
        (seed, ["ab", "", "c", "e"], 7),
        (seed, ["ab", "", "d", "c"], 7),
    ];
    let fresh = |(s, c, n): &(ServerSeed, [&str; 4], u64)| hands_of(&deck(s, c, *n), 4);
    for input in inputs.iter().chain(inputs.iter().rev()) {
        for again in [input, input, &inputs[0], input] {
            let (s, c, n) = again;
            assert_eq!(deal(s, c, *n, 4).unwrap(), fresh(again));
        }
    }
    let distinct: std::collections::HashSet<_> = inputs.iter().map(fresh).collect();
    assert_eq!(distinct.len(), inputs.len());
}

#[test]
fn the_rules_deck_is_shuffled_whole_and_the_52_card_deck_as_before() {
    let seed = counting_seed();
    let standard = Deck::default();
    assert_eq!(
        deal_deck(&standard, &seed, &["a", "b", "c"], 4, 3).unwrap(),
        hands_of(&deck(&seed, &["a", "b", "c"], 4), 3)
    );
    let two_decks = Deck {
        added_suits: 0,
        decks: 2,
        jokers: 2,
    };
    let whole = shuffled(&two_decks, &seed, &NO_SEEDS, 9);
    let mut sorted = whole.clone();
    sorted.sort_unstable();
    assert_eq!(sorted, two_decks.ids());
    let hands = deal_deck(&two_decks, &seed, &NO_SEEDS, 9, 8).unwrap();
    assert_eq!(hands, hands_of(&whole, 8));
    // the deal of the same seeds is the cached shuffle of the deck asked for
    assert_ne!(deal(&seed, &NO_SEEDS, 9, 4).unwrap()[..], hands[..4]);
    let nine = deal_deck(&two_decks, &seed, &NO_SEEDS, 9, 9).unwrap_err();
    assert_eq!(nine.kind(), ErrorKind::Table);
}
