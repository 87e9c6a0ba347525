// A field's message lines (its error, a link's note, the form's error above the inputs): shown
// with their text, or hidden and emptied so a screen reader's aria-describedby reads nothing.
import { replace } from "../shared/dom.mjs";

/** Show a message line (an error or a link's note) with its text. */
export function showLine(line, message) {
  replace(line, message);
  line.hidden = false;
}

/** Hide a message line and empty it. */
export function hideLine(line) {
  line.hidden = true;
  replace(line);
}
