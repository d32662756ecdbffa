// The projector shows everything without scrolling, at 1920x1080, 1280x720 or the desk's
// preview (issue 34): the font size of `el` (the body, or the root where sizes are in
// rem) shrinks step by step until nothing lies below or beside the viewport.
window.fitToViewport = function (el) {
  "use strict";
  var page = document.documentElement;
  el.style.fontSize = "";
  var size = parseFloat(getComputedStyle(el).fontSize);
  var floor = size * 0.35;
  while ((page.scrollHeight > window.innerHeight || page.scrollWidth > window.innerWidth)
         && size > floor) {
    size *= 0.92;
    el.style.fontSize = size + "px";
  }
};
