//! `Map`: a JSON object's members in insertion order, in a plain `Vec`.

use std::fmt;

use super::Value;

/// A JSON object: string keys, insertion order kept, each key once.
///
/// Generic only so `Map<String, Value>` (serde_json's spelling) names it; every method is on
/// `Map<String, Value>`. Lookups are linear: MCP objects are small, and a hostile server's huge
/// object costs time proportional to what it sent times the few keys the client looks up.
#[derive(Clone, PartialEq)]
pub struct Map<K = String, V = Value> {
    entries: Vec<(K, V)>,
}

impl Default for Map<String, Value> {
    fn default() -> Self {
        Map::new()
    }
}

impl fmt::Debug for Map<String, Value> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_map()
            .entries(self.entries.iter().map(|(k, v)| (k, v)))
            .finish()
    }
}

impl Map<String, Value> {
    /// An empty object.
    pub fn new() -> Self {
        Map {
            entries: Vec::new(),
        }
    }

    /// An empty object with room for `n` members.
    pub fn with_capacity(n: usize) -> Self {
        Map {
            entries: Vec::with_capacity(n),
        }
    }

    /// An object from pairs known to have distinct keys (the parser's, after its duplicate pass).
    pub(super) fn from_distinct(entries: Vec<(String, Value)>) -> Self {
        Map { entries }
    }

    fn position(&self, key: &str) -> Option<usize> {
        self.entries.iter().position(|(k, _)| k == key)
    }

    /// Sets `key` to `value`: a new key goes last, an existing one keeps its place; the old value
    /// comes back.
    pub fn insert(&mut self, key: String, value: Value) -> Option<Value> {
        match self.position(&key) {
            Some(i) => Some(std::mem::replace(&mut self.entries[i].1, value)),
            None => {
                self.entries.push((key, value));
                None
            }
        }
    }

    /// The value of `key`.
    pub fn get(&self, key: &str) -> Option<&Value> {
        self.entries.iter().find(|(k, _)| k == key).map(|(_, v)| v)
    }

    /// The value of `key`, mutably.
    pub fn get_mut(&mut self, key: &str) -> Option<&mut Value> {
        self.entries
            .iter_mut()
            .find(|(k, _)| k == key)
            .map(|(_, v)| v)
    }

    /// Whether `key` is there.
    pub fn contains_key(&self, key: &str) -> bool {
        self.position(key).is_some()
    }

    /// Takes `key` out; the other members keep their order.
    pub fn remove(&mut self, key: &str) -> Option<Value> {
        self.position(key).map(|i| self.entries.remove(i).1)
    }

    /// The slot of `key`, to fill if empty.
    pub fn entry(&mut self, key: impl Into<String>) -> Entry<'_> {
        Entry {
            map: self,
            key: key.into(),
        }
    }

    /// How many members.
    pub fn len(&self) -> usize {
        self.entries.len()
    }

    /// Whether there are none.
    pub fn is_empty(&self) -> bool {
        self.entries.is_empty()
    }

    /// The members, in order.
    pub fn iter(&self) -> Iter<'_> {
        Iter(self.entries.iter())
    }

    /// The members, values mutable, in order.
    pub fn iter_mut(&mut self) -> IterMut<'_> {
        IterMut(self.entries.iter_mut())
    }

    /// The keys, in order.
    pub fn keys(&self) -> impl DoubleEndedIterator<Item = &String> + ExactSizeIterator {
        self.entries.iter().map(|(k, _)| k)
    }

    /// The values, in order.
    pub fn values(&self) -> impl DoubleEndedIterator<Item = &Value> + ExactSizeIterator {
        self.entries.iter().map(|(_, v)| v)
    }

    /// Keeps only the members `keep` says yes to, in order.
    pub fn retain(&mut self, mut keep: impl FnMut(&String, &mut Value) -> bool) {
        self.entries.retain_mut(|(k, v)| keep(k, v))
    }
}

/// A key's slot in a `Map` (from `Map::entry`).
#[derive(Debug)]
pub struct Entry<'a> {
    map: &'a mut Map<String, Value>,
    key: String,
}

impl<'a> Entry<'a> {
    /// The value, `default` put there first if the key was missing.
    pub fn or_insert(self, default: Value) -> &'a mut Value {
        self.or_insert_with(|| default)
    }

    /// The value, `make()` put there first if the key was missing.
    pub fn or_insert_with(self, make: impl FnOnce() -> Value) -> &'a mut Value {
        let fill = match self.map.contains_key(&self.key) {
            true => None,
            false => Some(make()),
        };
        self.fill(fill)
    }

    /// The slot's value, `value` pushed first if given (the closure-free part of
    /// `or_insert_with`, so each caller's closure does not copy it into the wasm).
    fn fill(self, value: Option<Value>) -> &'a mut Value {
        let i = match value {
            Some(v) => {
                self.map.entries.push((self.key, v));
                self.map.entries.len() - 1
            }
            // Present (checked by the caller).
            None => self.map.position(&self.key).unwrap_or_default(),
        };
        &mut self.map.entries[i].1
    }
}

/// `Map::iter`'s iterator.
#[derive(Debug)]
pub struct Iter<'a>(std::slice::Iter<'a, (String, Value)>);

impl<'a> Iterator for Iter<'a> {
    type Item = (&'a String, &'a Value);
    fn next(&mut self) -> Option<Self::Item> {
        self.0.next().map(|(k, v)| (k, v))
    }
    fn size_hint(&self) -> (usize, Option<usize>) {
        self.0.size_hint()
    }
}

impl DoubleEndedIterator for Iter<'_> {
    fn next_back(&mut self) -> Option<Self::Item> {
        self.0.next_back().map(|(k, v)| (k, v))
    }
}

impl ExactSizeIterator for Iter<'_> {}

/// `Map::iter_mut`'s iterator.
#[derive(Debug)]
pub struct IterMut<'a>(std::slice::IterMut<'a, (String, Value)>);

impl<'a> Iterator for IterMut<'a> {
    type Item = (&'a String, &'a mut Value);
    fn next(&mut self) -> Option<Self::Item> {
        self.0.next().map(|(k, v)| (&*k, v))
    }
    fn size_hint(&self) -> (usize, Option<usize>) {
        self.0.size_hint()
    }
}

impl<'a> IntoIterator for &'a Map<String, Value> {
    type Item = (&'a String, &'a Value);
    type IntoIter = Iter<'a>;
    fn into_iter(self) -> Iter<'a> {
        self.iter()
    }
}

impl<'a> IntoIterator for &'a mut Map<String, Value> {
    type Item = (&'a String, &'a mut Value);
    type IntoIter = IterMut<'a>;
    fn into_iter(self) -> IterMut<'a> {
        self.iter_mut()
    }
}

impl IntoIterator for Map<String, Value> {
    type Item = (String, Value);
    type IntoIter = std::vec::IntoIter<(String, Value)>;
    fn into_iter(self) -> Self::IntoIter {
        self.entries.into_iter()
    }
}

impl FromIterator<(String, Value)> for Map<String, Value> {
    /// Later duplicates replace earlier values in the earlier place (as `insert`).
    fn from_iter<I: IntoIterator<Item = (String, Value)>>(iter: I) -> Self {
        let mut m = Map::new();
        m.extend(iter);
        m
    }
}

impl Extend<(String, Value)> for Map<String, Value> {
    /// Each pair as `insert`.
    fn extend<I: IntoIterator<Item = (String, Value)>>(&mut self, iter: I) {
        for (k, v) in iter {
            self.insert(k, v);
        }
    }
}

impl std::ops::Index<&str> for Map<String, Value> {
    type Output = Value;
    /// The value of `key`; panics if it is missing (as serde_json's Map does).
    fn index(&self, key: &str) -> &Value {
        self.get(key).expect("no such key in JSON object")
    }
}
