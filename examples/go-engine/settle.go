package main

import (
	"encoding/json"
	"fmt"
	"math/big"
)

// Settlement of a round under the house rules (docs/rules.md, "Settlement",
// with the figures of House): no naturals and no surrender, so a pair is
// settled on fouls, then on rows. One house rule goes beyond the rules
// data: below sweep_all.min_players seats, where capsa's rules know no
// sweep-all, a seat that sweeps (wins every row against every opponent, a
// fouled opponent counting as beaten) is paid sweep_all.bonus for each
// opponent by the house, on top of what its opponents pay it. Those rounds
// do not sum to zero.

// A seat's three rows, ranked, with the royalty each would collect if won.
type seatHand struct {
	rows    [3]strength // top, middle, bottom
	royalty [3]int64
	fouled  bool
}

// settlement is the answer of settle: per seat, in seat order.
type settlement struct {
	Points []int64 `json:"points"`
	Money  []int64 `json:"money"`
	Rake   []int64 `json:"rake"`
	Net    []int64 `json:"net"`
}

// table is a round as read: the seats and the stake of every pair.
type table struct {
	seats  []seatHand
	stakes [][]int64
}

// settleRound settles a round of the protocol's shape under rules r.
func settleRound(raw json.RawMessage, r Rules) (*settlement, error) {
	t, err := readTable(raw, r)
	if err != nil {
		return nil, err
	}
	n := len(t.seats)
	points := make([]int64, n)
	money := make([]*big.Int, n)
	for i := range money {
		money[i] = new(big.Int)
	}
	for i := 0; i < n; i++ {
		for j := 0; j < n; j++ {
			if i == j {
				continue
			}
			p := pairPoints(t, i, j, r) + houseBonus(t, i, r)
			points[i] += p
			money[i].Add(money[i], new(big.Int).Mul(big.NewInt(p), big.NewInt(t.stakes[i][j])))
		}
	}
	return withRake(points, money, r.Money)
}

// withRake turns points and money into the answer, taking the rake from each
// seat whose money is positive (docs/rules.md, "Money, rake and exactness").
func withRake(points []int64, money []*big.Int, m Money) (*settlement, error) {
	rakes := roundRake(money, m)
	s := &settlement{Points: points}
	for i, won := range money {
		net := new(big.Int).Sub(won, rakes[i])
		if !won.IsInt64() || !net.IsInt64() {
			return nil, invalidf("seat %d: its money does not fit in 64-bit integers", i)
		}
		s.Money = append(s.Money, won.Int64())
		s.Rake = append(s.Rake, rakes[i].Int64())
		s.Net = append(s.Net, net.Int64())
	}
	return s, nil
}

// roundRake is what each seat pays the house: the rate of its money rounded
// down when it wins at least the minimum pot, at most the cap per pot; when
// the rakes sum past the cap per round, that cap shared in proportion to
// them, the units left over one each to the largest remainders (ties to
// the lower seat).
func roundRake(money []*big.Int, m Money) []*big.Int {
	rakes := make([]*big.Int, len(money))
	total := new(big.Int)
	for i, won := range money {
		rakes[i] = new(big.Int)
		if won.Sign() > 0 && won.Cmp(big.NewInt(m.RakeMinimumPot)) >= 0 {
			rakes[i].Mul(won, big.NewInt(m.RakeBasisPoints))
			rakes[i].Quo(rakes[i], big.NewInt(10000))
			if m.RakeCapPerPot > 0 && rakes[i].Cmp(big.NewInt(m.RakeCapPerPot)) > 0 {
				rakes[i].SetInt64(m.RakeCapPerPot)
			}
		}
		total.Add(total, rakes[i])
	}
	limit := big.NewInt(m.RakeCapPerRound)
	if m.RakeCapPerRound == 0 || total.Cmp(limit) <= 0 {
		return rakes
	}
	remainders := make([]*big.Int, len(rakes))
	left := new(big.Int).Set(limit)
	for i, r := range rakes {
		share, remainder := new(big.Int).QuoRem(new(big.Int).Mul(limit, r), total, new(big.Int))
		rakes[i], remainders[i] = share, remainder
		left.Sub(left, share)
	}
	for ; left.Sign() > 0; left.Sub(left, big.NewInt(1)) {
		best := 0
		for i := range remainders {
			if remainders[i].Cmp(remainders[best]) > 0 {
				best = i
			}
		}
		rakes[best].Add(rakes[best], big.NewInt(1))
		remainders[best].SetInt64(-1)
	}
	return rakes
}

// pairPoints is what seat i collects from seat j (negative: pays).
func pairPoints(t *table, i, j int, r Rules) int64 {
	a, b := &t.seats[i], &t.seats[j]
	switch {
	case a.fouled && b.fouled:
		return 0
	case b.fouled:
		return foulAmount(t, i, r)
	case a.fouled:
		return -foulAmount(t, j, r)
	}
	won, lost, roy := int64(0), int64(0), int64(0)
	for row := 0; row < 3; row++ {
		if a.rows[row] > b.rows[row] {
			won++
			roy += a.royalty[row]
		} else if a.rows[row] < b.rows[row] {
			lost++
			roy -= b.royalty[row]
		}
	}
	rows := r.RowPoints * (won - lost)
	overall := r.OverallPoint * sign(won-lost)
	switch {
	case won == 3:
		return scooped(t, i, rows+overall, roy, r)
	case lost == 3:
		return -scooped(t, j, -(rows + overall), -roy, r)
	}
	return rows + overall + roy
}

// scooped is what seat i collects for winning all three rows against one
// opponent: the scoop's figures, or the sweep-all's when it swept all.
func scooped(t *table, i int, rows, roy int64, r Rules) int64 {
	m, bonus := multiplierAndBonus(t, i, r)
	if r.Scoop.MultiplyRoyalties {
		roy *= m
	}
	return rows*m + bonus + roy
}

// foulAmount is what a fouled opponent pays seat i under foul.mode =
// "scoop": what i would collect had it won all three rows, plus its
// royalties when foul.pays_royalties.
func foulAmount(t *table, i int, r Rules) int64 {
	m, bonus := multiplierAndBonus(t, i, r)
	amount := (3*r.RowPoints+r.OverallPoint)*m + bonus
	if r.Foul.PaysRoyalties {
		roy := t.seats[i].royalty[0] + t.seats[i].royalty[1] + t.seats[i].royalty[2]
		if r.Scoop.MultiplyRoyalties {
			roy *= m
		}
		amount += roy
	}
	return amount
}

func multiplierAndBonus(t *table, i int, r Rules) (int64, int64) {
	if len(t.seats) >= r.SweepAll.MinPlayers && sweeps(t, i) {
		return r.SweepAll.Multiplier, r.SweepAll.Bonus
	}
	return r.Scoop.Multiplier, r.Scoop.Bonus
}

// houseBonus is what the house pays seat i per opponent: the sweep-all bonus
// when it sweeps at a table too small for the rules' sweep-all.
func houseBonus(t *table, i int, r Rules) int64 {
	if len(t.seats) < r.SweepAll.MinPlayers && sweeps(t, i) {
		return r.SweepAll.Bonus
	}
	return 0
}

// sweeps says whether seat i, not fouled, won all three rows against every
// other seat or saw it foul.
func sweeps(t *table, i int) bool {
	a := &t.seats[i]
	if a.fouled {
		return false
	}
	for j := range t.seats {
		b := &t.seats[j]
		if j == i || b.fouled {
			continue
		}
		if a.rows[0] <= b.rows[0] || a.rows[1] <= b.rows[1] || a.rows[2] <= b.rows[2] {
			return false
		}
	}
	return true
}

func sign(x int64) int64 {
	switch {
	case x > 0:
		return 1
	case x < 0:
		return -1
	}
	return 0
}

// readTable reads the round: 2 to 4 seats of distinct cards (one deck) and
// the stakes.
func readTable(raw json.RawMessage, r Rules) (*table, error) {
	var round struct {
		Seats  []json.RawMessage `json:"seats"`
		Stakes json.RawMessage   `json:"stakes"`
	}
	if err := decodeStrict(raw, &round); err != nil || round.Seats == nil {
		return nil, invalidf(`round must be an object with "seats" (and "stakes")`)
	}
	n := len(round.Seats)
	if n < 2 || n > 4 {
		return nil, invalidf("round: a table has 2 to 4 seats, got %d", n)
	}
	t := &table{}
	used := uint64(0)
	for i, seatRaw := range round.Seats {
		seat, cards, err := readSeat(seatRaw, i, r)
		if err != nil {
			return nil, err
		}
		if used&cards != 0 {
			return nil, invalidf("seat %d: a card is dealt twice at the table", i)
		}
		used |= cards
		t.seats = append(t.seats, seat)
	}
	stakes, err := readStakes(round.Stakes, n, r.Money.Stake)
	if err != nil {
		return nil, err
	}
	t.stakes = stakes
	return t, nil
}

// readSeat reads one seat object; it returns the seat and its cards as a
// bit set of ids.
func readSeat(raw json.RawMessage, i int, r Rules) (seatHand, uint64, error) {
	var seat struct {
		Top, Middle, Bottom json.RawMessage
		Surrender           *bool `json:"surrender"`
		DeclareNatural      *bool `json:"declare_natural"`
	}
	if err := decodeStrict(raw, &seat); err != nil {
		return seatHand{}, 0, invalidf("seat %d must be an object with top, middle, bottom", i)
	}
	if seat.Surrender != nil && *seat.Surrender && !r.Surrender.Enabled {
		return seatHand{}, 0, unsupportedf("seat %d surrenders: this house plays no surrender", i)
	}
	var rows [3][]card
	var cards uint64
	for k, row := range []struct {
		raw  json.RawMessage
		name string
		size int
	}{{seat.Top, "top", 3}, {seat.Middle, "middle", 5}, {seat.Bottom, "bottom", 5}} {
		parsed, err := parseCards(row.raw, fmt.Sprintf("seat %d %s", i, row.name), row.size)
		if err != nil {
			return seatHand{}, 0, invalidf("%v", err)
		}
		for _, c := range parsed {
			if cards&(1<<uint(c)) != 0 {
				return seatHand{}, 0, invalidf("seat %d: card %s is repeated", i, c)
			}
			cards |= 1 << uint(c)
		}
		rows[k] = parsed
	}
	return rankSeat(rows, r), cards, nil
}

// rankSeat ranks a seat's rows and looks up their royalties.
func rankSeat(rows [3][]card, r Rules) seatHand {
	var s seatHand
	tables := [3]RoyaltyTable{r.Royalties.Top, r.Royalties.Middle, r.Royalties.Bottom}
	for k := range rows {
		s.rows[k] = evaluate(rows[k])
		s.royalty[k] = tables[k][categoryNames[s.rows[k].category()]]
	}
	s.fouled = !validOrder(s.rows[0], s.rows[1], s.rows[2])
	return s
}

// readStakes reads one non-negative integer for every pair, or a P x P
// symmetric matrix of them (the diagonal ignored); absent, money.stake.
func readStakes(raw json.RawMessage, n int, stake int64) ([][]int64, error) {
	matrix := make([][]int64, n)
	var one int64
	var rows [][]int64
	switch {
	case raw == nil || string(raw) == "null":
		one = stake
	case decodeStrict(raw, &one) == nil:
	case decodeStrict(raw, &rows) == nil:
		if len(rows) != n {
			return nil, invalidf("stakes: a matrix of %d rows for %d seats", len(rows), n)
		}
	default:
		return nil, invalidf("stakes must be an integer or a %d x %d matrix of integers", n, n)
	}
	for i := range matrix {
		matrix[i] = make([]int64, n)
		for j := range matrix[i] {
			matrix[i][j] = one
			if rows != nil {
				if len(rows[i]) != n {
					return nil, invalidf("stakes: row %d has %d entries for %d seats", i, len(rows[i]), n)
				}
				matrix[i][j] = rows[i][j]
			}
		}
	}
	return matrix, checkStakes(matrix)
}

func checkStakes(m [][]int64) error {
	for i := range m {
		for j := range m {
			if i != j && m[i][j] < 0 {
				return invalidf("stakes[%d][%d] is negative", i, j)
			}
			if i != j && m[i][j] != m[j][i] {
				return invalidf("stakes: the matrix is not symmetric at [%d][%d]", i, j)
			}
		}
	}
	return nil
}
