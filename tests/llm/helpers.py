"""Hand-built observations, requests and model replies for the LLM backend tests."""

from __future__ import annotations

from typing import Any

from agent.planning.base import PlanRequest, TranslateRequest
from agent.types import Observation

ELEMENTS = [
    {
        "id": 1,
        "tag": "input",
        "role": "searchbox",
        "name": "Search products",
        "placeholder": "Search",
        "editable": True,
        "interactive": True,
        "zone": "header",
    },
    {"id": 2, "tag": "button", "role": "button", "name": "Search", "interactive": True, "zone": "header"},
    {"id": 3, "tag": "a", "role": "link", "name": "Sign in", "interactive": True, "zone": "header"},
    {
        "id": 4,
        "tag": "select",
        "role": "combobox",
        "name": "Size",
        "options": ["Small", "Large"],
        "interactive": True,
        "zone": "main",
    },
    {"id": 5, "tag": "button", "role": "button", "name": "Add to cart", "interactive": True, "zone": "main"},
]

OBSERVATION_TEXT = "\n".join(
    [
        '[1] searchbox "Search products" placeholder="Search" (header)',
        '[2] button "Search" (header)',
        '[3] link "Sign in" (header)',
        '[4] combobox "Size" options=[Small, Large] (main)',
        '[5] button "Add to cart" (main)',
    ]
)


def make_observation(**overrides: Any) -> Observation:
    return {  # type: ignore[return-value]
        "url": "http://shop.test/product/42",
        "title": "Farmhouse Pizza - Shop",
        "tabs": [
            {
                "id": "t1",
                "url": "http://shop.test/product/42",
                "title": "Farmhouse Pizza - Shop",
                "active": True,
            }
        ],
        "active_tab_id": "t1",
        "scroll": {"y": 0, "height": 2000, "viewport_height": 900, "above_px": 0, "below_px": 1100},
        "elements": [dict(e) for e in ELEMENTS],
        "kept_ids": [1, 2, 3, 4, 5],
        "omitted": 0,
        "text": OBSERVATION_TEXT,
        "page_text": "Farmhouse Pizza\nPrice: $12.50\nA pizza with farmhouse toppings.",
        "page_type": "detail",
        "screenshot_path": None,
        **overrides,
    }


def plan_request(**overrides: Any) -> PlanRequest:
    return {  # type: ignore[return-value]
        "goal": "What is the price of the Farmhouse pizza?",
        "goal_kind": "object",
        "task_mode": "answer",
        "stage": "locate",
        "observation": make_observation(),
        "history": [],
        "metrics": {"tool_calls": 0, "errors": 0, "error_rate": 0.0, "observations": 1, "elapsed_s": 1.5},
        "allowed_actions": ["click", "type", "scroll", "navigate", "search", "done"],
        "avoid_elements": [],
        "hints": [],
        "completed_steps": [],
        "page_type": "detail",
        "listing_detected": False,
        "start_url": "http://shop.test/",
        **overrides,
    }


def translate_request(**overrides: Any) -> TranslateRequest:
    return {  # type: ignore[return-value]
        "goal": "Add a large Farmhouse pizza to the cart",
        "plan_step": "Click the Add to cart button",
        "observation": make_observation(),
        "allowed_actions": ["click", "type", "select_option", "scroll", "press_key", "navigate", "done"],
        "avoid_elements": [],
        "stage": "locate",
        "history": [],
        **overrides,
    }


def planner_reply(**overrides: Any) -> dict[str, Any]:
    return {
        "userTask": "Find the price of the Farmhouse pizza.",
        "executionHistory": "Nothing done yet.",
        "latestBrowserState": "The product page of the Farmhouse pizza is open.",
        "stepByStepReasoning": "The price is not needed from another page; scroll to confirm details.",
        "proposedActions": ["Scroll down to the price section"],
        "taskComplete": False,
        "finalAnswer": "",
        **overrides,
    }


def executor_reply(**overrides: Any) -> dict[str, Any]:
    return {
        "action": "click",
        "element_id": 5,
        "args": {},
        "status": "success",
        "error_type": "none",
        "message": "Clicked the Add to cart button.",
        "reasoning": "[5] is the only Add to cart button.",
        **overrides,
    }
