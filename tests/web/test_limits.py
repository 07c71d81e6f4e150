"""The Activity's allowances: a bucket's burst and rate, and one bucket a key,
forgotten once it is full again."""

from __future__ import annotations

from web.limits import Bucket, KeyedBuckets


def test_a_bucket_allows_its_burst_then_says_when_to_come_back() -> None:
    bucket = Bucket(3, 0.5)
    assert [bucket.take() for _ in range(4)] == [True, True, True, False]
    assert 1.0 < bucket.retry_after() <= 2.0
    assert not bucket.full()


def test_each_key_has_its_own_bucket() -> None:
    buckets: KeyedBuckets[str] = KeyedBuckets(2, 0.01)
    assert [buckets.take("a") for _ in range(3)] == [True, True, False]
    assert buckets.take("b")


def test_full_buckets_are_forgotten_and_busy_ones_kept_when_there_are_too_many() -> None:
    buckets: KeyedBuckets[int] = KeyedBuckets(2, 0.01, keep=4)
    buckets.take(1)
    for key in (2, 3, 4):
        buckets.of(key)  # looked at, never used: full
    buckets.take(5)
    assert len(buckets) == 2  # the three full ones went; 1 and 5 are still spending
    assert not buckets.of(1).full()


def test_a_charge_goes_into_debt_and_the_debt_is_waited_off() -> None:
    bucket = Bucket(2, 0.5)
    for _ in range(6):  # six things done at once, with two tokens
        bucket.charge()
    assert not bucket.ready() and not bucket.take()
    # Four tokens short, and one more to take: ten seconds at half a token a second.
    assert 9.0 < bucket.retry_after() <= 10.0


def test_a_key_that_was_never_charged_is_ready_and_keeps_no_bucket() -> None:
    buckets: KeyedBuckets[str] = KeyedBuckets(2, 0.01)
    assert buckets.ready("a") and buckets.retry_after("a") == 0.0
    assert len(buckets) == 0
    buckets.charge("a")
    assert buckets.ready("a")
    buckets.charge("a")
    assert not buckets.ready("a") and buckets.retry_after("a") > 0
    assert buckets.ready("b")
