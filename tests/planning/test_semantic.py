"""Semantic closeness from the embedding model shipped in the wordllama wheel, next to the lexical score: each
catches what the other misses, nothing is downloaded, and a model that cannot load leaves the words in charge."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

from agent.planning.offline.matching import text_of_choice
from agent.planning.offline.navigator import ranked_links, score_link
from agent.planning.offline.questions import analyze
from agent.planning.offline.semantic import closeness, semantic_score
from agent.planning.offline.text import similarity

ROOT = Path(__file__).resolve().parents[2]


def _links(*texts: str) -> dict:
    elements = [
        {
            "id": n,
            "tag": "a",
            "role": "link",
            "name": text,
            "text": text,
            "interactive": True,
            "attrs": {"href": f"http://shop.test/page{n}.html"},
            "bbox": [10, 20 * n, 120, 18],
        }
        for n, text in enumerate(texts, 1)
    ]
    return {"url": "http://shop.test/", "elements": elements, "page_text": "\n".join(texts)}


def test_a_synonym_only_the_embedding_sees_ranks_first():
    """'shipping costs' and 'Delivery charges' share no word: the lexical score is 0 for every link."""
    observation = _links("Returns policy", "Delivery charges", "About us")
    query = analyze("What are the shipping costs?")
    ranked = ranked_links(query, observation, [])
    assert [similarity("shipping costs", e["text"]) for _, e in ranked] == [0.0, 0.0, 0.0]
    assert ranked[0][1]["text"] == "Delivery charges"
    assert ranked[0][0] > ranked[1][0]


def test_a_near_spelling_only_the_words_see_ranks_first():
    """'subscripton' (a typo) is too far from 'Subscriptions' for the embedding; the lexical score finds it."""
    cosine, *_ = closeness("subscripton", ["Subscriptions", "Newsletter", "Billing"]) or [1.0]
    assert semantic_score(cosine) == 0.0
    select = {"id": 1, "tag": "select", "options": ["Billing", "Newsletter", "Subscriptions"]}
    assert text_of_choice(select, "subscripton") == "Subscriptions"


def test_an_option_named_in_other_words_is_chosen_only_when_it_stands_out():
    select = {"id": 1, "tag": "select", "options": ["Canada", "Mexico", "United States"]}
    assert similarity("USA", "United States") < 0.75
    assert text_of_choice(select, "USA") == "United States"
    assert text_of_choice(select, "Portugal") is None


def test_a_link_that_names_the_subject_still_outranks_one_that_means_it():
    observation = _links("Delivery charges", "Shipping costs explained")
    ranked = ranked_links(analyze("What are the shipping costs?"), observation, [])
    assert ranked[0][1]["text"] == "Shipping costs explained"
    lexical = score_link(ranked[0][1], {"shipping": 1.0, "cost": 1.0}, [], [])
    assert ranked[0][0] == lexical


def _python(code: str, env: dict[str, str]) -> dict:
    done = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, timeout=120, env=env, cwd=ROOT
    )
    assert done.returncode == 0, done.stderr
    return json.loads(done.stdout.strip().splitlines()[-1])


_NO_NETWORK = """
import socket
def refuse(*args, **kwargs):
    raise OSError("network access attempted")
socket.socket.connect = refuse
socket.create_connection = refuse
"""


def test_the_model_loads_from_its_wheel_with_no_network_and_no_cache(tmp_path):
    env = {
        **os.environ,
        "PYTHONPATH": str(ROOT),
        "HF_HUB_OFFLINE": "1",
        "HOME": str(tmp_path),
        "XDG_CACHE_HOME": str(tmp_path / "cache"),
        "HF_HOME": str(tmp_path / "hf"),
    }
    out = _python(
        _NO_NETWORK
        + """
import json
from agent.planning.offline.semantic import closeness, load_note
scores = closeness("shipping costs", ["Returns policy", "Delivery charges"])
print(json.dumps({"scores": scores, "note": load_note()}))
""",
        env,
    )
    assert out["note"] == ""
    assert out["scores"][1] > out["scores"][0] + 0.2
    assert not list(tmp_path.rglob("*.safetensors"))  # nothing was fetched into the empty home or caches


def test_a_model_that_cannot_load_leaves_the_words_in_charge_with_one_note(tmp_path):
    env = {**os.environ, "PYTHONPATH": str(ROOT), "HF_HUB_OFFLINE": "1", "HOME": str(tmp_path)}
    out = _python(
        """
import json, sys
sys.modules["wordllama"] = None  # the package cannot be imported
from agent.planning.offline.planner import plan_goal
from agent.planning.offline.navigator import ranked_links
from agent.planning.offline.questions import analyze
links = [{"id": n, "tag": "a", "role": "link", "text": t, "name": t, "attrs": {"href": f"http://x.test/{n}"}}
         for n, t in enumerate(["Delivery charges", "Shipping rates"], 1)]
observation = {"url": "http://x.test/", "elements": links, "page_text": "Delivery charges\\nShipping rates"}
ranked = ranked_links(analyze("What are the shipping costs?"), observation, [])
first = plan_goal({"goal": "click Shipping rates", "observation": observation, "history": []})
second = plan_goal({"goal": "click Shipping rates", "observation": observation, "history": []})
print(json.dumps({"top": ranked[0][1]["text"], "scores": [s for s, _ in ranked],
                  "notes": [first["raw"].get("note", ""), second["raw"].get("note", "")]}))
""",
        env,
    )
    assert out["top"] == "Shipping rates"
    assert out["scores"][1] < 0.1  # 'Delivery charges' keeps its small lexical score, no semantic lift
    assert "semantic matching is off" in out["notes"][0] and out["notes"][1] == ""
