"""Discord output: component ids, rendering, controls, payloads, the public
table's refresher, hand-message edits and DMs. Never a change to a table."""
