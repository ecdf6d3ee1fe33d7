"""Seeded deals: the oracle's ChaCha20 against RFC 7539, golden deals pinned
as literals, and the engine against both."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

import capsa
from capsa import oracle

# RFC 7539 section 2.3.2: key 00 01 .. 1f, nonce 00 00 00 09 00 00 00 4a
# 00 00 00 00, block counter 1; the state after the block function.
RFC_KEY = [int.from_bytes(bytes(range(4 * i, 4 * i + 4)), "little") for i in range(8)]
RFC_NONCE = [0x09000000, 0x4A000000, 0x00000000]
RFC_BLOCK = [
    0xE4E7F110, 0x15593BD1, 0x1FDD0F50, 0xC47120A3,
    0xC7F4D1C7, 0x0368C033, 0x9AAA2204, 0x4E6CD4C3,
    0x466482D2, 0x09AA9F07, 0x05D7C214, 0xA2028BD9,
    0xD19C12B5, 0xB94E16DE, 0xE883D0CB, 0x4E3C50A2,
]  # fmt: skip

# (seats, seed) -> the deal, computed by the oracle and pinned: a deal must
# never change across platforms or versions.
GOLDEN_DEALS: dict[tuple[int, int], list[list[int]]] = {
    (2, 0): [
        [3, 4, 7, 20, 24, 27, 31, 32, 38, 43, 49, 50, 51],
        [0, 10, 12, 14, 17, 21, 22, 28, 35, 39, 41, 47, 48],
    ],
    (3, 0): [
        [3, 4, 7, 20, 24, 27, 31, 32, 38, 43, 49, 50, 51],
        [0, 10, 12, 14, 17, 21, 22, 28, 35, 39, 41, 47, 48],
        [9, 11, 15, 16, 18, 19, 23, 33, 34, 36, 37, 40, 42],
    ],
    (4, 0): [
        [3, 4, 7, 20, 24, 27, 31, 32, 38, 43, 49, 50, 51],
        [0, 10, 12, 14, 17, 21, 22, 28, 35, 39, 41, 47, 48],
        [9, 11, 15, 16, 18, 19, 23, 33, 34, 36, 37, 40, 42],
        [1, 2, 5, 6, 8, 13, 25, 26, 29, 30, 44, 45, 46],
    ],
    (2, 1): [
        [6, 8, 22, 24, 26, 28, 29, 35, 40, 44, 45, 49, 51],
        [4, 5, 7, 9, 10, 12, 18, 19, 20, 21, 36, 41, 47],
    ],
    (3, 1): [
        [6, 8, 22, 24, 26, 28, 29, 35, 40, 44, 45, 49, 51],
        [4, 5, 7, 9, 10, 12, 18, 19, 20, 21, 36, 41, 47],
        [14, 17, 25, 27, 30, 31, 32, 34, 38, 42, 43, 46, 48],
    ],
    (4, 1): [
        [6, 8, 22, 24, 26, 28, 29, 35, 40, 44, 45, 49, 51],
        [4, 5, 7, 9, 10, 12, 18, 19, 20, 21, 36, 41, 47],
        [14, 17, 25, 27, 30, 31, 32, 34, 38, 42, 43, 46, 48],
        [0, 1, 2, 3, 11, 13, 15, 16, 23, 33, 37, 39, 50],
    ],
    (2, 2026): [
        [0, 3, 4, 20, 26, 27, 29, 30, 32, 34, 37, 40, 43],
        [13, 16, 17, 18, 22, 25, 36, 41, 45, 46, 48, 50, 51],
    ],
    (3, 2026): [
        [0, 3, 4, 20, 26, 27, 29, 30, 32, 34, 37, 40, 43],
        [13, 16, 17, 18, 22, 25, 36, 41, 45, 46, 48, 50, 51],
        [1, 2, 6, 9, 11, 12, 15, 23, 24, 31, 35, 39, 44],
    ],
    (4, 2026): [
        [0, 3, 4, 20, 26, 27, 29, 30, 32, 34, 37, 40, 43],
        [13, 16, 17, 18, 22, 25, 36, 41, 45, 46, 48, 50, 51],
        [1, 2, 6, 9, 11, 12, 15, 23, 24, 31, 35, 39, 44],
        [5, 7, 8, 10, 14, 19, 21, 28, 33, 38, 42, 47, 49],
    ],
    (2, 2**64 - 1): [
        [1, 11, 12, 16, 21, 22, 24, 28, 31, 36, 38, 46, 47],
        [0, 2, 4, 9, 26, 27, 29, 30, 33, 35, 44, 45, 50],
    ],
    (3, 2**64 - 1): [
        [1, 11, 12, 16, 21, 22, 24, 28, 31, 36, 38, 46, 47],
        [0, 2, 4, 9, 26, 27, 29, 30, 33, 35, 44, 45, 50],
        [3, 5, 6, 7, 10, 14, 17, 20, 34, 39, 41, 49, 51],
    ],
    (4, 2**64 - 1): [
        [1, 11, 12, 16, 21, 22, 24, 28, 31, 36, 38, 46, 47],
        [0, 2, 4, 9, 26, 27, 29, 30, 33, 35, 44, 45, 50],
        [3, 5, 6, 7, 10, 14, 17, 20, 34, 39, 41, 49, 51],
        [8, 13, 15, 18, 19, 23, 25, 32, 37, 40, 42, 43, 48],
    ],
}


def ids(hands: list[list[capsa.Card]]) -> list[list[int]]:
    return [[card.id for card in hand] for hand in hands]


def test_chacha20_block_rfc7539_vector() -> None:
    assert oracle.chacha20_block(RFC_KEY, 1, RFC_NONCE) == RFC_BLOCK


@pytest.mark.parametrize(("seats", "seed"), sorted(GOLDEN_DEALS))
def test_golden_deals(seats: int, seed: int) -> None:
    want = GOLDEN_DEALS[(seats, seed)]
    assert oracle.deal(seats, seed) == want
    assert ids(capsa.deal(seats, seed)) == want


def test_golden_deals_are_deals() -> None:
    for (seats, _), hands in GOLDEN_DEALS.items():
        cards = [c for hand in hands for c in hand]
        assert len(hands) == seats and all(len(hand) == 13 for hand in hands)
        assert len(set(cards)) == len(cards) and set(cards) <= set(range(52))
        assert all(hand == sorted(hand) for hand in hands)


@given(seats=st.integers(2, 4), seed=st.integers(0, 2**64 - 1))
def test_deal_matches_oracle(seats: int, seed: int) -> None:
    assert ids(capsa.deal(seats, seed)) == oracle.deal(seats, seed)
