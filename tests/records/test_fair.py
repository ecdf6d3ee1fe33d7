"""The provably fair deal (capsa-fair-1): vectors computed by the oracle with
hashlib and hmac and pinned as literals, the engine against both, and the
raw generator output the battery reads against the oracle's streams."""

from __future__ import annotations

import itertools

import pytest
from hypothesis import given
from hypothesis import strategies as st

import capsa
from capsa import _core, oracle

COUNTING = bytes(range(32))
ZERO = bytes(32)
X_SEED = bytes.fromhex("2d711642b726b04401627ca9fbac32f5c8530fb1903cc4db02258717921a4881")

# (seats, server seed, client seeds, nonce) -> the hands, computed by the
# oracle and pinned: a fair deal must never change.
GOLDEN_FAIR_DEALS: list[tuple[int, bytes, list[str], int, list[list[int]]]] = [
    (4, COUNTING, [], 0, [
        [3, 8, 11, 22, 24, 25, 28, 37, 38, 40, 42, 44, 50],
        [1, 2, 4, 6, 13, 14, 15, 16, 17, 32, 33, 36, 47],
        [7, 9, 10, 18, 19, 20, 21, 30, 35, 41, 43, 45, 48],
        [0, 5, 12, 23, 26, 27, 29, 31, 34, 39, 46, 49, 51],
    ]),
    (4, COUNTING, ["alice", "bob", "", "ünï ☃"], 12, [
        [5, 13, 14, 16, 28, 30, 34, 35, 38, 40, 46, 49, 51],
        [3, 4, 9, 17, 20, 21, 23, 25, 26, 31, 37, 41, 44],
        [2, 6, 8, 12, 15, 18, 19, 29, 32, 33, 36, 39, 45],
        [0, 1, 7, 10, 11, 22, 24, 27, 42, 43, 47, 48, 50],
    ]),
    (2, ZERO, [], 2**64 - 1, [
        [1, 2, 6, 8, 10, 12, 15, 24, 27, 38, 40, 43, 46],
        [4, 19, 21, 26, 31, 34, 35, 36, 37, 44, 45, 49, 50],
    ]),
    (3, X_SEED, ["a", "b", "c"], 5, [
        [0, 2, 6, 8, 18, 29, 32, 34, 39, 41, 42, 50, 51],
        [1, 10, 12, 17, 21, 28, 35, 37, 40, 43, 45, 48, 49],
        [3, 4, 5, 7, 15, 25, 26, 31, 33, 36, 38, 46, 47],
    ]),
]  # fmt: skip

# The first ten words of the HMAC stream of COUNTING, no client seeds, nonce 0.
GOLDEN_WORDS = [
    0x396DC8A1, 0x1BE461F3, 0x9527F551, 0x6B7F9E9F, 0xA177EE3E,
    0x74C85EDE, 0xD989F9A5, 0xC87A7EF2, 0x7DE89052, 0xE0B0FA72,
]  # fmt: skip


def test_commitment_is_the_sha256_of_the_server_seed() -> None:
    want = "630dcd2966c4336691125448bbb25b4ff412a49c732db2c8abc1b8581bd710dd"
    assert oracle.fair_commitment(COUNTING) == want
    assert _core.fair_commitment(COUNTING) == want
    assert capsa.Round(round_id="r", server_seed=COUNTING).commitment == want


@pytest.mark.parametrize("case", range(len(GOLDEN_FAIR_DEALS)))
def test_golden_fair_deals(case: int) -> None:
    seats, seed, client_seeds, nonce, want = GOLDEN_FAIR_DEALS[case]
    assert oracle.fair_deal(seats, seed, client_seeds, nonce) == want
    ids, cards = _core.fair_deal(seed, client_seeds or None, nonce, seats)
    assert [list(h) for h in ids] == want
    assert [[c.id for c in hand] for hand in cards] == want
    rnd = capsa.Round(seats=seats, round_id="r", nonce=nonce, server_seed=seed)
    assert [[c.id for c in hand] for hand in rnd.deal(client_seeds or None)] == want


def test_golden_word_stream() -> None:
    assert list(itertools.islice(oracle._fair_words(COUNTING, [], 0), 10)) == GOLDEN_WORDS
    raw = _core.rng_words_fair(COUNTING, 0, 0, 10)
    assert [int.from_bytes(raw[k : k + 4], "big") for k in range(0, 40, 4)] == GOLDEN_WORDS
    # any start: word 3 onwards
    assert _core.rng_words_fair(COUNTING, 0, 3, 7) == raw[12:]


client_seed_lists = st.one_of(
    st.just([]),
    st.integers(2, 4).flatmap(lambda n: st.lists(st.text(max_size=12), min_size=n, max_size=n)),
)


@given(
    seed=st.binary(min_size=32, max_size=32),
    client_seeds=client_seed_lists,
    nonce=st.integers(0, 2**64 - 1),
    extra=st.integers(2, 4),
)
def test_engine_deals_as_the_oracle(
    seed: bytes, client_seeds: list[str], nonce: int, extra: int
) -> None:
    seats = len(client_seeds) or extra
    try:
        want = oracle.fair_deal(seats, seed, client_seeds, nonce)
    except ValueError:
        return
    if any(len(s.encode("utf-8", "surrogatepass")) > 256 for s in client_seeds):
        return
    try:
        ids, _ = _core.fair_deal(seed, client_seeds, nonce, seats)
    except capsa.ArgumentError as exc:
        # a lone surrogate is not UTF-8: the oracle cannot encode it either
        assert "surrogate" in str(exc)
        return
    assert [list(h) for h in ids] == want


@given(
    seed=st.binary(min_size=32, max_size=32), start=st.integers(0, 300), count=st.integers(0, 40)
)
def test_word_stream_is_the_oracles(seed: bytes, start: int, count: int) -> None:
    want = list(itertools.islice(oracle._fair_words(seed, [], 0), start, start + count))
    raw = _core.rng_words_fair(seed, 0, start, count)
    assert [int.from_bytes(raw[k : k + 4], "big") for k in range(0, len(raw), 4)] == want


def test_fair_shuffles_are_the_fair_deals() -> None:
    decks = _core.rng_shuffles_fair(X_SEED, 40, 5)
    assert len(decks) == 5 * 52
    for k in range(5):
        deck = list(decks[52 * k : 52 * k + 52])
        assert sorted(deck) == list(range(52))
        hands = [sorted(deck[13 * s : 13 * s + 13]) for s in range(4)]
        assert hands == oracle.fair_deal(4, X_SEED, [], 40 + k)


def test_seeded_stream_and_shuffles_are_chacha20() -> None:
    seed = 2026
    key = seed.to_bytes(8, "little") + bytes(24)
    raw = _core.rng_words_chacha20(key, 0, 20)
    words = [int.from_bytes(raw[k : k + 4], "little") for k in range(0, 80, 4)]
    key_words = [seed & 0xFFFFFFFF, seed >> 32, 0, 0, 0, 0, 0, 0]
    assert words[:16] == oracle.chacha20_block(key_words, 0, [0, 0, 0])
    assert words[16:] == oracle.chacha20_block(key_words, 1, [0, 0, 0])[:4]
    assert _core.rng_words_chacha20(key, 17, 3) == raw[68:]
    decks = _core.rng_shuffles_seeded(seed, 3)
    for k in range(3):
        deck = list(decks[52 * k : 52 * k + 52])
        assert [sorted(deck[13 * s : 13 * s + 13]) for s in range(4)] == oracle.deal(4, seed + k)


def test_bad_arguments_are_named() -> None:
    with pytest.raises(capsa.ArgumentError, match="32 bytes, got 31"):
        _core.fair_deal(bytes(31), None, 0, 4)
    with pytest.raises(TypeError, match="server_seed must be bytes"):
        _core.fair_deal("00" * 32, None, 0, 4)  # type: ignore[arg-type]
    with pytest.raises(capsa.ArgumentError, match=r"one per seat \(4\) or none, got 3"):
        _core.fair_deal(ZERO, ["a", "b", "c"], 0, 4)
    with pytest.raises(capsa.ArgumentError, match=r"client_seeds\[1\].*at most 256 bytes"):
        _core.fair_deal(ZERO, ["a", "é" * 129], 0, 2)
    with pytest.raises(TypeError, match=r"client_seeds\[0\] must be a str"):
        _core.fair_deal(ZERO, [b"a", "b"], 0, 2)  # type: ignore[list-item]
    with pytest.raises(TypeError, match="list of str"):
        _core.fair_deal(ZERO, "ab", 0, 2)
    with pytest.raises(capsa.ArgumentError, match="nonce must be in"):
        _core.fair_deal(ZERO, None, 2**64, 2)
    with pytest.raises(capsa.ArgumentError, match="lone surrogate"):
        _core.fair_deal(ZERO, ["\ud800", "b"], 0, 2)
    with pytest.raises(capsa.TableError, match="2 to 4 seats"):
        _core.fair_deal(ZERO, None, 0, 5)
    with pytest.raises(capsa.ArgumentError, match="count must be in"):
        _core.rng_words_fair(ZERO, 0, 0, _core.MAX_RNG_CHUNK + 1)
    with pytest.raises(capsa.ArgumentError, match="below 2\\*\\*64"):
        _core.rng_shuffles_fair(ZERO, 2**64 - 1, 2)
