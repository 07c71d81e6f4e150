"""The stand-in itself: Discord's side of the wire, with nothing of local play
or of the tests in it.

``server`` (``FakeDiscord``: HTTP and the gateway, ``gateway``) over the
``world`` of ``models`` it keeps; ``rest/`` answers the REST routes.
What a request or a message may hold is checked by ``spec`` (Discord's
OpenAPI description, vendored in ``spec/``), ``commands`` and
``command_rules``, ``components``, ``layouts`` and ``emojis``; ``payloads``
shapes Discord's JSON; ``oauth`` keeps the Activity's codes and tokens and
``history`` how much of the past the world keeps. ``actors`` are the people
``FakeDiscord.create_user`` makes.
"""
