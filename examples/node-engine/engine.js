#!/usr/bin/env node
"use strict";
// A Chinese poker engine speaking the capsa conformance protocol, version 1
// (docs/conformance.md): JSON Lines on stdin/stdout, one answer per request,
// in order. Plain Node, no dependencies.

const { InvalidRequest, Unsupported, parseCards, compareHands, categoryName, isFoul, natural, countSplits } =
  require("./hands");
const { settle } = require("./settle");

const HELLO = {
  protocol: 1,
  engine: "capsa-node-example",
  version: "0.1.0",
  ops: ["compare", "category", "foul", "natural", "count_splits", "settle"],
  money: true,
  cards: "text",
};

const hand = (value, what) => {
  const size = typeof value === "string" ? value.split(" ").filter((t) => t).length : value && value.length;
  if (size !== 3 && size !== 5) throw new InvalidRequest(`${what}: a hand is 3 or 5 cards`);
  return parseCards(value, size, what);
};

const OPS = {
  hello: () => HELLO,
  compare: (req, rules) => compareHands(hand(req.a, "a"), hand(req.b, "b"), rules),
  category: (req, rules) => categoryName(hand(req.hand, "hand"), rules),
  foul: (req, rules) =>
    isFoul(parseCards(req.top, 3, "top"), parseCards(req.middle, 5, "middle"), parseCards(req.bottom, 5, "bottom"), rules),
  natural: (req, rules) => {
    const found = natural(parseCards(req.hand, 13, "hand"), rules);
    return found ? found.name : null;
  },
  count_splits: (req, rules) => countSplits(parseCards(req.hand, 13, "hand"), rules),
  settle: (req, rules) => settle(req.round, rules),
};

// Every knob of docs/rules.md, "Rules data (TOML)", as the protocol sends it.
const KNOBS = {
  "": ["tie_break", "suit_order", "flush_compare", "wheel", "foul_check", "row_points", "overall_point",
    "royalty_mode", "royalty_adds", "scoop", "sweep_all", "foul", "surrender", "naturals", "royalties", "money"],
  scoop: ["multiplier", "bonus", "multiply_royalties"],
  sweep_all: ["multiplier", "bonus", "min_players"],
  foul: ["mode", "points", "pays_royalties"],
  surrender: ["enabled", "cost"],
  naturals: ["resolve", "ties", "enabled"],
  royalties: ["top", "middle", "bottom"],
  money: ["stake", "rake_basis_points", "rake_minimum_pot", "rake_cap_per_pot", "rake_cap_per_round"],
};

// The named choices: any other value is a malformed request, not a variant to guess at.
const CHOICES = {
  tie_break: ["none", "suit"],
  flush_compare: ["ranks", "suit-first"],
  wheel: ["low", "second"],
  foul_check: ["allow-equal", "strict"],
  royalty_mode: ["winner", "always", "none"],
  "foul.mode": ["sweep-all", "scoop", "fixed"],
  "naturals.resolve": ["higher-wins", "difference"],
  "naturals.ties": ["push", "compare"],
};

function checkRules(rules) {
  if (rules === null || typeof rules !== "object") throw new InvalidRequest("rules: the full rules data is required");
  for (const [table, keys] of Object.entries(KNOBS)) {
    const holder = table ? rules[table] : rules;
    const missing = keys.find((key) => holder === null || typeof holder !== "object" || !(key in holder));
    if (missing) throw new InvalidRequest(`rules: missing knob ${table ? `${table}.` : ""}${missing}`);
  }
  for (const [knob, values] of Object.entries(CHOICES)) {
    const [table, key] = knob.includes(".") ? knob.split(".") : [null, knob];
    const value = table ? rules[table][key] : rules[key];
    if (!values.includes(value)) {
      throw new InvalidRequest(`rules: ${knob} must be one of ${values.join(", ")}, got ${JSON.stringify(value)}`);
    }
  }
  const order = typeof rules.suit_order === "string" ? rules.suit_order.toLowerCase() : "";
  if ([..."shcd"].some((suit) => !order.includes(suit)) || order.length !== 4) {
    throw new InvalidRequest(`rules: suit_order must name s, h, c and d once each, got ${JSON.stringify(rules.suit_order)}`);
  }
}

// JSON.parse gives doubles, exact only to 2^53; the protocol allows integers to 2^63 - 1.
function checkIntegers(value, where) {
  if (typeof value === "number" && !Number.isSafeInteger(value)) {
    throw new Unsupported(`${where}: ${value} is not an integer below 2^53, which this engine needs`);
  }
  if (value !== null && typeof value === "object") {
    for (const [key, item] of Object.entries(value)) checkIntegers(item, `${where}.${key}`);
  }
}

function answer(line) {
  let request;
  try {
    request = JSON.parse(line);
  } catch (exc) {
    return { id: null, error: { kind: "invalid", message: `not JSON: ${exc.message}` } };
  }
  if (request === null || typeof request !== "object" || Array.isArray(request)) {
    return { id: null, error: { kind: "invalid", message: "a request is a JSON object" } };
  }
  const id = typeof request.id === "number" || typeof request.id === "string" ? request.id : null;
  try {
    const op = Object.hasOwn(OPS, request.op) ? OPS[request.op] : null;
    if (!op) throw new Unsupported(`op ${JSON.stringify(request.op)} is not supported`);
    if (request.op !== "hello") {
      checkRules(request.rules);
      const { id: _id, ...rest } = request;
      checkIntegers(rest, "request");
    }
    return { id, result: op(request, request.rules) };
  } catch (exc) {
    const kind = exc instanceof Unsupported ? "unsupported" : exc instanceof InvalidRequest ? "invalid" : "internal";
    return { id, error: { kind, message: exc.message, type: exc.constructor.name } };
  }
}

// Answer every complete line as it arrives; write the answers of one chunk at once.
const MAX_REQUEST = 1 << 20;
let pending = "";
let overlong = false; // dropping the rest of a line over the limit (already answered)
process.stdin.setEncoding("utf8");
process.stdin.on("data", (chunk) => {
  let text = chunk;
  if (overlong) {
    const end = text.indexOf("\n");
    if (end < 0) return;
    text = text.slice(end + 1);
    overlong = false;
  }
  const lines = (pending + text).split("\n");
  pending = lines.pop();
  const out = lines.filter((line) => line.trim()).map(answer);
  if (pending.length > MAX_REQUEST) {
    out.push({ id: null, error: { kind: "invalid", message: "a request line over 1 MiB" } });
    pending = "";
    overlong = true;
  }
  if (out.length) process.stdout.write(out.map((response) => JSON.stringify(response) + "\n").join(""));
});
process.stdin.on("end", () => {
  if (pending.trim()) process.stdout.write(JSON.stringify(answer(pending)) + "\n");
});
