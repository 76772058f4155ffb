// What a field holds now (value, or text of a contenteditable), to verify typing.
(el) => el.isContentEditable ? el.innerText : (el.value ?? '')
