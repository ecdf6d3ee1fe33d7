package main

import (
	"crypto/sha256"
	"encoding/binary"
	"encoding/hex"
	"math/bits"
)

// digest is the order digest of every hand of `size` cards
// (docs/conformance.md, "Digests"): the hands as the combinations of the ids
// 0..51 in lexicographic order, each given its dense rank (how many distinct
// strengths are below it), hashed with SHA-256 as little-endian uint32s.
func digest(size int) string {
	strengths := make([]strength, 0, 2598960)
	hand := make([]card, size)
	var walk func(pos, next int)
	walk = func(pos, next int) {
		if pos == size {
			strengths = append(strengths, evaluate(hand))
			return
		}
		for c := next; c <= 52-(size-pos); c++ {
			hand[pos] = card(c)
			walk(pos+1, c+1)
		}
	}
	walk(0, 0)
	dense := denseRanks(strengths)
	out := make([]byte, 4*len(dense))
	for i, r := range dense {
		binary.LittleEndian.PutUint32(out[4*i:], r)
	}
	sum := sha256.Sum256(out)
	return hex.EncodeToString(sum[:])
}

// denseRanks maps each strength (under 2^24) to the number of distinct
// strengths below it, through a bit set of the strengths present and the
// count of bits set before each word: linear time, no sort.
func denseRanks(strengths []strength) []uint32 {
	present := make([]uint64, 1<<24/64)
	for _, s := range strengths {
		present[s/64] |= 1 << (s % 64)
	}
	before := make([]uint32, len(present))
	total := uint32(0)
	for w, word := range present {
		before[w] = total
		total += uint32(bits.OnesCount64(word))
	}
	dense := make([]uint32, len(strengths))
	for i, s := range strengths {
		below := present[s/64] & (1<<(s%64) - 1)
		dense[i] = before[s/64] + uint32(bits.OnesCount64(below))
	}
	return dense
}
