"use strict";
// Cards, hand ranking, fouls, naturals and split counting, from docs/rules.md.

const RANKS = "23456789TJQKA"; // rank = 2 + index
const SUITS = "dchs"; // suit number of the card id: d=0 c=1 h=2 s=3
const CATEGORIES = [
  "high-card", "pair", "two-pair", "trips", "straight",
  "flush", "full-house", "quads", "straight-flush", "royal-flush",
];
const [HIGH, PAIR, TWO_PAIR, TRIPS, STRAIGHT, FLUSH, FULL_HOUSE, QUADS, STRAIGHT_FLUSH, ROYAL] =
  CATEGORIES.map((_, i) => i);

class InvalidRequest extends Error {}
class Unsupported extends Error {}

/** Cards from canonical text ("As Kd Th") or a list of ids, as {rank, suit, id}. */
function parseCards(value, count, what) {
  const tokens = typeof value === "string" ? value.split(" ").filter((t) => t) : value;
  if (!Array.isArray(tokens) || tokens.length !== count) {
    throw new InvalidRequest(`${what}: expected ${count} cards, got ${JSON.stringify(value)}`);
  }
  const cards = tokens.map((token) => {
    let id = token;
    if (typeof token === "string") {
      const rank = RANKS.indexOf(token[0]);
      const suit = SUITS.indexOf(token[1]);
      if (token.length !== 2 || rank < 0 || suit < 0) {
        throw new InvalidRequest(`${what}: not a card: ${JSON.stringify(token)}`);
      }
      id = 4 * rank + suit;
    } else if (!Number.isInteger(id) || id < 0 || id > 51) {
      throw new InvalidRequest(`${what}: not a card id: ${JSON.stringify(token)}`);
    }
    return { rank: 2 + (id >> 2), suit: id & 3, id };
  });
  if (new Set(cards.map((c) => c.id)).size !== count) throw new InvalidRequest(`${what}: a card is repeated`);
  return cards;
}

/** Suit strength by suit number under `suit_order` (strongest first): 3 strongest. */
function suitStrengths(rules) {
  const order = String(rules.suit_order).toLowerCase();
  return [0, 1, 2, 3].map((suit) => 3 - order.indexOf(SUITS[suit]));
}

/** Places in the straight order: the top card, or where A-2-3-4-5 goes. */
function straightPlace(ranks, rules) {
  const distinct = new Set(ranks);
  if (distinct.size !== 5) return null;
  const high = Math.max(...ranks);
  if (high - Math.min(...ranks) === 4) return { place: high, wheel: false };
  if (distinct.has(14) && [2, 3, 4, 5].every((r) => distinct.has(r))) {
    // low: its top card is the 5; second: between K-high and A-high.
    return { place: rules.wheel === "second" ? 13.5 : 5, wheel: true };
  }
  return null;
}

/**
 * A hand of 3 or 5 cards: its category, its rank list (what decides within
 * the category, most significant first), the suit strengths of its cards in
 * significance order, and the suit of a flush.
 */
function evaluate(cards, rules) {
  const strength = suitStrengths(rules);
  const count = new Map();
  for (const c of cards) count.set(c.rank, (count.get(c.rank) || 0) + 1);
  const groups = [...count.entries()].sort((x, y) => y[1] - x[1] || y[0] - x[0]);
  const bySignificance = [...cards].sort(
    (x, y) => count.get(y.rank) - count.get(x.rank) || y.rank - x.rank || strength[y.suit] - strength[x.suit],
  );
  let category;
  let ranks = groups.map(([rank]) => rank);
  let flushSuit = null;
  if (cards.length === 5) {
    const flush = cards.every((c) => c.suit === cards[0].suit);
    const straight = straightPlace(cards.map((c) => c.rank), rules);
    if (flush) flushSuit = cards[0].suit;
    if (straight) {
      ranks = [straight.place];
      if (straight.wheel) {
        // Listed from the top of the straight down: the ace last when low, first when second.
        const ace = bySignificance.shift();
        if (rules.wheel === "second") bySignificance.unshift(ace);
        else bySignificance.push(ace);
      }
      category = !flush ? STRAIGHT : straight.place === 14 ? ROYAL : STRAIGHT_FLUSH;
    } else if (groups[0][1] === 4) category = QUADS;
    else if (groups[0][1] === 3 && groups[1][1] === 2) category = FULL_HOUSE;
    else if (flush) category = FLUSH;
    else if (groups[0][1] === 3) category = TRIPS;
    else if (groups[0][1] === 2 && groups[1][1] === 2) category = TWO_PAIR;
    else if (groups[0][1] === 2) category = PAIR;
    else category = HIGH;
  } else {
    category = groups[0][1] === 3 ? TRIPS : groups[0][1] === 2 ? PAIR : HIGH;
  }
  return {
    category,
    ranks,
    suits: bySignificance.map((c) => strength[c.suit]),
    flushStrength: flushSuit === null ? null : strength[flushSuit],
  };
}

function compareLists(x, y) {
  for (let i = 0; i < Math.min(x.length, y.length); i++) {
    if (x[i] !== y[i]) return x[i] > y[i] ? 1 : -1;
  }
  // One is a prefix of the other: the longer (five-card) hand is higher.
  return Math.sign(x.length - y.length);
}

/** 1, 0 or -1: how evaluated hand `a` ranks against `b` under the rules. */
function compareEvaluated(a, b, rules) {
  if (a.category !== b.category) return a.category > b.category ? 1 : -1;
  if (rules.flush_compare === "suit-first" && a.category === FLUSH && a.flushStrength !== b.flushStrength) {
    return a.flushStrength > b.flushStrength ? 1 : -1;
  }
  const byRanks = compareLists(a.ranks, b.ranks);
  if (byRanks !== 0 || rules.tie_break !== "suit") return byRanks;
  return compareLists(a.suits, b.suits);
}

function compareHands(a, b, rules) {
  return compareEvaluated(evaluate(a, rules), evaluate(b, rules), rules);
}

function categoryName(cards, rules) {
  return CATEGORIES[evaluate(cards, rules).category];
}

/** Whether top / middle / bottom foul under `foul_check`. */
function isFoul(top, middle, bottom, rules) {
  const [t, m, b] = [top, middle, bottom].map((row) => evaluate(row, rules));
  const least = rules.foul_check === "strict" ? 1 : 0;
  return compareEvaluated(b, m, rules) < least || compareEvaluated(m, t, rules) < least;
}

// ------------------------------------------------------------------ naturals

function rankCounts(cards) {
  const cnt = new Array(15).fill(0);
  for (const c of cards) cnt[c.rank] += 1;
  return cnt;
}

// The rank sets of every run of 3 and of 5 consecutive ranks (bit r for rank r);
// the ace may start one (A-2-3, A-2-3-4-5), nothing wraps round (K-A-2).
const RUNS = { 3: new Set(), 5: new Set() };
for (const length of [3, 5]) {
  for (let low = 1; low + length - 1 <= 14; low++) {
    let bits = 0;
    for (let r = low; r < low + length; r++) bits |= 1 << (r === 1 ? 14 : r);
    RUNS[length].add(bits);
  }
}

function isRun(ranks) {
  let bits = 0;
  for (const r of ranks) bits |= 1 << r;
  return RUNS[ranks.length].has(bits);
}

function isFlush(cards) {
  return cards.every((c) => c.suit === cards[0].suit);
}

const combinationCache = new Map();

/** Every k-subset of 0..n-1 as a sorted index list, in lexicographic order (computed once). */
function combinations(n, k) {
  const key = `${n}/${k}`;
  if (!combinationCache.has(key)) {
    const out = [];
    const extend = (start, prefix) => {
      if (prefix.length === k) out.push(prefix);
      else for (let i = start; i <= n - (k - prefix.length); i++) extend(i + 1, [...prefix, i]);
    };
    extend(0, []);
    combinationCache.set(key, out);
  }
  return combinationCache.get(key);
}

/** Whether some split into 3 + 5 + 5 has every row of the shape `rowOk`. */
function splitsInto(cards, rowOk) {
  const rowsOk = (size) => combinations(13, size).filter((idx) => rowOk(idx.map((i) => cards[i]))).map(maskOf);
  const fives = new Set(rowsOk(5));
  if (fives.size < 2) return false;
  const all = (1 << 13) - 1;
  for (const top of rowsOk(3)) {
    for (const middle of fives) {
      if ((middle & top) === 0 && fives.has(all & ~top & ~middle)) return true;
    }
  }
  return false;
}

const red = (c) => c.suit === 0 || c.suit === 2;

const NATURALS = {
  "clean-dragon": (cards, cnt) => cnt.slice(2).every((n) => n === 1) && isFlush(cards),
  dragon: (cards, cnt) => cnt.slice(2).every((n) => n === 1),
  "twelve-royals": (cards) => cards.filter((c) => c.rank >= 11).length >= 12,
  "three-straight-flushes": (cards) => splitsInto(cards, (row) => isFlush(row) && isRun(row.map((c) => c.rank))),
  "three-quads": (cards, cnt) => cnt.filter((n) => n === 4).length >= 3,
  "all-high": (cards) => cards.every((c) => c.rank >= 8),
  "all-low": (cards) => cards.every((c) => c.rank <= 8),
  "full-colored": (cards) => cards.every(red) || !cards.some(red),
  "twelve-same-color": (cards) => Math.max(cards.filter(red).length, cards.filter((c) => !red(c)).length) >= 12,
  "four-triples": (cards, cnt) => cnt.filter((n) => n >= 3).length >= 4,
  "five-pairs-trips": (cards, cnt) => {
    const odd = cnt.filter((n) => n % 2 === 1);
    return odd.length === 1 && odd[0] === 3;
  },
  "six-pairs": (cards, cnt) => cnt.reduce((sum, n) => sum + (n >> 1), 0) >= 6,
  "three-straights": (cards) => splitsInto(cards, (row) => isRun(row.map((c) => c.rank))),
  "three-flushes": (cards) => splitsInto(cards, isFlush),
  "no-picture-cards": (cards) => cards.every((c) => c.rank < 11 || c.rank > 13),
  "two-full-houses": (cards, cnt) =>
    cnt
      .filter((n) => n > 0)
      .sort()
      .join() === "1,2,2,2,3,3",
};

/** The enabled natural the 13 cards qualify for (the first listed), as {name, points, index}, or null. */
function natural(cards, rules) {
  const cnt = rankCounts(cards);
  const enabled = rules.naturals.enabled;
  for (let index = 0; index < enabled.length; index++) {
    const test = NATURALS[enabled[index].name];
    if (!test) throw new Unsupported(`natural ${JSON.stringify(enabled[index].name)} is not supported`);
    if (test(cards, cnt)) return { ...enabled[index], index };
  }
  return null;
}

/** The 13 cards grouped by rank, largest and highest group first, as their ranks. */
function groupRanks(cards) {
  const cnt = rankCounts(cards);
  const ranks = [];
  for (let r = 2; r <= 14; r++) if (cnt[r]) ranks.push(r);
  return ranks.sort((x, y) => cnt[y] - cnt[x] || y - x);
}

// ------------------------------------------------------------------ splits

/** How many of the 72,072 splits of 13 cards into 3 + 5 + 5 are valid. */
function countSplits(cards, rules) {
  // Every row that can occur, ranked once: then a split is three integer comparisons.
  const fives = combinations(13, 5);
  const threes = combinations(13, 3);
  const hands = [
    ...fives.map((idx) => ({ mask: maskOf(idx), size: 5, value: evaluate(idx.map((i) => cards[i]), rules) })),
    ...threes.map((idx) => ({ mask: maskOf(idx), size: 3, value: evaluate(idx.map((i) => cards[i]), rules) })),
  ];
  const sorted = [...hands].sort((x, y) => compareEvaluated(x.value, y.value, rules));
  let dense = 0;
  sorted.forEach((hand, i) => {
    if (i > 0 && compareEvaluated(sorted[i - 1].value, hand.value, rules) !== 0) dense += 1;
    hand.rank = dense;
  });
  const rankOfMask = new Int32Array(1 << 13);
  for (const h of hands) if (h.size === 5) rankOfMask[h.mask] = h.rank;
  const fiveMasks = fives.map(maskOf);
  const least = rules.foul_check === "strict" ? 1 : 0;
  const all = (1 << 13) - 1;
  let valid = 0;
  for (const top of hands) {
    if (top.size !== 3) continue;
    const rest = all & ~top.mask;
    for (const m of fiveMasks) {
      if ((m & top.mask) !== 0) continue;
      const middleRank = rankOfMask[m];
      if (rankOfMask[rest & ~m] - middleRank >= least && middleRank - top.rank >= least) valid += 1;
    }
  }
  return valid;
}

function maskOf(indices) {
  return indices.reduce((mask, i) => mask | (1 << i), 0);
}

module.exports = {
  CATEGORIES,
  InvalidRequest,
  Unsupported,
  parseCards,
  evaluate,
  compareHands,
  compareEvaluated,
  categoryName,
  isFoul,
  natural,
  groupRanks,
  countSplits,
  compareLists,
};
