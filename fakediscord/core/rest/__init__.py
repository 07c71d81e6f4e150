"""Discord's REST API as the stand-in answers it: the routes, each request's
checks, rate limits, the traffic seen and the faults a test may inject.
"""
