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
