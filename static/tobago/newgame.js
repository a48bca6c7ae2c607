// Tobago's new-game page: the page every game has (common/newgame.js: seats, rule options, the
// turn clock, the seed, the share links) and the island, with a live preview. The previewed
// landmarks are sent as the option `landmarks_seed`, so the deal stays the server's secret; a
// game seed typed by the host (to play a known deal again) is sent as the seed, and every seat is
// told the host chose it.

import { api } from "../common/api.js";
import { $, h } from "../common/dom.js";
import { HexBoard } from "../common/hexboard.js";
import { t } from "../common/i18n.js";
import { newGamePage, typedSeed } from "../common/newgame.js";
import { errorText } from "../common/errors.js";

const form = $("new-game");
let landmarksSeed = randomSeed();
let previewToken = 0;

function randomSeed() { return Math.floor(Math.random() * 2 ** 31); }

function islandChoice() {
  const v = form.querySelector('input[name="island"]:checked').value;
  if (v === "generated") return `generated-${Number($("island-seed").value) || 0}`;
  return v;
}

/** The landmarks' seed: the typed game seed's (the option's default, -1), else the preview's. */
function landmarksFor() {
  const typed = typedSeed();
  return typed !== null && typed !== undefined ? typed : landmarksSeed;
}

function specFor(island) {
  const m = /^generated-(\d+)$/.exec(island);
  return m ? { generated: Number(m[1]), landmarks_seed: landmarksFor() } : { name: island, landmarks_seed: landmarksFor() };
}

async function preview() {
  const mine = ++previewToken;
  const island = islandChoice();
  $("generated-tools").hidden = !island.startsWith("generated");
  const box = $("island-preview");
  box.setAttribute("aria-busy", "true");
  try {
    const solved = await api("POST", "/api/tobago/solve", { island: specFor(island), maps: [] });
    if (mine !== previewToken) return;
    const b = new HexBoard(box, solved.island.spaces, solved.island.landmarks, { size: 16, title: t("new.preview_title", { name: island }) });
    b.svg.querySelectorAll("polygon.hex").forEach((p) => p.removeAttribute("tabindex"));
    $("island-facts").textContent = t("new.island_facts", { n: solved.island.spaces.length });
  } catch (e) {
    if (mine === previewToken) box.replaceChildren(h("p", { class: "error" }, errorText(e, {}, { detail: true })));
  } finally {
    box.removeAttribute("aria-busy");
  }
}

newGamePage({
  // the island; without a typed seed, the landmarks as previewed (the deal is dealt)
  options: (options, seed) => ({ island: islandChoice(), ...options, ...(seed === null ? { landmarks_seed: landmarksSeed } : {}) }),
});
form.querySelectorAll('input[name="island"]').forEach((r) => r.addEventListener("change", preview));
$("island-seed").addEventListener("change", preview);
$("another-island").addEventListener("click", () => { $("island-seed").value = Math.floor(Math.random() * 100000); preview(); });
$("new-landmarks").addEventListener("click", () => { landmarksSeed = randomSeed(); $("game-seed").value = ""; preview(); });
$("game-seed").addEventListener("change", preview);
preview();
