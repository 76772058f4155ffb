"""The named cases of the adversarial suite and the test that holds each (``module::test``).

The network guard's cases (SSRF forms, redirects, schemes, popups, downloads) live with the guard's tests and
are listed by them; these are the cases of the safety rules, secrets, untrusted content and budgets.
"""

from __future__ import annotations

CASES: dict[str, str] = {
    "hidden text telling the agent to go elsewhere": "test_injection::test_hidden_text_sending_the_agent_elsewhere",
    "'this has moved, click here' lure carrying the user's data": "test_injection::test_moved_lure_carrying_the_users_data",
    "fake system message in a review": "test_injection::test_fake_system_message_in_a_review",
    "chat-template delimiter in page text": "test_injection::test_chat_template_delimiter_in_page_text",
    "invisible duplicate email field posting elsewhere": "test_injection::test_invisible_duplicate_field_posting_elsewhere",
    "injection inside a cross-origin iframe": "test_injection::test_injection_inside_a_cross_origin_iframe",
    "secret typed on its domain, masked everywhere": "test_secrets::test_secret_is_typed_on_its_domain_and_masked_everywhere",
    "secret on the wrong domain": "test_secrets::test_secret_requested_on_the_wrong_domain_is_refused",
    "injected URL carrying a secret": "test_secrets::test_injected_url_carrying_a_secret_is_blocked",
    "offline planner's password hidden in the trace": "test_secrets::test_offline_planner_passwords_are_hidden_in_the_trace",
    "confirm('Delete all?') from the page": "test_actions::test_page_confirm_delete_all_is_never_auto_accepted",
    "Buy button: interrupt, resume, clicked once": "test_actions::test_buy_button_pauses_and_after_resume_is_clicked_exactly_once",
    "consent parsed strictly": "test_actions::test_consent_is_parsed_strictly",
    "a denied action replans when set": "test_actions::test_a_denied_action_can_send_the_run_back_to_the_planner",
    "same-click loop ending loop_stuck": "test_actions::test_the_same_click_again_and_again_ends_loop_stuck",
    "multi-step plan whose first step navigates away": "test_actions::test_a_plan_whose_first_step_navigates_away_drops_the_rest",
    "truncated / unknown / empty model action": "test_faults::test_a_broken_executor_reply_is_re_asked_then_ends_cleanly",
    "empty plan from the model": "test_faults::test_an_empty_plan_is_re_asked_then_ends_cleanly",
    "429/503 backoff": "test_faults::test_rate_limits_and_outages_are_retried_after_a_pause",
    "401 not retried": "test_faults::test_a_bad_key_is_not_retried",
    "a page that never loads": "test_faults::test_a_page_that_never_loads_ends_the_run_cleanly",
    "a page-planted secret placeholder outside a password field": "test_secrets::test_a_secret_the_goal_never_named_needs_approval_outside_a_password_field",
    "bad secret entries: one line, the value never shown": "test_settings::test_a_bad_secret_is_one_line_that_never_shows_the_value",
    "publishing words on links are not risky ('Post 57')": "test_rules::test_what_a_click_risks",
    "the goal's words make an action expected, not approved": "test_rules::test_the_goals_words_make_an_action_expected_not_approved",
    "submitting payment details": "test_rules::test_submitting_payment_details",
    "navigation and links the page asked for": "test_rules::test_what_the_page_asked_for",
    "model-call budget": "test_faults::test_the_model_call_budget_is_hard",
    "consecutive-failure budget": "test_faults::test_failures_in_a_row_are_a_hard_budget",
}
