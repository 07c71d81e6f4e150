import pytest

from cogs.ids import ComponentId, cid
from cogs.views import BUTTON_TEMPLATE, SELECT_TEMPLATE


def test_round_trip_with_and_without_argument() -> None:
    assert ComponentId.parse(cid("join", 123)) == ComponentId("join", 123, None)
    assert ComponentId.parse(cid("draw", 9, 4)) == ComponentId("draw", 9, "4")


@pytest.mark.parametrize(
    "custom_id",
    [
        "",
        "rummy",
        "rummy:join",
        "rummy:join:abc",
        "chess:join:1",
        "rummy:JOIN:1",
        "rummy:join:1:" + "x" * 41,
        "rummy:join:1:a:b",
    ],
)
def test_malformed_ids_are_rejected(custom_id: str) -> None:
    assert ComponentId.parse(custom_id) is None


def test_longest_id_fits_discord_limit() -> None:
    assert len(cid("refresh", 10**20 - 1, "x" * 40)) <= 100


def test_buttons_and_selects_never_claim_each_others_ids() -> None:
    card_select = cid("cards", 5, 1)
    draw_button = cid("draw", 5, 1)
    assert SELECT_TEMPLATE.fullmatch(card_select) and not BUTTON_TEMPLATE.fullmatch(card_select)
    assert BUTTON_TEMPLATE.fullmatch(draw_button) and not SELECT_TEMPLATE.fullmatch(draw_button)
