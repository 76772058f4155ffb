// JS fallback of `click`.
(el) => el.click()
