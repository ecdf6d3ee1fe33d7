package main

import "math/bits"

// fouls says whether top / middle / bottom is a foul: the house checks
// bottom >= middle >= top, equal rows allowed (docs/rules.md, "Arrangements
// and fouls"), the middle against the top as in "Three cards against five".
func fouls(top, middle, bottom []card) bool {
	return !validOrder(evaluate(top), evaluate(middle), evaluate(bottom))
}

func validOrder(top, middle, bottom strength) bool {
	return bottom >= middle && middle >= top
}

// countSplits counts the valid splits of 13 cards into 3 + 5 + 5 among the
// 72,072: every 3- and 5-card subset is ranked once, indexed by its 13-bit
// mask of positions, and each split is then two integer comparisons.
func countSplits(hand []card) int {
	var ranked [1 << 13]strength
	rows := make([]card, 0, 5)
	for mask := 0; mask < 1<<13; mask++ {
		if n := bits.OnesCount(uint(mask)); n != 3 && n != 5 {
			continue
		}
		rows = rows[:0]
		for i := 0; i < 13; i++ {
			if mask&(1<<uint(i)) != 0 {
				rows = append(rows, hand[i])
			}
		}
		ranked[mask] = evaluate(rows)
	}
	const all = 1<<13 - 1
	valid := 0
	for top := 0; top < 1<<13; top++ {
		if bits.OnesCount(uint(top)) != 3 {
			continue
		}
		rest := all ^ top
		// every subset of the ten remaining positions, five of them the middle
		for middle := rest; middle > 0; middle = (middle - 1) & rest {
			if bits.OnesCount(uint(middle)) == 5 &&
				validOrder(ranked[top], ranked[middle], ranked[rest^middle]) {
				valid++
			}
		}
	}
	return valid
}
