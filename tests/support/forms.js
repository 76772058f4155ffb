/* The test pages' forms, handled in the page instead of sent: onSubmit(formId, handle) calls
   handle(values, form) on submit, with each field's trimmed value keyed by its id. Served at /forms.js to the
   pages of every site tests/site_routes.shell_routes serves. */
function onSubmit(formId, handle) {
  const form = document.getElementById(formId);
  form.addEventListener('submit', (event) => {
    event.preventDefault();
    const values = {};
    for (const field of form.elements) if (field.id) values[field.id] = field.value.trim();
    handle(values, form);
  });
}
