// Command published arranges hands with the per-row win-probability-table
// player of github.com/paulhankin/cpoker (its trained coefficients), for
// benches/vs_published.py: one hand per input line as 13 capsa card ids
// (4 * (rank - 2) + suit, suits d c h s), one line out per hand with the
// 13 ids laid out front 0-2, middle 3-7, back 8-12. Built by that bench
// against checkouts of cpoker and its evaluator; nothing of theirs is kept
// in capsa.
package main

import (
	"bufio"
	"fmt"
	"log"
	"os"
	"strconv"
	"strings"

	"github.com/paulhankin/cpoker"
	"github.com/paulhankin/poker/v2/poker"
)

// capsa's suits d c h s in the evaluator's terms (suits are symmetric in
// the scoring the player is trained for).
var suitOf = [4]poker.Suit{poker.Diamond, poker.Club, poker.Heart, poker.Spade}

func toCard(id int) (poker.Card, error) {
	if id < 0 || id > 51 {
		return 0, fmt.Errorf("card id %d is not 0..51", id)
	}
	rank := poker.Rank(id/4 + 2)
	if rank == 14 {
		rank = 1
	}
	return poker.MakeCard(suitOf[id%4], rank)
}

func toID(c poker.Card) int {
	rank := int(c.Rank())
	if rank == 1 {
		rank = 14
	}
	for s, suit := range suitOf {
		if c.Suit() == suit {
			return 4*(rank-2) + s
		}
	}
	log.Fatalf("card %v has no capsa suit", c)
	return -1
}

func main() {
	if len(os.Args) != 2 {
		log.Fatalf("usage: %s COEFFICIENTS_FILE", os.Args[0])
	}
	player, err := cpoker.LoadSampledEvaluator(os.Args[1])
	if err != nil {
		log.Fatalf("loading %s: %v", os.Args[1], err)
	}
	in := bufio.NewScanner(os.Stdin)
	out := bufio.NewWriter(os.Stdout)
	defer out.Flush()
	for line := 1; in.Scan(); line++ {
		fields := strings.Fields(in.Text())
		if len(fields) != 13 {
			log.Fatalf("line %d: %d card ids, not 13", line, len(fields))
		}
		cards := make([]poker.Card, 13)
		for i, f := range fields {
			id, err := strconv.Atoi(f)
			if err == nil {
				cards[i], err = toCard(id)
			}
			if err != nil {
				log.Fatalf("line %d: card %q: %v", line, f, err)
			}
		}
		hand, _ := cpoker.Play(cards, player)
		ids := make([]string, 0, 13)
		for _, row := range [][]poker.Card{hand.Front[:], hand.Middle[:], hand.Back[:]} {
			for _, c := range row {
				ids = append(ids, strconv.Itoa(toID(c)))
			}
		}
		fmt.Fprintln(out, strings.Join(ids, " "))
	}
	if err := in.Err(); err != nil {
		log.Fatal(err)
	}
}
