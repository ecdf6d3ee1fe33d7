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

function answer(line) {
  let request;
  try {
    request = JSON.parse(line);
  } catch (exc) {
    return { id: null, error: { kind: "invalid", message: `not JSON: ${exc.message}` } };
  }
  const id = request && (typeof request.id === "number" || typeof request.id === "string") ? request.id : null;
  try {
    const op = OPS[request.op];
    if (!op) throw new Unsupported(`op ${JSON.stringify(request.op)} is not supported`);
    if (request.op !== "hello" && (request.rules === null || typeof request.rules !== "object")) {
      throw new InvalidRequest("rules: the full rules data is required");
    }
    return { id, result: op(request, request.rules) };
  } catch (exc) {
    const kind = exc instanceof Unsupported ? "unsupported" : exc instanceof InvalidRequest ? "invalid" : "internal";
    return { id, error: { kind, message: exc.message, type: exc.constructor.name } };
  }
}

// Answer every complete line as it arrives; write the answers of one chunk at once.
let pending = "";
process.stdin.setEncoding("utf8");
process.stdin.on("data", (chunk) => {
  const lines = (pending + chunk).split("\n");
  pending = lines.pop();
  const out = lines.filter((line) => line.trim()).map((line) => JSON.stringify(answer(line)) + "\n");
  if (out.length) process.stdout.write(out.join(""));
});
process.stdin.on("end", () => {
  if (pending.trim()) process.stdout.write(JSON.stringify(answer(pending)) + "\n");
});
