#!/usr/bin/env node
// A random bot for Node.js (no packages): the protocol of docs/PROTOCOL.md in
// another language than Python. It picks a legal action from the request's seed
// (a small deterministic generator), so a tournament with it is reproducible.
"use strict";
const readline = require("readline");

// SplitMix64 on BigInt: the request's seed -> a number in [0, n).
function pick(seed, n) {
  let z = (BigInt(seed) + 0x9e3779b97f4a7c15n) & 0xffffffffffffffffn;
  z = ((z ^ (z >> 30n)) * 0xbf58476d1ce4e5b9n) & 0xffffffffffffffffn;
  z = ((z ^ (z >> 27n)) * 0x94d049bb133111ebn) & 0xffffffffffffffffn;
  z = z ^ (z >> 31n);
  return Number(z % BigInt(n));
}

const rl = readline.createInterface({ input: process.stdin });
rl.on("line", (line) => {
  // The seed may exceed 2^53: keep its digits as a string.
  const msg = JSON.parse(line.replace(/"seed":\s*(\d+)/, '"seed":"$1"'));
  if (msg.type === "hello") {
    process.stdout.write(JSON.stringify({ type: "hello", protocol: 1, name: "random-bot-js", version: "1" }) + "\n");
  } else if (msg.type === "request") {
    const choice = msg.legal[pick(msg.seed, msg.legal.length)];
    process.stdout.write(JSON.stringify({ type: "action", id: msg.id, action: choice.action }) + "\n");
  } else if (msg.type === "bye") {
    rl.close();
  }
});
rl.on("close", () => process.exit(0));
