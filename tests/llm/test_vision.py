"""Vision that degrades gracefully: marks only where a person sees the element, labels that do not cover each
other, screenshots scaled to the configured long side with their detail and tokens, YAML booleans, and a server
that refuses images turning vision off for the run (one trace note) while the run goes on as it would without.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from PIL import Image

from agent.config import load_context
from agent.context import Context
from agent.dom.observe import _BADGE_JS, badge_items, observe_page
from agent.llm.images import has_images, image_tokens, screenshot_image
from agent.nodes.observe import wants_screenshot
from tests.llm.fake_openai import http_error
from tests.llm.test_graph_runs import LOGIN, LOGIN_STEPS, Model, complete, drive, ended, plan, trace  # noqa: F401

DIALOG_PAGE = """
<html><body style="margin:0;font:16px sans-serif">
<button id="under" style="position:absolute;left:300px;top:200px;width:120px;height:40px">Behind</button>
<button style="position:absolute;left:20px;top:20px">Menu</button>
<div style="position:fixed;left:0;top:60px;right:0;bottom:0;background:rgba(0,0,0,.5)">
  <div role="dialog" aria-modal="true" style="position:absolute;left:250px;top:100px;width:400px;padding:20px;
       background:#fff">Accept the terms?
    <button>Accept</button> <button>Decline</button></div></div>
</body></html>
"""


async def test_marks_only_what_a_person_sees_and_labels_do_not_overlap(page):
    await page.set_content(DIALOG_PAGE)
    obs = await observe_page(page)
    names = {e["id"]: e.get("name") for e in obs["elements"]}
    marked = {names[item["id"]] for item in badge_items(obs)}
    assert {"Accept", "Decline", "Menu"} <= marked
    assert "Behind" not in marked  # covered by the dialog's backdrop: no mark drawn over the dialog

    # four boxes sharing one corner, and one at the top edge: every label finds its own spot in the viewport
    items = [
        {"id": 7, "x": 100, "y": 100, "w": 30, "h": 20},
        {"id": 8, "x": 100, "y": 100, "w": 30, "h": 20},
        {"id": 9, "x": 70, "y": 80, "w": 30, "h": 20},
        {"id": 123, "x": 100, "y": 120, "w": 30, "h": 20},
        {"id": 10, "x": 0, "y": 0, "w": 1280, "h": 30},
    ]
    labels = await page.evaluate(_BADGE_JS, items)
    assert [label["id"] for label in labels] == [7, 8, 9, 123, 10]
    for i, a in enumerate(labels):
        assert a["x"] >= 0 and a["y"] >= 0
        for b in labels[i + 1 :]:
            apart = a["x"] + a["w"] <= b["x"] or b["x"] + b["w"] <= a["x"]
            assert apart or a["y"] + a["h"] <= b["y"] or b["y"] + b["h"] <= a["y"], (a, b)


def _png(path: Path, size: tuple[int, int]) -> Path:
    Image.new("RGB", size, (200, 30, 30)).save(path)
    return path


def test_screenshots_are_scaled_to_the_long_side_with_their_detail_and_tokens(tmp_path):
    big = _png(tmp_path / "big.png", (1280, 900))
    image = screenshot_image(big)
    assert (image.width, image.height) == (1024, 720)  # the default long side
    assert image.part["image_url"]["detail"] == "auto" and image.tokens == image_tokens(1024, 720) == 765
    low = screenshot_image(big, long_side=512, detail="low")
    assert (low.width, low.height) == (512, 360) and low.tokens == 85
    assert low.part["image_url"]["detail"] == "low"
    small = screenshot_image(_png(tmp_path / "small.png", (300, 200)), long_side=1024)
    assert (small.width, small.height) == (300, 200)  # never scaled up
    assert screenshot_image(tmp_path / "missing.png") is None
    (tmp_path / "not.png").write_bytes(b"not an image")
    assert screenshot_image(tmp_path / "not.png") is None


@pytest.mark.parametrize(("written", "meant"), [("on", "on"), ("off", "off"), ("true", "on"), ("no", "off")])
def test_yaml_booleans_are_vision_settings(tmp_path, written, meant):
    config = tmp_path / "wayfinder.yaml"
    config.write_text(f"vision: {written}\nvision_image_size: 768\nvision_detail: low\n", encoding="utf-8")
    ctx = load_context(config_file=config, env={})
    assert (ctx.vision, ctx.vision_image_size, ctx.vision_detail) == (meant, 768, "low")


def test_auto_takes_its_screenshot_whatever_the_screenshot_setting():
    model = {"planner": "openai", "model": "m", "base_url": "http://127.0.0.1:9/v1"}
    for mode in ("never", "on_demand"):
        assert wants_screenshot({}, Context(**model, vision="auto", screenshot_mode=mode))
        assert wants_screenshot({}, Context(**model, vision="on", screenshot_mode=mode))
        assert not wants_screenshot({}, Context(**model, vision="off", screenshot_mode=mode))
        assert not wants_screenshot({}, Context(vision="auto", screenshot_mode=mode))  # no model, no picture


class TextOnlyServer:
    """A model server that does not take images: HTTP 400 on any request with an image part."""

    def __init__(self, model: Model) -> None:
        self.model = model
        self.refused = 0

    def __call__(self, body: dict[str, Any]) -> Any:
        if any(isinstance(m.get("content"), list) and "image_url" in json.dumps(m) for m in body["messages"]):
            self.refused += 1
            return http_error(400, "image input is not supported by this model")
        return self.model(body)


def _login_model() -> Model:
    return Model([plan(*LOGIN_STEPS), complete("Logged in: the page says Welcome, alice")])


async def test_a_server_refusing_images_turns_vision_off_and_the_run_ends_as_without_vision(
    drive,  # noqa: F811 - the fixture, requested by name
    fake_openai,
    session,
):
    plain = await drive(LOGIN, _login_model(), "/login.html")
    server = TextOnlyServer(_login_model())
    seeing = await drive(LOGIN, server, "/login.html", vision="on")

    assert ended(seeing) == ended(plain) == ("goal_satisfied", "action_verified"), seeing
    assert seeing["final_answer"] == plain["final_answer"] and seeing["steps"] == plain["steps"]
    assert server.refused == 1  # asked once with the screenshot, never again
    notes = [r["note"] for r in trace(seeing) if "vision off" in (r.get("note") or "")]
    assert len(notes) == 1 and "image input is not supported" in notes[0]
    assert [r["node"] for r in trace(seeing) if "vision off" in (r.get("note") or "")] == ["planner"]
    assert seeing["usage"].get("images", 0) == 0  # no image reached the model


async def test_a_vision_run_counts_its_images(drive, fake_openai):  # noqa: F811
    result = await drive(LOGIN, _login_model(), "/login.html", vision="on", vision_detail="low")
    assert ended(result) == ("goal_satisfied", "action_verified"), result
    sent = [body for body in fake_openai.requests if "image_url" in json.dumps(body["messages"])]
    assert sent and all('"detail": "low"' in json.dumps(body["messages"]) for body in sent)
    assert result["usage"]["images"] == len(sent) and result["usage"]["image_tokens"] == 85 * len(sent)
    assert not has_images([])


async def test_the_judge_looks_at_the_page_text_when_the_server_refuses_its_screenshot(fake_openai, tmp_path):
    from agent.planning.model_judge import judge_claim_with_model
    from tests.judge.test_judge import ACCEPT, EVIDENCE, GOAL, PAGE, PARTS, ctx_for

    shot = _png(tmp_path / "page.png", (64, 48))
    fake_openai.push(http_error(400, "image input is not supported"), ACCEPT)
    verdict = await judge_claim_with_model(
        ctx_for(fake_openai, vision="on"),
        goal=GOAL,
        parts=PARTS,
        evidence=EVIDENCE,
        observations=[{**PAGE, "screenshot_path": str(shot)}],
    )
    assert verdict["status"] == "ok" and verdict["satisfied"], verdict
    first, second = (json.dumps(body["messages"]) for body in fake_openai.requests)
    assert "image_url" in first and "image_url" not in second and "does not accept images" in second
