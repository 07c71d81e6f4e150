"""The OpenAPI validator on its own: what it accepts, and how it names a fault."""

from __future__ import annotations

from fakediscord.core.spec import validate_body

CALLBACK = "/interactions/{interaction_id}/{interaction_token}/callback"
MESSAGES = "/channels/{channel_id}/messages"


def row(*items: dict[str, object]) -> dict[str, object]:
    return {"type": 1, "components": list(items)}


def test_snowflakes_may_be_strings_or_integers() -> None:
    assert validate_body("POST", "/users/@me/channels", {"recipient_id": "123"}) is None
    assert validate_body("POST", "/users/@me/channels", {"recipient_id": 123}) is None
    bad = validate_body("POST", "/users/@me/channels", {"recipient_id": "abc"})
    assert bad is not None and bad.where == "$.recipient_id"


def test_valid_callbacks_pass() -> None:
    button = {"type": 2, "style": 1, "label": "Join", "custom_id": "join"}
    assert validate_body("POST", CALLBACK, {"type": 4, "data": {
        "content": "hi", "flags": 64, "components": [row(button)]}}) is None
    assert validate_body("POST", CALLBACK, {"type": 6}) is None
    assert validate_body("POST", CALLBACK, {"type": 9, "data": {
        "custom_id": "m", "title": "T",
        "components": [{"type": 18, "label": "L", "component": {
            "type": 4, "custom_id": "x", "style": 1}}]}}) is None


def test_error_names_the_branch_of_the_type_that_was_sent() -> None:
    # Without narrowing, jsonschema blames whichever union branch it likes best
    # (here the modal's "custom_id is required").
    bad = validate_body("POST", CALLBACK, {"type": 4, "data": {"content": 5}})
    assert bad is not None
    assert (bad.where, bad.message) == ("$.data.content", "5 is not of type 'string', 'null'")
    select = {"type": 3, "custom_id": "cards", "options": [{"label": "10H"}]}
    bad = validate_body("POST", CALLBACK, {"type": 7, "data": {"components": [row(select)]}})
    assert bad is not None
    assert bad.where == "$.data.components[0].components[0].options[0]"
    assert bad.message == "'value' is a required property"


def test_violation_reads_as_route_and_first_error() -> None:
    bad = validate_body("POST", MESSAGES, {"embeds": [{"title": "t", "fields": [{"name": "a"}]}]})
    assert str(bad) == ("POST /channels/{channel_id}/messages: 'value' is a required property "
                        "(at $.embeds[0].fields[0])")


def test_routes_without_a_body_schema_are_not_checked() -> None:
    assert validate_body("GET", "/users/@me", {"anything": 1}) is None
    assert validate_body("POST", "/not/in/the/spec", {"x": 1}) is None
