package main

import (
	"math/big"
	"reflect"
	"testing"
)

// Cases worked by hand from docs/rules.md, "Money, rake and exactness": one
// rake form binds in each.
func TestRoundRake(t *testing.T) {
	cases := []struct {
		name  string
		rake  Money
		money []int64
		want  []int64
	}{
		{"rate rounded down", Money{RakeBasisPoints: 250}, []int64{1300, -1300}, []int64{32, 0}},
		{"minimum pot", Money{RakeBasisPoints: 1000, RakeMinimumPot: 20}, []int64{10, 20, 50, -80}, []int64{0, 2, 5, 0}},
		{"cap per pot", Money{RakeBasisPoints: 1000, RakeCapPerPot: 3}, []int64{10, 20, 50, -80}, []int64{1, 2, 3, 0}},
		{"round cap, a tie", Money{RakeBasisPoints: 1000, RakeCapPerRound: 20}, []int64{100, 100, 100, -300}, []int64{7, 7, 6, 0}},
		{"round cap, largest remainder", Money{RakeBasisPoints: 1000, RakeCapPerRound: 7}, []int64{300, 200, 0, -500}, []int64{4, 3, 0, 0}},
		{"every form", Money{RakeBasisPoints: 250, RakeMinimumPot: 50, RakeCapPerPot: 10, RakeCapPerRound: 13}, []int64{40, 800, 2000, -2840}, []int64{0, 7, 6, 0}},
		{"no rate", Money{RakeCapPerRound: 5}, []int64{100, -100}, []int64{0, 0}},
	}
	for _, c := range cases {
		money := make([]*big.Int, len(c.money))
		for i, m := range c.money {
			money[i] = big.NewInt(m)
		}
		got := []int64{}
		for _, r := range roundRake(money, c.rake) {
			got = append(got, r.Int64())
		}
		if !reflect.DeepEqual(got, c.want) {
			t.Errorf("%s: rake %v, want %v", c.name, got, c.want)
		}
	}
}
