// A game's new-game page (templates/new_game.html), run from its descriptor's data: the seats,
// the rule options its fields ask for, the seed, then the game (common/newgame.js).

import { newGamePage } from "./newgame.js";

newGamePage();
