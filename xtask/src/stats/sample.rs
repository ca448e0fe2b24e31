//! A deterministic sample: the items whose hash with the seed is lowest, so that the same seed picks the same
//! items on every machine, whatever order they were listed in, and a larger sample holds a smaller one.

use sha2::{Digest, Sha256};

#[derive(Clone, Copy)]
pub struct Sample {
    seed: Option<u64>,
}

impl Sample {
    pub fn new(seed: u64) -> Self {
        Self { seed: Some(seed) }
    }

    /// Every item, in the order given.
    pub fn all() -> Self {
        Self { seed: None }
    }

    /// At most `n` of `items`, each known by `key`.
    pub fn take<T>(&self, items: Vec<T>, n: usize, key: impl Fn(&T) -> String) -> Vec<T> {
        let Some(seed) = self.seed else { return items.into_iter().take(n).collect() };
        let mut ranked: Vec<([u8; 32], T)> = items
            .into_iter()
            .map(|item| {
                (Sha256::new().chain_update(seed.to_le_bytes()).chain_update(key(&item)).finalize().into(), item)
            })
            .collect();
        ranked.sort_by_key(|(hash, _)| *hash);
        ranked.into_iter().take(n).map(|(_, item)| item).collect()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_same_seed_takes_the_same_items_in_any_order_and_a_larger_sample_holds_a_smaller() {
        let items: Vec<u32> = (0..100).collect();
        let sample = Sample::new(7);
        let mut reversed = items.clone();
        reversed.reverse();
        let key = |n: &u32| n.to_string();
        assert_eq!(sample.take(items.clone(), 10, key), sample.take(reversed, 10, key));
        let small = sample.take(items.clone(), 5, key);
        assert!(small.iter().all(|n| sample.take(items.clone(), 20, key).contains(n)));
        assert_ne!(small, Sample::new(8).take(items.clone(), 5, key), "another seed, another sample");
        assert_eq!(Sample::all().take(items, 3, key), [0, 1, 2]);
    }
}
