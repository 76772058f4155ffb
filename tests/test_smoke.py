async def test_page_loads(page, site_url):
    await page.goto(site_url + "/index.html")
    assert await page.inner_text("h1") == "Wayfinder test site"


async def test_shell_pages_reach_the_browser_complete(page, site_url):
    """A page written for the shared shell is served as a whole document (head, header, main, its scripts)."""
    import urllib.request

    from tests.site_routes import SITE_DIR

    assert not (SITE_DIR / "login.html").read_text(encoding="utf-8").startswith("<!doctype")
    with urllib.request.urlopen(site_url + "/login.html?from=test") as response:  # noqa: S310 - loopback
        served = response.read().decode("utf-8")
    assert served.startswith("<!doctype html>\n") and served.endswith("</body>\n</html>\n")
    await page.goto(site_url + "/login.html")
    assert await page.title() == "Sign in - Test site"
    assert await page.inner_text("header.site strong") == "Account"
    assert await page.inner_text("main h1") == "Sign in"
