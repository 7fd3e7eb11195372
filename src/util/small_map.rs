//! A map kept as a vector of pairs, for the client's few small tables (requests in flight,
//! progress tokens, known tools, cached lists, DPoP nonces). Linear lookups are as fast as hashing
//! at these sizes, and one generic vector replaces a hash table, its hasher and their
//! per-type copies in the wasm module (~30 KB before gzip).

use std::borrow::Borrow;

/// Pairs in insertion order; at most one per key.
#[derive(Debug, Clone)]
pub struct SmallMap<K, V> {
    pairs: Vec<(K, V)>,
}

impl<K, V> Default for SmallMap<K, V> {
    fn default() -> Self {
        Self { pairs: Vec::new() }
    }
}

impl<K: PartialEq, V> SmallMap<K, V> {
    /// An empty map.
    pub fn new() -> Self {
        Self::default()
    }

    fn position<Q: PartialEq + ?Sized>(&self, key: &Q) -> Option<usize>
    where
        K: Borrow<Q>,
    {
        self.pairs.iter().position(|(k, _)| k.borrow() == key)
    }

    /// The value for `key`.
    pub fn get<Q: PartialEq + ?Sized>(&self, key: &Q) -> Option<&V>
    where
        K: Borrow<Q>,
    {
        self.position(key).map(|i| &self.pairs[i].1)
    }

    /// The value for `key`, to change.
    pub fn get_mut<Q: PartialEq + ?Sized>(&mut self, key: &Q) -> Option<&mut V>
    where
        K: Borrow<Q>,
    {
        self.position(key).map(|i| &mut self.pairs[i].1)
    }

    /// Whether `key` has a value.
    pub fn contains_key<Q: PartialEq + ?Sized>(&self, key: &Q) -> bool
    where
        K: Borrow<Q>,
    {
        self.position(key).is_some()
    }

    /// Sets `key` to `value`, returning the value it replaces.
    pub fn insert(&mut self, key: K, value: V) -> Option<V> {
        match self.position(&key) {
            Some(i) => Some(std::mem::replace(&mut self.pairs[i].1, value)),
            None => {
                self.pairs.push((key, value));
                None
            }
        }
    }

    /// Takes `key`'s value out.
    pub fn remove<Q: PartialEq + ?Sized>(&mut self, key: &Q) -> Option<V>
    where
        K: Borrow<Q>,
    {
        self.position(key).map(|i| self.pairs.swap_remove(i).1)
    }

    /// Keeps the pairs for which `keep` says yes.
    pub fn retain(&mut self, mut keep: impl FnMut(&K, &mut V) -> bool) {
        self.pairs.retain_mut(|(k, v)| keep(k, v));
    }

    /// The pairs.
    pub fn iter(&self) -> impl Iterator<Item = (&K, &V)> {
        self.pairs.iter().map(|(k, v)| (k, v))
    }

    /// The values.
    pub fn values(&self) -> impl Iterator<Item = &V> {
        self.pairs.iter().map(|(_, v)| v)
    }

    /// Takes every pair out.
    pub fn drain(&mut self) -> impl Iterator<Item = (K, V)> + '_ {
        self.pairs.drain(..)
    }

    /// How many pairs.
    pub fn len(&self) -> usize {
        self.pairs.len()
    }

    /// Whether there are none.
    pub fn is_empty(&self) -> bool {
        self.pairs.is_empty()
    }

    /// Removes every pair.
    pub fn clear(&mut self) {
        self.pairs.clear();
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn behaves_as_a_map() {
        let mut m: SmallMap<String, u32> = SmallMap::new();
        assert!(m.is_empty());
        assert_eq!(m.insert("a".into(), 1), None);
        assert_eq!(m.insert("b".into(), 2), None);
        assert_eq!(m.insert("a".into(), 3), Some(1));
        assert_eq!(m.len(), 2);
        assert_eq!(m.get("a"), Some(&3));
        *m.get_mut("b").unwrap() += 10;
        assert_eq!(m.get("b"), Some(&12));
        assert!(m.contains_key("b") && !m.contains_key("c"));
        m.retain(|k, _| k != "a");
        assert_eq!(m.iter().collect::<Vec<_>>(), vec![(&"b".to_string(), &12)]);
        assert_eq!(m.remove("b"), Some(12));
        assert_eq!(m.remove("b"), None);
        m.insert("c".into(), 4);
        assert_eq!(m.drain().collect::<Vec<_>>(), vec![("c".to_string(), 4)]);
        m.insert("d".into(), 5);
        m.clear();
        assert!(m.is_empty());
    }
}
