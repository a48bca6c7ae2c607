"""The game service: ``GameSessions`` (``web.service.sessions``) drives the engines
(``games.base``) over a store (``web.storage``) for any game kind; with it the moves applied to a
live state and the bots' moves (``moves``), the table that moves a game when no player does
(``table``), the process's live states (``states``) and the replay that refuses a game stored
under earlier rules (``replay``), the deadlines of timed phases (``deadlines``), and who may act
for a seat or take a free one (``seats``). The Flask views (``web.games_api``, ``web.streams``,
``web.review``) call it; the stores know nothing of it."""
