"""A person's own choices are the same in every process that shares the
database: a change made through one is seen by the others at once, and no
process writes back an older copy of the rest."""

from __future__ import annotations

from db import Database
from game.prefs import PlayerPrefs, Prefs
from tests.cuttable_link import CuttableLink
from tests.postgres_server import PostgresServer
from tests.waiting import until

ANN = 41


async def test_choices_made_through_one_process_hold_in_the_other(
    postgres_server: PostgresServer,
) -> None:
    url = postgres_server.new_database()
    first_db, second_db = await Database.open(url), await Database.open(url)
    first, second = PlayerPrefs(first_db), PlayerPrefs(second_db)
    try:
        await first.load()
        await second.load()
        # Through the first process: no DM of her cards, and German.
        await first.toggle(ANN, "deal_dm")
        await first.choose_language(ANN, "de")
        await until(lambda: second.of(ANN) == Prefs(deal_dm=False, language="de"),
                    "the second process to hear of her choices")
        assert second.language(ANN, "en-US") == "de"
        # Through the second: French. Her DM choice stays off.
        await second.choose_language(ANN, "fr")
        await until(lambda: first.of(ANN).language == "fr", "the first process to hear")
        assert await first_db.player_prefs(ANN) == {"deal_dm": False, "language": "fr"}
        assert first.of(ANN) == second.of(ANN) == Prefs(deal_dm=False, language="fr")
        # A flip flips what is stored, whichever process last knew what.
        await second.toggle(ANN, "deal_dm")
        await until(lambda: first.of(ANN).deal_dm, "the first process to hear of the flip")
    finally:
        await first_db.close()
        await second_db.close()


async def test_a_process_that_missed_changes_reads_them_all_again(
    postgres_server: PostgresServer,
) -> None:
    url = postgres_server.new_database()
    link = await CuttableLink("127.0.0.1", postgres_server.port).start()
    first_db, second_db = await Database.open(url), await Database.open(link.url(url))
    first, second = PlayerPrefs(first_db), PlayerPrefs(second_db)
    try:
        await first.load()
        await second.load()
        await first.choose_language(ANN, "pl")
        await until(lambda: second.of(ANN).language == "pl", "the second process to hear")
        # The second process's link goes silent and the server drops it: the
        # change made meanwhile is told to nobody there.
        link.cut()
        link.drop_server_side()
        await first.toggle(ANN, "four_colour")
        link.heal()
        await until(lambda: second.of(ANN).four_colour, "the second process to read again",
                    limit=20)
        assert second.of(ANN) == Prefs(four_colour=True, language="pl")
    finally:
        link.heal()
        await first_db.close()
        await second_db.close()
        await link.close()
