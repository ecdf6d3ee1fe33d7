package main

import "fmt"

// The one house variant this engine plays, as rules data in capsa's format
// (docs/rules.md, "Rules data (TOML)"). The hello sends it whole, and the
// ranking, foul and settlement code read their figures from it; house.toml
// is the same data as a rules file.

// Scoop is what winning all three rows against one opponent pays.
type Scoop struct {
	Multiplier        int64 `json:"multiplier"`
	Bonus             int64 `json:"bonus"`
	MultiplyRoyalties bool  `json:"multiply_royalties"`
}

// SweepAll is what winning all three rows against every opponent pays, at
// tables of at least MinPlayers seats.
type SweepAll struct {
	Multiplier int64 `json:"multiplier"`
	Bonus      int64 `json:"bonus"`
	MinPlayers int   `json:"min_players"`
}

// FoulRule is what a fouled hand pays.
type FoulRule struct {
	Mode          string `json:"mode"`
	Points        int64  `json:"points"`
	PaysRoyalties bool   `json:"pays_royalties"`
}

// Surrender is off in this house; the knob is sent for completeness.
type Surrender struct {
	Enabled bool  `json:"enabled"`
	Cost    int64 `json:"cost"`
}

// Natural is one entry of naturals.enabled.
type Natural struct {
	Name   string `json:"name"`
	Points int64  `json:"points"`
}

// Naturals: this house pays none, so Enabled is empty.
type Naturals struct {
	Resolve string    `json:"resolve"`
	Ties    string    `json:"ties"`
	Enabled []Natural `json:"enabled"`
}

// RoyaltyTable maps a category name to the points a won row with it collects.
type RoyaltyTable map[string]int64

// Royalties holds each row's table.
type Royalties struct {
	Top    RoyaltyTable `json:"top"`
	Middle RoyaltyTable `json:"middle"`
	Bottom RoyaltyTable `json:"bottom"`
}

// Money is the stake per point and the house's rake: a rate in basis points
// of each winner's money, nothing from a winner below the minimum pot, at
// most the cap per pot from one winner and the cap per round from all of
// them (0: no cap).
type Money struct {
	Stake           int64 `json:"stake"`
	RakeBasisPoints int64 `json:"rake_basis_points"`
	RakeMinimumPot  int64 `json:"rake_minimum_pot"`
	RakeCapPerPot   int64 `json:"rake_cap_per_pot"`
	RakeCapPerRound int64 `json:"rake_cap_per_round"`
}

// Rules is the whole rules data of the variant.
type Rules struct {
	Name         string    `json:"name"`
	Description  string    `json:"description"`
	TieBreak     string    `json:"tie_break"`
	SuitOrder    string    `json:"suit_order"`
	FlushCompare string    `json:"flush_compare"`
	Wheel        string    `json:"wheel"`
	FoulCheck    string    `json:"foul_check"`
	RowPoints    int64     `json:"row_points"`
	OverallPoint int64     `json:"overall_point"`
	RoyaltyMode  string    `json:"royalty_mode"`
	RoyaltyAdds  bool      `json:"royalty_adds"`
	Scoop        Scoop     `json:"scoop"`
	SweepAll     SweepAll  `json:"sweep_all"`
	Foul         FoulRule  `json:"foul"`
	Surrender    Surrender `json:"surrender"`
	Naturals     Naturals  `json:"naturals"`
	Royalties    Royalties `json:"royalties"`
	Money        Money     `json:"money"`
}

// House is the variant: pagat's ranking (no suit tie-break, A-2-3-4-5 the
// lowest straight), one point a row, a scoop bonus of 2, a sweep-all bonus of
// 5 paid by every opponent at four seats, its own royalties, no naturals, no
// surrender, no rake. Below four seats a seat that beats everyone on every
// row is paid the sweep-all bonus by the house (settle.go).
var House = Rules{
	Name: "go-house",
	Description: "The Go example engine's house variant: pagat ranking, scoop bonus 2, " +
		"sweep-all bonus 5 (paid by the house below four seats), its own royalties, no naturals.",
	TieBreak:     "none",
	SuitOrder:    "shcd",
	FlushCompare: "ranks",
	Wheel:        "low",
	FoulCheck:    "allow-equal",
	RowPoints:    1,
	OverallPoint: 0,
	RoyaltyMode:  "winner",
	RoyaltyAdds:  true,
	Scoop:        Scoop{Multiplier: 1, Bonus: 2, MultiplyRoyalties: false},
	SweepAll:     SweepAll{Multiplier: 1, Bonus: 5, MinPlayers: 4},
	Foul:         FoulRule{Mode: "scoop", Points: 0, PaysRoyalties: true},
	Surrender:    Surrender{Enabled: false, Cost: 0},
	Naturals:     Naturals{Resolve: "higher-wins", Ties: "push", Enabled: []Natural{}},
	Royalties: Royalties{
		Top:    RoyaltyTable{"pair": 1, "trips": 6},
		Middle: RoyaltyTable{"full-house": 2, "quads": 6, "straight-flush": 8, "royal-flush": 12},
		Bottom: RoyaltyTable{"quads": 3, "straight-flush": 4, "royal-flush": 6},
	},
	Money: Money{Stake: 1},
}

// knobClaims lists every knob of the rules data with its one value: the
// hello's "knobs" member for an engine that plays one fixed variant.
func knobClaims(r Rules) map[string][]interface{} {
	one := func(v interface{}) []interface{} { return []interface{}{v} }
	return map[string][]interface{}{
		"tie_break":                one(r.TieBreak),
		"suit_order":               one(r.SuitOrder),
		"flush_compare":            one(r.FlushCompare),
		"wheel":                    one(r.Wheel),
		"foul_check":               one(r.FoulCheck),
		"row_points":               one(r.RowPoints),
		"overall_point":            one(r.OverallPoint),
		"royalty_mode":             one(r.RoyaltyMode),
		"royalty_adds":             one(r.RoyaltyAdds),
		"scoop.multiplier":         one(r.Scoop.Multiplier),
		"scoop.bonus":              one(r.Scoop.Bonus),
		"scoop.multiply_royalties": one(r.Scoop.MultiplyRoyalties),
		"sweep_all.multiplier":     one(r.SweepAll.Multiplier),
		"sweep_all.bonus":          one(r.SweepAll.Bonus),
		"sweep_all.min_players":    one(r.SweepAll.MinPlayers),
		"foul.mode":                one(r.Foul.Mode),
		"foul.points":              one(r.Foul.Points),
		"foul.pays_royalties":      one(r.Foul.PaysRoyalties),
		"surrender.enabled":        one(r.Surrender.Enabled),
		"surrender.cost":           one(r.Surrender.Cost),
		"naturals.resolve":         one(r.Naturals.Resolve),
		"naturals.ties":            one(r.Naturals.Ties),
		"naturals.enabled":         one(r.Naturals.Enabled),
		"naturals.names":           {},
		"royalties.top":            one(r.Royalties.Top),
		"royalties.middle":         one(r.Royalties.Middle),
		"royalties.bottom":         one(r.Royalties.Bottom),
		"money.stake":              one(r.Money.Stake),
		"money.rake_basis_points":  one(r.Money.RakeBasisPoints),
		"money.rake_minimum_pot":   one(r.Money.RakeMinimumPot),
		"money.rake_cap_per_pot":   one(r.Money.RakeCapPerPot),
		"money.rake_cap_per_round": one(r.Money.RakeCapPerRound),
	}
}

// implemented says whether the code plays r: the ranking is fixed (no suit
// tie-break, the wheel low, flushes by ranks), and so are the foul check,
// the royalty mode, the foul mode and the absence of naturals and surrender.
// Only the figures (points, multipliers, bonuses, royalties, rake) are read
// from the data, so a change to anything else must fail loudly, not be
// played wrong.
func implemented(r Rules) error {
	fixed := []struct{ knob, got, want string }{
		{"tie_break", r.TieBreak, "none"},
		{"flush_compare", r.FlushCompare, "ranks"},
		{"wheel", r.Wheel, "low"},
		{"foul_check", r.FoulCheck, "allow-equal"},
		{"royalty_mode", r.RoyaltyMode, "winner"},
		{"foul.mode", r.Foul.Mode, "scoop"},
	}
	for _, f := range fixed {
		if f.got != f.want {
			return fmt.Errorf("the house rules set %s = %q; this engine plays only %q", f.knob, f.got, f.want)
		}
	}
	if !r.RoyaltyAdds || r.Surrender.Enabled || len(r.Naturals.Enabled) > 0 {
		return fmt.Errorf("the house rules need royalty_adds, no surrender and no naturals")
	}
	if r.Money.RakeBasisPoints < 0 || r.Money.RakeBasisPoints > 10000 {
		return fmt.Errorf("money.rake_basis_points must be 0..10000, got %d", r.Money.RakeBasisPoints)
	}
	if r.Money.RakeMinimumPot < 0 || r.Money.RakeCapPerPot < 0 || r.Money.RakeCapPerRound < 0 {
		return fmt.Errorf("money.rake_minimum_pot and the rake caps must not be negative")
	}
	return nil
}
