// Values of the selected options of a <select>, to verify select_option.
(el) => [...el.selectedOptions].map((o) => o.value)
