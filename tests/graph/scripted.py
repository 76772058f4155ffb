"""Scripted planning backends for graph tests (they plan; the browser and the graph stay real)."""

from __future__ import annotations

import re


def element_named(observation: dict, name: str) -> int | None:
    for element in observation.get("elements", []):
        if name.lower() in (element.get("name") or "").lower():
            return element["id"]
    return None


class StubbornBackend:
    """Always proposes clicking the same element, however little it achieves (a looping model)."""

    name = "stubborn"

    def __init__(self, target: str):
        self.target = target

    async def plan(self, request):
        return {"proposed_actions": [f'Click "{self.target}"'], "task_complete": False, "usage": {}}

    async def translate(self, request):
        element_id = element_named(request["observation"], self.target)
        if element_id is None:
            return {"action": None, "status": "failure", "error_type": "element_not_found", "message": "gone"}
        return {
            "action": {"action": "click", "element_id": element_id, "args": {}},
            "status": "success",
            "error_type": "none",
            "message": "click",
        }


class RandomBackend:
    """Draws each plan and action from a hypothesis data source: any action, any element, any outcome."""

    name = "random"

    def __init__(self, draw, strategies):
        self.draw = draw
        self.st = strategies

    async def plan(self, request):
        st = self.st
        if self.draw(st.integers(0, 9)) == 0:
            return {
                "task_complete": True,
                "final_answer": self.draw(st.sampled_from(["", "Welcome", "42", "nope"])),
                "success": self.draw(st.booleans()),
                "usage": {},
            }
        empty_allowed = self.draw(st.integers(0, 5)) == 0  # now and then an invalid, empty plan
        steps = self.draw(
            st.lists(
                st.sampled_from(["step a", "step b", "step c"]),
                min_size=0 if empty_allowed else 1,
                max_size=5,
            )
        )
        return {"proposed_actions": steps, "task_complete": False, "usage": {}}

    async def translate(self, request):
        st = self.st
        ids = [e["id"] for e in request["observation"].get("elements", [])] or [1]
        kind = self.draw(
            st.sampled_from(
                [
                    "click",
                    "type",
                    "scroll",
                    "navigate",
                    "press_key",
                    "done",
                    "fail",
                    "bogus",
                    "select_option",
                    "go_back",
                    "wait",
                ]
            )
        )
        element_id = self.draw(st.one_of(st.sampled_from(ids), st.integers(-5, 10_000)))
        if kind == "fail":
            return {
                "action": None,
                "status": "failure",
                "error_type": "element_not_found",
                "message": "not here",
            }
        args = {
            "type": {"text": self.draw(st.text(max_size=8))},
            "scroll": {"direction": self.draw(st.sampled_from(["up", "down"]))},
            "navigate": {
                "url": self.draw(
                    st.sampled_from(
                        ["/login.html", "javascript:x", "file:///etc/passwd", "http://127.0.0.1:9/"]
                    )
                )
            },
            "press_key": {"key": self.draw(st.sampled_from(["Enter", "Escape", "NoSuchKey"]))},
            "done": {"answer": self.draw(st.sampled_from(["Welcome", "", "xyz"]))},
            "select_option": {"option": "Canada"},
            "wait": {"seconds": 0},
        }.get(kind, {})
        if kind == "navigate" and args["url"].startswith("/"):
            args["url"] = re.sub(r"/[^/]*$", "", request["observation"].get("url", "")) + args["url"]
        return {
            "action": {"action": kind, "element_id": element_id, "args": args},
            "status": "success",
            "error_type": "none",
            "message": kind,
        }
