import pytest

from presentation.actions import ACTIONS, DRAW, JOIN, REFRESH, ComponentId


def test_round_trip_with_and_without_argument() -> None:
    assert ComponentId.parse(JOIN.id(123)) == ComponentId(JOIN, 123, None)
    assert ComponentId.parse(DRAW.id(9, 4)) == ComponentId(DRAW, 9, "4")


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
    ],
)
def test_malformed_ids_are_rejected(custom_id: str) -> None:
    assert ComponentId.parse(custom_id) is None


def test_longest_id_fits_discord_limit() -> None:
    assert len(REFRESH.id(10**20 - 1, "x" * 40)) <= 100


def test_every_action_has_its_own_name() -> None:
    assert all(name == action.name for name, action in ACTIONS.items())
    assert len({action.name for action in ACTIONS.values()}) == len(ACTIONS)

