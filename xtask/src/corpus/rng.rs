//! A tiny deterministic PRNG (splitmix64): the corpus varies its content without a crate and writes the
//! same bytes on every run and every platform.

/// The seed of every corpus: changing it changes every generated solution.
pub(super) const SEED: u64 = 0x00C0_5B05_2025_0001;

pub(super) struct Rng(u64);

impl Rng {
    /// The generator of one stream, e.g. one project's, so that a project's content does not depend on
    /// how many projects come before it.
    pub(super) fn stream(stream: u64) -> Rng {
        let mut seeder = Rng(SEED ^ stream.wrapping_mul(0xD1B5_4A32_D192_ED03));
        Rng(seeder.next_u64())
    }

    pub(super) fn next_u64(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }

    /// A number in `0..n` (`n > 0`).
    pub(super) fn below(&mut self, n: usize) -> usize {
        (self.next_u64() % n as u64) as usize
    }

    /// True `percent` times in a hundred.
    pub(super) fn chance(&mut self, percent: u64) -> bool {
        self.next_u64() % 100 < percent
    }

    /// One of `items` (not empty).
    pub(super) fn pick<'a, T>(&mut self, items: &'a [T]) -> &'a T {
        &items[self.below(items.len())]
    }
}

/// A deterministic GUID in the registry format Visual Studio writes: `{XXXXXXXX-XXXX-4XXX-8XXX-XXXXXXXXXXXX}`.
pub(super) fn guid(stream: u64) -> String {
    let mut rng = Rng::stream(0x6775_6964 ^ stream);
    let (high, low) = (rng.next_u64(), rng.next_u64());
    let high = (high & 0xFFFF_FFFF_FFFF_0FFF) | 0x4000;
    let low = (low & 0x3FFF_FFFF_FFFF_FFFF) | 0x8000_0000_0000_0000;
    format!(
        "{{{:08X}-{:04X}-{:04X}-{:04X}-{:012X}}}",
        high >> 32,
        (high >> 16) & 0xFFFF,
        high & 0xFFFF,
        low >> 48,
        low & 0xFFFF_FFFF_FFFF
    )
}
