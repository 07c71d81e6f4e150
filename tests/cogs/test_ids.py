import pytest

from cogs.ids import ComponentId, cid


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

