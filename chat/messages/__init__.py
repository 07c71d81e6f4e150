"""What the chat posts, as Discord's components: the table, the lobby, each
player's hand, the host's panel, history, ratings and scores. Pure functions
of a table or a record; never a change to either."""
