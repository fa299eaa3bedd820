"""Every message of the bot protocol, in a real exchange over every rule set,
validates against docs/protocol.schema.json; external bots also sit in Python
tournaments."""

import json
import os

import pytest
import tresillo
from conftest import ROOT, need

BOT = os.path.join(ROOT, "crates", "tresillo-bots", "tests", "bots", "recording.py")


@pytest.mark.parametrize(
    "rules,players,options",
    [("tresillo", 3, {}), ("tresillo", 4, {}), ("hombre", 3, {"contrabola": True, "gascarille": True}), ("lhombre", 3, {})],
)
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
