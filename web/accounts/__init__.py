"""Players' accounts: names and passwords (``names``, ``passwords``), signing in and the
credentials a request presents (``credentials``: the session cookie with its CSRF token, a
personal access token), the limits on guessing (``limits``), what an account does
(``service``: sign up, sign in and out, tokens, seats, my games, profiles, leaderboards), a
game's end for its players (``results``) and the ratings (``ratings``). The store's side is
``web.storage.accounts``; the API ``web.accounts_api``, the pages ``web.accounts_pages``.
Playing as a guest, with seat tokens alone, is unchanged."""
