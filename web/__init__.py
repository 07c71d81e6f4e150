"""The bot's web doors: the Activity's table page, its API and its WebSocket.

Thin, as the cogs are: requests in, the flows do the work, views out. No game
rule lives here or in the browser.
"""
