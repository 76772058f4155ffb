// The "wiggle": bring the element to the centre of the viewport.
(el) => {
  el.scrollIntoView({ block: 'center', inline: 'center', behavior: 'instant' });
}
