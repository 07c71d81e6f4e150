"""What Discord refuses when a bot registers its commands, localisations included."""

from __future__ import annotations

from typing import Any

from fakediscord.core.command_rules import command_errors


def command(**extra: Any) -> dict[str, Any]:
    return {"name": "rummy", "description": "Play", "type": 1, "options": [
        {"type": 1, "name": "start", "description": "Open a lobby", "options": [
            {"type": 3, "name": "ace", "description": "Aces", "choices": [
                {"name": "Low", "value": "low"}]}]}], **extra}


def test_a_well_formed_localised_command_passes() -> None:
    body = command(name_localizations={"de": "rommé", "pl": "remik"},
                   description_localizations={"fr": "Jouer"})
    assert command_errors(body) == {}


def test_localisations_must_be_discord_locales_and_names_one_lower_case_word() -> None:
    assert "name_localizations.german" in command_errors(command(
        name_localizations={"german": "rommé"}))
    assert "name" in command_errors(command(name_localizations={"de": "Rommé"}))
    assert "name" in command_errors(command(name_localizations={"de": "rommé spiel"}))
    long = command(description_localizations={"de": "x" * 101})
    assert "description_localizations.de" in command_errors(long)


def test_two_options_may_not_share_a_name_in_any_language() -> None:
    body = command()
    body["options"][0]["options"].append(
        {"type": 3, "name": "go_out", "description": "Going out",
         "name_localizations": {"de": "ass"}})
    body["options"][0]["options"][0]["name_localizations"] = {"de": "ass"}
    assert command_errors(body) == {"options.0.options": command_errors(body)[
        "options.0.options"]}


def test_a_command_holds_at_most_8000_characters_in_each_language() -> None:
    body = command()
    choices = body["options"][0]["options"][0]["choices"]
    choices.extend({"name": f"c{i}", "value": f"v{i}",
                    "name_localizations": {"de": "y" * 90}} for i in range(24))
    body["options"][0]["options"].extend(
        {"type": 3, "name": f"o{i}", "description": "d" * 100,
         "description_localizations": {"de": "e" * 100}} for i in range(20))
    assert command_errors(body) == {}  # English: well under
    for option in body["options"][0]["options"][1:]:
        option["choices"] = [{"name": "n", "value": "v", "name_localizations": {"de": "z" * 100}}
                             for _ in range(4)]
    assert "" in command_errors(body)
