// webpack's default entry (./src/index.js): the browser probe.
import "../probe/browser-main.js";
