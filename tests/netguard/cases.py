"""Issue 13's network-guard cases and "Done means" lines, and the test that holds each (``module::test``).

The safety, secrets, untrusted-content and budget cases are in :mod:`tests.security.cases`; both lists are
checked by `tests/security/test_suite.py`.
"""

from __future__ import annotations

CASES: dict[str, str] = {
    "redirect from an allowed page to 169.254.169.254": "test_ssrf::test_redirect_from_the_allowed_page_to_metadata_is_refused",
    "redirect hops (page, image, frame) to loopback": "test_ssrf::test_redirect_hops_to_loopback_never_reach_the_listener",
    "each SSRF spelling from a page (2130706433, 0x7f.0.0.1, 0177.0.0.1, 127.1, [::1], user@host)": "test_ssrf::test_page_navigation_to_loopback_never_reaches_the_listener",
    "each SSRF spelling as the navigate action": "test_ssrf::test_navigate_action_to_loopback_is_navigation_blocked",
    "metadata address in every spelling": "test_ssrf::test_metadata_address_in_any_spelling_is_refused",
    "every spelling classified on its resolved address": "test_addresses::test_every_spelling_of_an_address_gets_its_class",
    "subresources (fetch, img, iframe) to loopback": "test_ssrf::test_subresources_to_loopback_never_leave",
    "WebSockets and WebRTC to loopback": "test_ssrf::test_websockets_and_webrtc_to_loopback_open_no_connection",
    "allowlist bypasses (good.com@evil, good.com.evil.test, fragments, backslashes)": "test_bypasses::test_allowlist_bypasses_reach_no_other_host",
    "data:, blob:, javascript:, file: and other schemes": "test_bypasses::test_schemes_other_than_http_are_refused_for_navigation",
    "a page showing a blob:/data: document": "test_bypasses::test_a_page_cannot_show_a_blob_or_data_document_in_the_tab",
    "window.open to a blocked domain": "test_bypasses::test_window_open_to_a_blocked_domain_never_leaves",
    "target=_blank popup to a blocked domain": "test_bypasses::test_a_target_blank_popup_to_a_blocked_domain_never_leaves",
    "cross-origin iframe on a blocked domain, direct and redirected": "test_bypasses::test_a_cross_origin_iframe_on_a_blocked_domain_never_loads",
    "blocked wins over allowed, subdomains included": "test_bypasses::test_blocked_wins_over_allowed_and_covers_subdomains",
    "popup whose first response redirects to loopback": "test_proxy::test_a_popup_whose_first_response_redirects_to_loopback_sends_nothing_there",
    "popup whose first response redirects to metadata": "test_proxy::test_a_popup_whose_first_response_redirects_to_metadata_is_refused",
    "popup whose first response redirects to a blocked domain": "test_proxy::test_a_popup_redirected_to_a_blocked_domain_sends_it_no_request",
    "DNS rebinding: the second answer is loopback": "test_proxy::test_a_name_that_rebinds_to_loopback_is_reached_only_at_the_checked_address",
    "DNS rebinding with no cache at all": "test_proxy::test_a_proxy_that_looks_up_again_connects_to_what_that_lookup_passed_or_refuses",
    "the proxy alone holds every spelling": "test_proxy::test_the_proxy_alone_keeps_every_spelling_of_loopback_and_metadata_from_a_public_page",
    "preconnect, dns-prefetch, prefetch hints to loopback": "test_ssrf::test_preconnect_hints_to_loopback_open_no_connection",
    "prefetch, prerender and speculation rules to a blocked domain": "test_proxy::test_prefetch_and_preconnect_hints_to_a_blocked_domain_send_nothing",
    "observe URL on a metadata address": "test_proxy::test_observe_on_a_metadata_address_is_one_line_exit_2",
    "an attached (cdp_url) browser": "test_proxy::test_an_attached_browser_connects_through_the_proxy_too",
    "download named ../../x": "test_files::test_a_download_named_to_escape_lands_inside_the_run",
    "uploads only from the run or upload_dirs": "test_files::test_a_file_input_takes_a_downloaded_file_and_nothing_from_elsewhere",
    "scripted model obeys a page sending it to loopback": "test_runs::test_a_model_told_by_the_page_to_open_loopback_is_stopped_by_the_guard",
    "a refused navigation is never an answer or a success": "test_runs::test_an_offline_run_sent_to_loopback_ends_navigation_blocked",
    "metadata start URL: exit 1, navigation_blocked": "test_runs::test_run_with_a_metadata_start_url_exits_1_navigation_blocked",
    "start URL that is no web address: exit 2, one line": "test_runs::test_run_with_a_start_url_that_is_no_web_address_exits_2_with_one_line",
    "flags, env and config of the guard": "test_settings::test_flags",
}
