"""A run with the offline planner (the default) never loads the OpenAI SDK or langchain_openai: together they
take about half a second to import, which every `python -m agent run` without a model used to pay."""

from __future__ import annotations

import subprocess
import sys

MODEL_ONLY = ("openai", "langchain_openai")


def test_the_runner_and_graph_load_without_the_model_client():
    probe = (
        "import sys, agent.runner, agent.graph, agent.cli\n"
        f"print(','.join(m for m in {MODEL_ONLY!r} if m in sys.modules))\n"
    )
    out = subprocess.run(
        [sys.executable, "-c", probe], capture_output=True, text=True, timeout=120, check=True
    )
    assert out.stdout.strip() == "", f"loaded at import: {out.stdout.strip()}"


def test_the_model_client_still_loads_when_a_model_is_used():
    from agent.llm.client import make_chat_model

    chat = make_chat_model(
        model="m", base_url="http://127.0.0.1:9/v1", api_key="k", temperature=0, timeout_s=1
    )
    assert type(chat).__name__ == "ChatOpenAI" and "langchain_openai" in sys.modules
