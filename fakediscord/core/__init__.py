"""The stand-in itself: Discord's side of the wire, and the people of
Discord's client who act on it. Local play's page, the transcript and running
a bot on the stand-in build on it, outside it.

``server`` (``FakeDiscord``: HTTP and the gateway, ``gateway``) over the
``world`` of ``models`` it keeps; ``rest/`` answers the REST routes and
``traffic`` records both. What a request or a message may hold is checked by
``spec`` (Discord's OpenAPI description, vendored in ``spec/``), ``commands``
and ``command_rules``, ``components``, ``layouts`` and ``emojis``;
``payloads`` shapes Discord's JSON; ``oauth`` keeps the Activity's codes and
tokens and ``history`` how much of the past the world keeps. ``actors`` are
the people ``FakeDiscord.create_user`` makes.
"""
