// Submit the field's form when pressing Enter in a search box changed nothing.
(el) => el.form && el.form.requestSubmit()
