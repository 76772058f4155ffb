async def test_page_loads(page, site_url):
    await page.goto(site_url + "/index.html")
    assert await page.inner_text("h1") == "Wayfinder test site"
