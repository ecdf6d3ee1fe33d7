package main

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
)

// The ops this engine answers, each from the request's fields to its result.
// The request's "rules" are not read: the engine plays House whatever it is
// sent, as a house engine does (its hello declares those rules).
var ops = []struct {
	name   string
	answer func(req map[string]json.RawMessage) (interface{}, error)
}{
	{"compare", opCompare},
	{"category", opCategory},
	{"foul", opFoul},
	{"natural", opNatural},
	{"count_splits", opCountSplits},
	{"settle", opSettle},
	{"digest", opDigest},
}

func opNames() []string {
	names := make([]string, len(ops))
	for i, op := range ops {
		names[i] = op.name
	}
	return names
}

// hello is the handshake's result: what the engine is and plays.
func hello() interface{} {
	return map[string]interface{}{
		"protocol": 1,
		"engine":   "capsa-go-example",
		"version":  "0.1.0",
		"ops":      opNames(),
		"money":    true,
		"cards":    "text",
		"rules":    House,
		"knobs":    knobClaims(House),
		"not_zero_sum": map[string]interface{}{
			"seats": []int{2, 3},
			"note": fmt.Sprintf("below %d seats a seat that wins every row against every opponent "+
				"(a fouled opponent counting as beaten) is paid the sweep-all bonus, %d for each "+
				"opponent, by the house; its opponents pay it the scoop as usual",
				House.SweepAll.MinPlayers, House.SweepAll.Bonus),
		},
	}
}

// answer decodes one request line and answers it.
func answer(line []byte, readErr error) response {
	null := json.RawMessage("null")
	if readErr != nil {
		return response{ID: null, Error: &engineError{"invalid", readErr.Error()}}
	}
	var req map[string]json.RawMessage
	if err := decodeStrict(line, &req); err != nil || req == nil {
		return response{ID: null, Error: &engineError{"invalid", "the request is not a JSON object"}}
	}
	id, ok := readID(req["id"])
	if !ok {
		return response{ID: null, Error: &engineError{"invalid", `the request has no integer or string "id"`}}
	}
	result, err := dispatch(req)
	if err != nil {
		var e *engineError
		if !errors.As(err, &e) {
			e = &engineError{"internal", err.Error()}
		}
		return response{ID: id, Error: e}
	}
	if result == nil {
		result = nullResult{}
	}
	return response{ID: id, Result: result}
}

// dispatch answers a decoded request; a panic while answering is an
// "internal" error of that request, and the loop goes on.
func dispatch(req map[string]json.RawMessage) (result interface{}, err error) {
	defer func() {
		if p := recover(); p != nil {
			result, err = nil, &engineError{"internal", fmt.Sprintf("panic: %v", p)}
		}
	}()
	var op string
	if err := json.Unmarshal(req["op"], &op); err != nil {
		return nil, invalidf(`"op" must be a string`)
	}
	if op == "hello" {
		return hello(), nil
	}
	for _, known := range ops {
		if known.name == op {
			return known.answer(req)
		}
	}
	return nil, unsupportedf("op %q is not supported", op)
}

// readID accepts an integer or a string id and echoes it as written.
func readID(raw json.RawMessage) (json.RawMessage, bool) {
	var text string
	if json.Unmarshal(raw, &text) == nil {
		return raw, true
	}
	var number json.Number
	if decodeStrict(raw, &number) != nil {
		return nil, false
	}
	if _, err := number.Int64(); err != nil {
		return nil, false
	}
	return raw, true
}

// decodeStrict decodes one JSON value, numbers kept exact, nothing after it.
func decodeStrict(data []byte, v interface{}) error {
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.UseNumber()
	if err := dec.Decode(v); err != nil {
		return err
	}
	if _, err := dec.Token(); err != io.EOF {
		return errors.New("data after the JSON value")
	}
	return nil
}

// hand reads a field of 3 or 5 cards.
func hand(req map[string]json.RawMessage, field string) ([]card, error) {
	cards, err := parseCards(req[field], field, 3, 5)
	if err != nil {
		return nil, invalidf("%v", err)
	}
	return cards, nil
}

func opCompare(req map[string]json.RawMessage) (interface{}, error) {
	a, err := hand(req, "a")
	if err != nil {
		return nil, err
	}
	b, err := hand(req, "b")
	if err != nil {
		return nil, err
	}
	return compareHands(a, b), nil
}

func opCategory(req map[string]json.RawMessage) (interface{}, error) {
	h, err := hand(req, "hand")
	if err != nil {
		return nil, err
	}
	return categoryNames[evaluate(h).category()], nil
}

func opFoul(req map[string]json.RawMessage) (interface{}, error) {
	var rows [3][]card
	used := uint64(0)
	for k, row := range []struct {
		name string
		size int
	}{{"top", 3}, {"middle", 5}, {"bottom", 5}} {
		cards, err := parseCards(req[row.name], row.name, row.size)
		if err != nil {
			return nil, invalidf("%v", err)
		}
		for _, c := range cards {
			if used&(1<<uint(c)) != 0 {
				return nil, invalidf("%s: card %s is repeated", row.name, c)
			}
			used |= 1 << uint(c)
		}
		rows[k] = cards
	}
	return fouls(rows[0], rows[1], rows[2]), nil
}

// opNatural: the house pays no naturals, so no hand has one.
func opNatural(req map[string]json.RawMessage) (interface{}, error) {
	if _, err := parseCards(req["hand"], "hand", 13); err != nil {
		return nil, invalidf("%v", err)
	}
	return nil, nil
}

func opCountSplits(req map[string]json.RawMessage) (interface{}, error) {
	cards, err := parseCards(req["hand"], "hand", 13)
	if err != nil {
		return nil, invalidf("%v", err)
	}
	return countSplits(cards), nil
}

func opSettle(req map[string]json.RawMessage) (interface{}, error) {
	return settleRound(req["round"], House)
}

func opDigest(req map[string]json.RawMessage) (interface{}, error) {
	var size int
	if err := json.Unmarshal(req["size"], &size); err != nil || (size != 3 && size != 5) {
		return nil, invalidf(`"size" must be 3 or 5`)
	}
	return digest(size), nil
}
