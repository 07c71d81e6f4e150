"""Messages drawn as Discord's app draws them, as HTML: for the photographs
and for local play's page.
"""
