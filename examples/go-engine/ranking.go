package main

import "math/bits"

// Categories on the scale shared by three- and five-card hands
// (docs/rules.md, "Categories"), weakest first.
var categoryNames = []string{
	"high-card", "pair", "two-pair", "trips", "straight",
	"flush", "full-house", "quads", "straight-flush", "royal-flush",
}

const (
	highCard = iota
	pair
	twoPair
	trips
	straight
	flush
	fullHouse
	quads
	straightFlush
	royalFlush
)

// A strength orders hands of 3 or 5 cards under the house ranking: the
// category in bits 20-23, then up to five ranks (2..14) of 4 bits each,
// most significant first, zero-padded. The ranks are the rank groups largest
// first, higher rank first within a size (every rank, high to low, for a
// flush or high card; the top card for a straight), so that a three-card
// hand's list is a zero-padded prefix of a five-card hand's and the longer
// hand wins a tie on the prefix ("Three cards against five"). Equal ranks
// tie: this house has no suit tie-break.
type strength uint32

func (s strength) category() int { return int(s >> 20) }

// evaluate ranks a hand of 3 or 5 distinct cards.
func evaluate(hand []card) strength {
	var counts [15]int
	suits := 0
	for _, c := range hand {
		counts[c.rank()]++
		suits |= 1 << uint(c.suit())
	}
	groups := rankGroups(&counts)
	category := groupCategory(&counts, groups)
	if len(hand) == 5 && len(groups) == 5 {
		isFlush := bits.OnesCount(uint(suits)) == 1
		top := straightTop(groups)
		switch {
		case top == 14 && isFlush:
			return pack(royalFlush, []int{top})
		case top > 0 && isFlush:
			return pack(straightFlush, []int{top})
		case isFlush:
			return pack(flush, groups)
		case top > 0:
			return pack(straight, []int{top})
		}
	}
	return pack(category, groups)
}

// rankGroups lists the ranks held, larger groups first, then higher ranks.
func rankGroups(counts *[15]int) []int {
	groups := make([]int, 0, 5)
	for size := 4; size >= 1; size-- {
		for rank := 14; rank >= 2; rank-- {
			if counts[rank] == size {
				groups = append(groups, rank)
			}
		}
	}
	return groups
}

// groupCategory is the category of a hand that makes no straight or flush,
// from the sizes of its two largest rank groups.
func groupCategory(counts *[15]int, groups []int) int {
	largest, second := counts[groups[0]], 0
	if len(groups) > 1 {
		second = counts[groups[1]]
	}
	switch {
	case largest == 4:
		return quads
	case largest == 3 && second == 2:
		return fullHouse
	case largest == 3:
		return trips
	case largest == 2 && second == 2:
		return twoPair
	case largest == 2:
		return pair
	}
	return highCard
}

// straightTop is the top card of a straight of five distinct ranks (high to
// low), 5 for A-2-3-4-5 (the wheel is the lowest straight here), or 0.
func straightTop(ranks []int) int {
	if ranks[0]-ranks[4] == 4 {
		return ranks[0]
	}
	if ranks[0] == 14 && ranks[1] == 5 {
		return 5
	}
	return 0
}

func pack(category int, ranks []int) strength {
	s := strength(category) << 20
	for i, r := range ranks {
		s |= strength(r) << uint(16-4*i)
	}
	return s
}

// compareHands is 1, -1 or 0 as a ranks above, below or equal to b.
func compareHands(a, b []card) int {
	sa, sb := evaluate(a), evaluate(b)
	switch {
	case sa > sb:
		return 1
	case sa < sb:
		return -1
	}
	return 0
}
