"""RulesBackend behind the Backend protocol, driven through whole runs on a simulated site.

The loop mirrors the graph: plan, translate the head step, execute it, mark it completed on success, and
drop the rest of the queue when the URL changes or a step fails.
"""

from __future__ import annotations

import copy
from typing import Any

from agent.planning.base import Backend
from agent.planning.offline import RulesBackend
from agent.types import ALL_ACTIONS, Observation
from tests.planning import pages


class FakeSite:
    """A few pages and what the actions do to them; enough to exercise plan -> translate -> execute."""

    def __init__(self, start: Observation, routes: dict[str, Any]) -> None:
        self.page = copy.deepcopy(start)
        self.routes = routes
        self.typed: dict[int, str] = {}
        self.log: list[tuple[str, Any]] = []

    def execute(self, action: dict[str, Any]) -> tuple[str, str]:
        name, eid, args = action["action"], action.get("element_id"), action.get("args") or {}
        self.log.append((name, eid if eid is not None else args))
        if name == "navigate":
            target = self.routes.get(args["url"])
            if target is None:
                return "failure", "no such page"
            self.page = target(self)
        elif name == "type":
            self.typed[eid] = args["text"]
        elif name == "click":
            handler = self.routes.get(("click", self.page["url"], eid))
            if handler is not None:
                self.page = handler(self)
            else:
                el = next(e for e in self.page["elements"] if e["id"] == eid)
                href = (el.get("attrs") or {}).get("href")
                if href in self.routes:
                    self.page = self.routes[href](self)
        elif name == "scroll":
            handler = self.routes.get(("scroll", self.page["url"]))
            if handler is not None:
                self.page = handler(self)
        return "success", "ok"


async def run(backend: Backend, goal: str, site: FakeSite, max_steps: int = 20) -> dict[str, Any]:
    completed: list[str] = []
    history: list[dict[str, Any]] = []
    for _ in range(max_steps):
        result = await backend.plan(
            {
                "goal": goal,
                "observation": site.page,
                "history": history,
                "completed_steps": completed,
                "allowed_actions": list(ALL_ACTIONS),
            }
        )
        if result.get("task_complete"):
            return {"answer": result.get("final_answer"), "success": result.get("success"), "log": site.log}
        queue = list(result["proposed_actions"])
        while queue:
            step = queue.pop(0)
            grounded = await backend.translate(
                {
                    "goal": goal,
                    "plan_step": step,
                    "observation": site.page,
                    "history": history,
                    "allowed_actions": list(ALL_ACTIONS),
                }
            )
            action = grounded["action"]
            if grounded["status"] != "success" or action is None:
                history.append(
                    {
                        "plan_step": step,
                        "action": "translate",
                        "status": "failure",
                        "error_type": grounded["error_type"],
                        "message": grounded["message"],
                        "url": site.page["url"],
                    }
                )
                break
            if action["action"] == "done":
                return {
                    "answer": action["args"]["answer"],
                    "success": action["args"]["success"],
                    "log": site.log,
                }
            url_before = site.page["url"]
            status, message = site.execute(action)
            history.append(
                {
                    "plan_step": step,
                    "action": action["action"],
                    "element_id": action["element_id"],
                    "status": status,
                    "message": message,
                    "url": site.page["url"],
                }
            )
            if status != "success":
                break
            completed.append(step)
            if site.page["url"] != url_before:
                break
    raise AssertionError(f"no completion within {max_steps} planner calls: {site.log}")


def test_backend_shape():
    backend = RulesBackend()
    assert backend.name == "rules"
    assert isinstance(backend, RulesBackend)
    typed: Backend = backend
    assert typed.name == "rules"


async def test_login_then_read_the_page():
    def submit(site: FakeSite) -> Observation:
        ok = site.typed.get(6) == "alice" and site.typed.get(7) == "s3cret"
        return pages.dashboard_page() if ok else pages.login_page()

    site = FakeSite(
        pages.blank_page(),
        {
            "https://app.test/login": lambda s: pages.login_page(),
            ("click", "https://app.test/login", 9): submit,
        },
    )
    goal = "go to app.test/login, log in as alice with password s3cret, then tell me what the page says"
    outcome = await run(RulesBackend(), goal, site)
    assert outcome["success"] is True
    assert outcome["answer"] == "Welcome back, alice! You have 3 new messages."
    assert site.log == [
        ("navigate", {"url": "https://app.test/login"}),
        ("type", 6),
        ("type", 7),
        ("click", 9),
    ]


async def test_cookie_wall_is_accepted_then_the_goal_goes_on():
    def accepted(site: FakeSite) -> Observation:
        page = copy.deepcopy(site.page)
        page["elements"] = [dict(e, occluded=False) for e in page["elements"] if e.get("zone") != "dialog"]
        return page

    story = pages.Page("https://news.test/story/1", "Story 1")
    story.add("h1", "Story number 1 about things", interactive=False)
    site = FakeSite(
        pages.cookie_wall(),
        {("click", "https://news.test/", 13): accepted, "https://news.test/story/1": lambda s: story.build()},
    )
    outcome = await run(RulesBackend(), "open the first story", site)
    assert outcome["success"] is True
    assert site.log == [("click", 13), ("click", 6)]
    assert site.page["url"] == "https://news.test/story/1"


async def test_question_scans_down_a_lazy_listing_until_the_answer_appears():
    full = pages.shop_listing()
    loaded = {"n": 12}

    def visible() -> Observation:
        """Only the first ``loaded['n']`` cards exist yet (no prices marked, text only)."""
        shown = pages.products()[: loaded["n"]]
        names = {name for name, _ in shown}
        page = copy.deepcopy(full)
        page["elements"] = [e for e in page["elements"] if e.get("zone") != "main" or e.get("text") in names]
        page["page_text"] = "\n".join(f"{name}\n{price}" for name, price in shown)
        page["scroll"] = dict(page["scroll"], below_px=0 if loaded["n"] >= 30 else 1000)
        return page

    def scrolled(_site: FakeSite) -> Observation:
        loaded["n"] = min(30, loaded["n"] + 6)
        return visible()

    site = FakeSite(visible(), {("scroll", "https://shop.test/products"): scrolled})
    outcome = await run(RulesBackend(), "what is the price of the White Sprocket?", site)
    assert outcome == {"answer": "$50.99", "success": True, "log": site.log}
    assert [name for name, _ in site.log] == ["scroll"] * 3


async def test_unknown_goal_ends_at_once_with_insufficient_knowledge():
    result = await RulesBackend().plan({"goal": "please do my taxes", "observation": pages.login_page()})
    assert result["task_complete"] is True and result["success"] is False
    assert result["failure_reason"] == "insufficient_knowledge"
