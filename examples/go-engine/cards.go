package main

import (
	"encoding/json"
	"fmt"
	"strings"
)

// A card is its id, 4 * (rank - 2) + suit, ranks 2..14 and suits d c h s =
// 0..3 (docs/rules.md, "Cards").
type card int

func (c card) rank() int { return int(c)/4 + 2 }
func (c card) suit() int { return int(c) % 4 }

const rankLetters = "23456789TJQKA"
const suitLetters = "dchs"

var suitSymbols = map[rune]int{'♦': 0, '♢': 0, '♣': 1, '♧': 1, '♥': 2, '♡': 2, '♠': 3, '♤': 3}

// parseCard reads one card written rank then suit ("As", "10h", "t♠").
func parseCard(token string) (card, error) {
	runes := []rune(token)
	if len(runes) < 2 {
		return 0, fmt.Errorf("cannot read card %q", token)
	}
	rankText := strings.ToUpper(string(runes[:len(runes)-1]))
	if rankText == "10" {
		rankText = "T"
	}
	rank := strings.Index(rankLetters, rankText)
	if len(rankText) != 1 || rank < 0 {
		return 0, fmt.Errorf("cannot read card %q: bad rank", token)
	}
	last := runes[len(runes)-1]
	suit, ok := suitSymbols[last]
	if !ok {
		suit = strings.IndexRune(suitLetters, []rune(strings.ToLower(string(last)))[0])
	}
	if suit < 0 {
		return 0, fmt.Errorf("cannot read card %q: bad suit", token)
	}
	return card(4*rank + suit), nil
}

// parseCards reads a field holding one of `sizes` cards: text ("As Kd Th",
// spaces or commas between cards) or a list of ids and card texts. A
// repeated card is an error naming the field.
func parseCards(raw json.RawMessage, field string, sizes ...int) ([]card, error) {
	if raw == nil {
		return nil, fmt.Errorf("%s is missing", field)
	}
	var tokens []interface{}
	var text string
	if err := json.Unmarshal(raw, &text); err == nil {
		for _, t := range strings.FieldsFunc(text, func(r rune) bool { return r == ' ' || r == ',' }) {
			tokens = append(tokens, t)
		}
	} else if err := decodeStrict(raw, &tokens); err != nil {
		return nil, fmt.Errorf("%s must be card text or a list of card ids", field)
	}
	if !contains(sizes, len(tokens)) {
		return nil, fmt.Errorf("%s must hold %s cards, got %d", field, sizesText(sizes), len(tokens))
	}
	cards := make([]card, 0, len(tokens))
	seen := uint64(0)
	for _, token := range tokens {
		c, err := cardOf(token)
		if err != nil {
			return nil, fmt.Errorf("%s: %v", field, err)
		}
		if seen&(1<<uint(c)) != 0 {
			return nil, fmt.Errorf("%s: card %s is repeated", field, c)
		}
		seen |= 1 << uint(c)
		cards = append(cards, c)
	}
	return cards, nil
}

// cardOf reads one element of a card list: a text or an integer id 0..51.
func cardOf(token interface{}) (card, error) {
	switch v := token.(type) {
	case string:
		return parseCard(v)
	case json.Number:
		id, err := v.Int64()
		if err != nil || id < 0 || id > 51 {
			return 0, fmt.Errorf("card id %s is not an integer 0..51", v)
		}
		return card(id), nil
	}
	return 0, fmt.Errorf("a card is text or an id, got %v", token)
}

func (c card) String() string {
	return string(rankLetters[c.rank()-2]) + string(suitLetters[c.suit()])
}

func contains(sizes []int, n int) bool {
	for _, s := range sizes {
		if s == n {
			return true
		}
	}
	return false
}

func sizesText(sizes []int) string {
	words := make([]string, len(sizes))
	for i, s := range sizes {
		words[i] = fmt.Sprint(s)
	}
	return strings.Join(words, " or ")
}
