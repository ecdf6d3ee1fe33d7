"use strict";
// Settlement of a round, from docs/rules.md, "Settlement".

const { CATEGORIES, InvalidRequest, Unsupported, parseCards, evaluate, compareEvaluated, isFoul, natural, groupRanks, compareLists } =
  require("./hands");

const ROWS = ["top", "middle", "bottom"];
const TIE_COMPARED = new Set(["six-pairs", "five-pairs-trips", "four-triples", "three-quads"]);

/** A seat as the settlement needs it: its rows evaluated, foul, natural, flags. */
function readSeat(seat, k, rules) {
  if (seat === null || typeof seat !== "object" || Array.isArray(seat)) {
    throw new InvalidRequest(`seat ${k}: a seat is an object`);
  }
  const rows = ROWS.map((row, r) => parseCards(seat[row], r === 0 ? 3 : 5, `seat ${k} ${row}`));
  const surrender = seat.surrender === undefined ? false : seat.surrender;
  const declare = seat.declare_natural === undefined ? true : seat.declare_natural;
  if (typeof surrender !== "boolean" || typeof declare !== "boolean") {
    throw new InvalidRequest(`seat ${k}: surrender and declare_natural are booleans`);
  }
  if (surrender && !rules.surrender.enabled) {
    throw new InvalidRequest(`seat ${k}: surrender is not enabled by the rules`);
  }
  const cards = rows.flat();
  if (new Set(cards.map((c) => c.id)).size !== 13) throw new InvalidRequest(`seat ${k}: a card is repeated`);
  const values = rows.map((row) => evaluate(row, rules));
  const royalties = values.map((value, r) => rules.royalties[ROWS[r]][CATEGORIES[value.category]] || 0);
  return {
    cards,
    values,
    royalties,
    surrender,
    foul: isFoul(...rows, rules),
    natural: declare ? natural(cards, rules) : null,
  };
}

/** Points i collects from j when both hold a declared natural. */
function naturalAgainstNatural(a, b, rules) {
  if (a.natural.name === b.natural.name) {
    if (rules.naturals.ties === "push" || !TIE_COMPARED.has(a.natural.name)) return 0;
    const order = compareLists(groupRanks(a.cards), groupRanks(b.cards));
    return order > 0 ? a.natural.points : order < 0 ? -b.natural.points : 0;
  }
  const [stronger, weaker, sign] = a.natural.index < b.natural.index ? [a, b, 1] : [b, a, -1];
  const points = rules.naturals.resolve === "difference" ? stronger.natural.points - weaker.natural.points : stronger.natural.points;
  return sign * points;
}

/** What a fouled seat pays `other` (who did not foul, surrender or declare a natural). */
function foulAmount(other, otherSweptAll, rules) {
  const { row_points: rowPoints, overall_point: overall, scoop, sweep_all: sweep, foul } = rules;
  let amount;
  let m;
  if (foul.mode === "sweep-all") {
    m = sweep.multiplier;
    amount = 3 * rowPoints * sweep.multiplier + sweep.bonus;
  } else {
    const [mult, bonus] = otherSweptAll ? [sweep.multiplier, sweep.bonus] : [scoop.multiplier, scoop.bonus];
    m = mult;
    amount = foul.mode === "scoop" ? (3 * rowPoints + overall) * mult + bonus : foul.points;
  }
  if (foul.pays_royalties && rules.royalty_mode !== "none") {
    const royalties = other.royalties.reduce((x, y) => x + y, 0);
    amount += royalties * (scoop.multiply_royalties ? m : 1);
  }
  return amount;
}

/** The row results of i against j: +1 won, -1 lost, 0 tied, per row. */
function rowResults(a, b, rules) {
  return a.values.map((value, r) => compareEvaluated(value, b.values[r], rules));
}

/** Points i collects from j when their rows are compared (step 4). */
function rowsPoints(a, b, results, iSwept, jSwept, rules) {
  const { row_points: rowPoints, royalty_mode: mode } = rules;
  let rows = 0;
  let roy = 0;
  results.forEach((result, r) => {
    if (result === 0) return;
    const winner = result > 0 ? a : b;
    const sign = result;
    if (mode === "winner") {
      const royalty = winner.royalties[r];
      if (!rules.royalty_adds && royalty > rowPoints) roy += sign * royalty;
      else {
        rows += sign * rowPoints;
        if (rules.royalty_adds) roy += sign * royalty;
      }
    } else {
      rows += sign * rowPoints;
    }
  });
  if (mode === "always") roy = a.royalties.reduce((x, y) => x + y, 0) - b.royalties.reduce((x, y) => x + y, 0);
  const won = results.filter((x) => x > 0).length;
  const lost = results.filter((x) => x < 0).length;
  const overall = won > lost ? rules.overall_point : won < lost ? -rules.overall_point : 0;
  const scooped = (swept) =>
    swept ? [rules.sweep_all.multiplier, rules.sweep_all.bonus] : [rules.scoop.multiplier, rules.scoop.bonus];
  if (won === 3 || lost === 3) {
    const [m, bonus] = scooped(won === 3 ? iSwept : jSwept);
    const sign = won === 3 ? 1 : -1;
    return (rows + overall) * m + sign * bonus + roy * (rules.scoop.multiply_royalties ? m : 1);
  }
  return rows + overall + roy;
}

function stakeOf(stakes, i, j, rules) {
  if (stakes === undefined || stakes === null) return rules.money.stake;
  if (Number.isInteger(stakes)) return stakes;
  if (Array.isArray(stakes) && Array.isArray(stakes[i]) && Number.isInteger(stakes[i][j])) return stakes[i][j];
  throw new InvalidRequest("stakes: an integer or a P x P matrix of integers");
}

/** The round's points, money, rake and net per seat. */
function settle(round, rules) {
  if (round === null || typeof round !== "object" || !Array.isArray(round.seats)) {
    throw new InvalidRequest("round: an object with a seats list");
  }
  const count = round.seats.length;
  if (count < 2 || count > 4) throw new InvalidRequest(`round: 2 to 4 seats, got ${count}`);
  const seats = round.seats.map((seat, k) => readSeat(seat, k, rules));
  const used = seats.flatMap((seat) => seat.cards.map((c) => c.id));
  if (new Set(used).size !== used.length) throw new InvalidRequest("round: a card is dealt twice");

  const plays = (s) => !s.natural && !s.surrender && !s.foul;
  const results = seats.map((a) => seats.map((b) => rowResults(a, b, rules)));
  const sweptAll = seats.map(
    (a, i) =>
      count >= rules.sweep_all.min_players &&
      plays(a) &&
      seats.every(
        (b, j) => j === i || (!b.natural && !b.surrender && (b.foul || results[i][j].every((x) => x > 0))),
      ),
  );
  const points = new Array(count).fill(0);
  const money = new Array(count).fill(0);
  for (let i = 0; i < count; i++) {
    for (let j = i + 1; j < count; j++) {
      const pair = pairPoints(seats, i, j, results, sweptAll, rules);
      const stake = stakeOf(round.stakes, i, j, rules);
      points[i] += pair;
      points[j] -= pair;
      money[i] += pair * stake;
      money[j] -= pair * stake;
    }
  }
  for (const figure of money) {
    if (!Number.isSafeInteger(figure)) throw new Unsupported("figures past 2^53 are not supported");
  }
  const rake = roundRake(money, rules.money);
  const net = money.map((m, k) => m - rake[k]);
  for (const figure of [...points, ...money, ...net]) {
    // Plain JavaScript numbers are exact only to 2^53: past that, say so rather than round.
    if (!Number.isSafeInteger(figure)) throw new Unsupported("figures past 2^53 are not supported");
  }
  return { points, money, rake, net };
}

/**
 * What each seat pays the house (docs/rules.md, "Money, rake and exactness"): the rate in
 * basis points of a winner's money, rounded down, from a winner of at least the minimum pot,
 * at most the cap per pot; past the cap per round, that cap shared in proportion, the units
 * left over one each to the largest remainders (ties to the lower seat). BigInt keeps the
 * products exact.
 */
function roundRake(money, knobs) {
  const rate = BigInt(knobs.rake_basis_points);
  const perPot = BigInt(knobs.rake_cap_per_pot);
  const cap = BigInt(knobs.rake_cap_per_round);
  const rakes = money.map((m) => {
    if (m <= 0 || m < knobs.rake_minimum_pot) return 0n;
    const share = (BigInt(m) * rate) / 10000n;
    return perPot > 0n && share > perPot ? perPot : share;
  });
  const total = rakes.reduce((a, b) => a + b, 0n);
  if (cap > 0n && total > cap) {
    const remainders = rakes.map((r) => (cap * r) % total);
    const shares = rakes.map((r) => (cap * r) / total);
    let left = cap - shares.reduce((a, b) => a + b, 0n);
    for (; left > 0n; left--) {
      let best = 0;
      remainders.forEach((r, k) => {
        if (r > remainders[best]) best = k;
      });
      shares[best] += 1n;
      remainders[best] = -1n;
    }
    return shares.map(Number);
  }
  return rakes.map(Number);
}

/** Points seat i collects from seat j: the first step of the settlement that applies. */
function pairPoints(seats, i, j, results, sweptAll, rules) {
  const [a, b] = [seats[i], seats[j]];
  if (a.natural && b.natural) return naturalAgainstNatural(a, b, rules);
  if (a.natural) return a.natural.points;
  if (b.natural) return -b.natural.points;
  if (a.surrender || b.surrender) {
    if (a.surrender && b.surrender) return 0;
    if (a.surrender) return b.foul ? 0 : -rules.surrender.cost;
    return a.foul ? 0 : rules.surrender.cost;
  }
  if (a.foul && b.foul) return 0;
  if (a.foul) return -foulAmount(b, sweptAll[j], rules);
  if (b.foul) return foulAmount(a, sweptAll[i], rules);
  return rowsPoints(a, b, results[i][j], sweptAll[i], sweptAll[j], rules);
}

module.exports = { settle };
