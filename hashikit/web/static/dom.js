// hashikit web: the page's elements by id, and the board's SVG element the game and the
// constructor draw on.  The one place the other modules find the document's elements.
"use strict";

export const $ = (id) => document.getElementById(id);
export const board = $("board");
