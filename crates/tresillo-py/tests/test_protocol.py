"""Every message of the bot protocol, in a real exchange over every rule set,
validates against docs/protocol.schema.json; external bots also sit in Python
tournaments."""

import json
import os

import pytest
import tresillo
from conftest import ROOT, TABLES, need

BOT = os.path.join(ROOT, "crates", "tresillo-bots", "tests", "bots", "recording.py")


@pytest.mark.parametrize("rules,players,options", TABLES)
def test_every_message_validates_against_the_schema(tmp_path, monkeypatch, rules, players, options):
    jsonschema = need("jsonschema")
    with open(os.path.join(ROOT, "docs", "protocol.schema.json")) as f:
        schema = json.load(f)
    record = tmp_path / "messages.jsonl"
    monkeypatch.setenv("RECORD", str(record))
    agents = [f"ext:cmd={BOT}"] + ["rule"] * (players - 1)
    tresillo.tournament(agents, deals=20, out=tmp_path / "run", rules=rules, options=options, threads=1)
    lines = record.read_text().splitlines()
    cls = jsonschema.validators.validator_for(schema)
    cls.check_schema(schema)
    validator = cls(schema)  # one for all messages: jsonschema.validate builds one per call
    kinds = set()
    for line in lines:
        msg = json.loads(line)
        validator.validate(msg)
        kinds.add(msg["type"])
    assert {"hello", "hand", "request", "action", "bye"} <= kinds


@pytest.mark.parametrize("rules,players", [(r, p) for r, p, o in TABLES if not o])
def test_python_views_are_the_protocols_view(tmp_path, rules, players):
    """`State.view(p)` and `SeatView.view()` hold the protocol's `view` (the one
    serialization, tresillo_env::SeatView: the same keys and values), besides
    their own keys; issue 37: Python had `building` and `known_cards`."""
    jsonschema = need("jsonschema")
    with open(os.path.join(ROOT, "docs", "protocol.schema.json")) as f:
        schema = json.load(f)
    keys = schema["$defs"]["request"]["properties"]["view"]["required"]
    view_schema = {"$defs": schema["$defs"], "$ref": "#/$defs/request/properties/view"}
    validator = jsonschema.validators.validator_for(schema)(view_schema)

    def protocol_part(v):
        assert "building" not in v and "known_cards" not in v, sorted(v)
        return {k: v[k] for k in keys}

    game = tresillo.Game(rules, players=players)
    agent = tresillo.Agent("rule", seed=3)
    checked = 0
    for seed in range(4):
        state = game.new_initial_state(seed=seed, dealer=seed % players)
        while not state.is_terminal():
            p = state.current_player()
            for seat in range(players):
                validator.validate(protocol_part(state.view(seat)))
            a = agent.step(state)
            words = state.action_to_string(p, a)
            state.apply_action(a)
            if words.startswith("discard ") and words != "discard done":
                assert state.view(p)["discarding"], "the card just chosen is being discarded"
            checked += 1
    assert checked > 100

    seen = []

    def first_legal(view):
        seen.append(view.view())
        return view.legal_actions()[0]

    agents = [("first", first_legal)] + ["rule"] * (players - 1)
    tresillo.tournament(agents, deals=3, out=tmp_path / "run", rules=rules, threads=1)
    assert seen
    for v in seen:
        validator.validate(protocol_part(v))
        assert {"seat", "rules", "players", "request"} <= set(v)
