import pytest

from presentation.actions import (
    ACTIONS,
    DRAW,
    JOIN,
    LEADERBOARD_PAGE,
    REFRESH,
    ComponentId,
    table_scope,
)


def test_round_trip_with_and_without_argument() -> None:
    assert ComponentId.parse(JOIN.id(table_scope(123, "ab12"))) == ComponentId(
        JOIN, 123, None, "ab12"
    )
    draw = DRAW.id(table_scope(9, "0f"), 4)
    assert draw == "rummy:draw:9-0f:4"
    assert ComponentId.parse(draw) == ComponentId(DRAW, 9, "4", "0f")
    assert str(ComponentId.parse(draw)) == draw
    assert ComponentId.parse(LEADERBOARD_PAGE.id(5, "wins.2")) == ComponentId(
        LEADERBOARD_PAGE, 5, "wins.2", None
    )


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
        "rummy:nosuchaction:1",
        "rummy:draw:1-XYZ:1",
        "rummy:draw:1-:1",
        "rummy:draw:1-" + "a" * 17,
    ],
)
def test_malformed_ids_are_rejected(custom_id: str) -> None:
    assert ComponentId.parse(custom_id) is None


def test_longest_id_fits_discord_limit() -> None:
    assert len(REFRESH.id(table_scope(10**20 - 1, "f" * 16), "x" * 40)) <= 100


def test_every_action_has_its_own_name() -> None:
    assert all(name == action.name for name, action in ACTIONS.items())
    assert len({action.name for action in ACTIONS.values()}) == len(ACTIONS)

