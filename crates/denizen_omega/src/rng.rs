//! Omega's random helper: `R(k)` over 10,000 equally likely buckets, its exact weights,
//! and the draw that only consumes its words.
//!
//! Rules draw raw `u32` words from the generator and turn them into values here, so a
//! seed's results depend only on the ChaCha8 stream (fixed by its specification), never on
//! the distribution code of a `rand` release.

use rand::Rng;

/// Number of buckets in Omega's random helper: a draw is reduced to `b` in `0..BUCKETS`.
pub const BUCKETS: u32 = 10_000;

/// Largest multiple of [`BUCKETS`] that fits in a `u32`; words at or above it are redrawn
/// so that every bucket is exactly equally likely.
const BUCKET_ZONE: u32 = (u32::MAX / BUCKETS) * BUCKETS;

/// Consumes the words of one bucket draw without computing it (a draw whose value
/// changes nothing still advances the stream exactly as [`range`] would).
#[inline]
pub fn skip_bucket<R: Rng + ?Sized>(rng: &mut R) {
    zone_word(rng);
}

/// A raw word below [`BUCKET_ZONE`]: its remainder by 10,000 is an exactly uniform bucket.
#[inline]
fn zone_word<R: Rng + ?Sized>(rng: &mut R) -> u32 {
    loop {
        let word = rng.next_u32();
        if word < BUCKET_ZONE {
            return word;
        }
    }
}

/// Omega's `random_range`: `R(k) = floor(b * k / 10000)` with `b` uniform on `0..10000`,
/// and `R(0) = 0`. The result lies in `0..k`; it is exactly uniform only when `k` divides
/// 10,000 (so `R(3)` gives 0, 1, 2 with 3334, 3333 and 3333 buckets).
#[inline]
pub fn range<R: Rng + ?Sized>(rng: &mut R, k: u32) -> u32 {
    if k == 0 {
        return 0;
    }
    value_of_word(zone_word(rng), k)
}

/// `bucket_value(word % 10000, k)` without the dependent chain of the remainder: with
/// `word = 10000 q + b`, `floor(word k / 10000) = q k + floor(b k / 10000)`, and both
/// products can be formed side by side. Same value, shorter latency per draw.
#[inline]
fn value_of_word(word: u32, k: u32) -> u32 {
    let (word, k) = (u64::from(word), u64::from(k));
    let buckets = u64::from(BUCKETS);
    (word * k / buckets - word / buckets * k) as u32
}

/// The value `R(k)` returns for bucket `b` (with `k > 0`).
#[inline]
pub fn bucket_value(b: u32, k: u32) -> u32 {
    (u64::from(b) * u64::from(k) / u64::from(BUCKETS)) as u32
}

/// How many of the 10,000 buckets make `R(k)` return `v`: the exact weight of `v`.
///
/// `R(0)` returns 0 from every bucket. Values outside `0..k` have weight 0.
pub fn bucket_weight(v: u32, k: u32) -> u32 {
    if k == 0 {
        return if v == 0 { BUCKETS } else { 0 };
    }
    if v >= k {
        return 0;
    }
    buckets_below(v + 1, k) - buckets_below(v, k)
}

/// Every value `R(k)` can return, in increasing order, with its bucket weight. At most
/// 10,000 values: past `k = 10000` some values have no bucket and are left out.
pub fn outcomes(k: u32) -> impl Iterator<Item = (u32, u32)> {
    let dense = k <= BUCKETS;
    let count = if dense { k.max(1) } else { BUCKETS };
    (0..count).map(move |i| {
        if dense {
            (i, bucket_weight(i, k))
        } else {
            (bucket_value(i, k), 1)
        }
    })
}

/// How many of the 10,000 buckets make `R(k)` return a value below `v`: the weight of
/// `v0..v1` is `buckets_below(v1, k) - buckets_below(v0, k)`, in constant time.
pub fn buckets_below(v: u32, k: u32) -> u32 {
    if k == 0 {
        return if v == 0 { 0 } else { BUCKETS };
    }
    // b maps below v exactly when b * k < v * 10000, i.e. b < ceil(v * 10000 / k).
    let first = (u64::from(v.min(k)) * u64::from(BUCKETS)).div_ceil(u64::from(k));
    first as u32
}

#[cfg(test)]
mod tests {
    use super::*;
    use denizen_core::rng::{StreamPurpose, WorldSeed};

    #[test]
    fn bucket_weights_match_the_spec_examples() {
        assert_eq!(
            (0..3).map(|v| bucket_weight(v, 3)).collect::<Vec<_>>(),
            [3334, 3333, 3333]
        );
        let r12: Vec<u32> = (0..12).map(|v| bucket_weight(v, 12)).collect();
        assert_eq!(
            r12,
            [834, 833, 833, 834, 833, 833, 834, 833, 833, 834, 833, 833]
        );
        let r15: Vec<u32> = (0..15).map(|v| bucket_weight(v, 15)).collect();
        assert_eq!(&r15[..3], &[667, 667, 666]);
        let r132: Vec<u32> = (0..132).map(|v| bucket_weight(v, 132)).collect();
        assert!(r132.iter().all(|&w| w == 75 || w == 76));
        assert_eq!(bucket_weight(0, 0), 10_000);
        assert_eq!(bucket_weight(1, 0), 0);
    }

    #[test]
    fn buckets_below_sum_the_weights() {
        for k in [0, 1, 3, 7, 12, 132, 9_999, 10_000, 10_001, 20_001, u32::MAX] {
            let mut below = 0;
            for v in 0..40 {
                assert_eq!(buckets_below(v, k), below, "k = {k}, v = {v}");
                below += bucket_weight(v, k);
            }
            assert_eq!(buckets_below(k.saturating_add(5), k), BUCKETS, "k = {k}");
            if k > 0 {
                let last = bucket_weight(k - 1, k);
                assert_eq!(buckets_below(k - 1, k), BUCKETS - last, "k = {k}");
            }
        }
        // R(20001) never reaches 20000: the class drawn by it alone has no bucket.
        assert_eq!(
            buckets_below(20_001, 20_001) - buckets_below(20_000, 20_001),
            0
        );
    }

    #[test]
    fn outcomes_list_every_reachable_value_once() {
        for k in [0, 1, 3, 12, 10_000, 10_001, 20_000, u32::MAX] {
            let listed: Vec<(u32, u32)> = outcomes(k).collect();
            assert_eq!(
                listed.iter().map(|&(_, w)| w).sum::<u32>(),
                BUCKETS,
                "k = {k}"
            );
            assert!(listed.windows(2).all(|w| w[0].0 < w[1].0), "k = {k}");
            assert!(
                listed
                    .iter()
                    .all(|&(v, w)| bucket_weight(v, k) == w && w > 0)
            );
        }
    }

    #[test]
    fn bucket_weights_count_the_buckets() {
        for k in 1..=400 {
            let mut counted = vec![0u32; k as usize];
            for b in 0..BUCKETS {
                counted[bucket_value(b, k) as usize] += 1;
            }
            let weights: Vec<u32> = (0..k).map(|v| bucket_weight(v, k)).collect();
            assert_eq!(counted, weights, "k = {k}");
        }
    }

    /// A generator that returns the given words in order.
    struct Scripted(std::vec::IntoIter<u32>);

    impl rand::TryRng for Scripted {
        type Error = std::convert::Infallible;

        fn try_next_u32(&mut self) -> Result<u32, Self::Error> {
            Ok(self.0.next().expect("enough scripted words"))
        }

        fn try_next_u64(&mut self) -> Result<u64, Self::Error> {
            Ok(u64::from(self.try_next_u32()?))
        }

        fn try_fill_bytes(&mut self, dst: &mut [u8]) -> Result<(), Self::Error> {
            dst.fill(0);
            Ok(())
        }
    }

    /// Every bucket is exactly equally likely: a word in the short last block of the `u32`
    /// range (from the last whole multiple of 10,000 up) is redrawn, and the next word
    /// decides.
    #[test]
    fn words_past_the_last_whole_block_are_redrawn() {
        let zone = (u32::MAX / BUCKETS) * BUCKETS;
        let draw = |words: Vec<u32>| range(&mut Scripted(words.into_iter()), BUCKETS);
        assert_eq!(
            draw(vec![zone - 1, 5]),
            9_999,
            "the last word of the zone counts"
        );
        assert_eq!(
            draw(vec![zone, 10_007]),
            7,
            "the first word past it is redrawn"
        );
        assert_eq!(draw(vec![u32::MAX, zone, 3]), 3);
        assert_eq!(
            range(&mut Scripted(vec![].into_iter()), 0),
            0,
            "R(0) draws nothing"
        );
    }

    #[test]
    fn the_short_formula_equals_the_bucket_formula() {
        let mut rng = WorldSeed(77).stream(StreamPurpose::new("formula"));
        let mut words: Vec<u32> = (0..2000).map(|_| rng.next_u32() % BUCKET_ZONE).collect();
        words.extend([0, 1, 9_999, 10_000, BUCKET_ZONE - 1, BUCKET_ZONE - 10_000]);
        for k in (1..=300).chain([1_000, 9_999, 10_000]) {
            for &word in &words {
                assert_eq!(
                    value_of_word(word, k),
                    bucket_value(word % BUCKETS, k),
                    "word {word}, k {k}"
                );
            }
        }
    }
}
