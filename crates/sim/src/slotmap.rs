//! A generational slot map: values under `{ index, generation }` keys. Removing a value bumps
//! its slot's generation, so every copy of the old key goes stale instead of reaching whatever
//! takes the slot next. Generation 0 is never issued, so the all-zero key is null. Flocks,
//! obstacles and the C ABI's worlds all live in one of these.

/// A key type of a [`SlotMap`].
pub trait SlotKey: Copy {
    /// The key for slot `index` at `generation`.
    fn from_parts(index: u32, generation: u32) -> Self;
    /// Slot.
    fn index(self) -> u32;
    /// Generation.
    fn generation(self) -> u32;
}

/// Declares a public `{ index, generation }` key type implementing [`SlotKey`].
#[macro_export]
macro_rules! slot_key {
    ($(#[$meta:meta])* $name:ident) => {
        $(#[$meta])*
        #[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Default)]
        pub struct $name {
            /// Slot.
            pub index: u32,
            /// Generation of that slot when the id was issued (0: never issued).
            pub generation: u32,
        }
        impl $crate::slotmap::SlotKey for $name {
            fn from_parts(index: u32, generation: u32) -> Self {
                $name { index, generation }
            }
            fn index(self) -> u32 {
                self.index
            }
            fn generation(self) -> u32 {
                self.generation
            }
        }
    };
}

struct Slot<T> {
    generation: u32,
    value: Option<T>,
}

/// Values under generational keys of type `K`.
pub struct SlotMap<K, T> {
    slots: Vec<Slot<T>>,
    live: usize,
    _key: std::marker::PhantomData<K>,
}

impl<K, T> Default for SlotMap<K, T> {
    fn default() -> Self {
        SlotMap {
            slots: Vec::new(),
            live: 0,
            _key: std::marker::PhantomData,
        }
    }
}

impl<K: SlotKey, T> SlotMap<K, T> {
    /// Stores `value` in the lowest free slot and returns its key; `None` when all 2³² slots
    /// are taken.
    pub fn insert(&mut self, value: T) -> Option<K> {
        if let Some((i, slot)) = self
            .slots
            .iter_mut()
            .enumerate()
            .find(|(_, s)| s.value.is_none())
        {
            slot.value = Some(value);
            self.live += 1;
            return Some(K::from_parts(i as u32, slot.generation));
        }
        let index = u32::try_from(self.slots.len()).ok()?;
        self.slots.push(Slot {
            generation: 1,
            value: Some(value),
        });
        self.live += 1;
        Some(K::from_parts(index, 1))
    }

    /// The value under `key`, if the key is live.
    pub fn get(&self, key: K) -> Option<&T> {
        let s = self.slots.get(key.index() as usize)?;
        if s.generation == key.generation() {
            s.value.as_ref()
        } else {
            None
        }
    }

    /// The value under `key`, mutably, if the key is live.
    pub fn get_mut(&mut self, key: K) -> Option<&mut T> {
        let s = self.slots.get_mut(key.index() as usize)?;
        if s.generation == key.generation() {
            s.value.as_mut()
        } else {
            None
        }
    }

    /// `true` while `key` names a value.
    pub fn contains(&self, key: K) -> bool {
        self.get(key).is_some()
    }

    /// Takes the value out; its key (and every copy) goes stale.
    pub fn remove(&mut self, key: K) -> Option<T> {
        let s = self.slots.get_mut(key.index() as usize)?;
        if s.generation != key.generation() {
            return None;
        }
        let v = s.value.take()?;
        // Generation 0 means null; skip it on wrap-around.
        s.generation = s.generation.wrapping_add(1).max(1);
        self.live -= 1;
        Some(v)
    }

    /// Number of live values.
    pub fn len(&self) -> usize {
        self.live
    }

    /// `true` when no value is live.
    pub fn is_empty(&self) -> bool {
        self.live == 0
    }

    /// Number of slots, live or free (slot indices are below this).
    pub fn slot_count(&self) -> usize {
        self.slots.len()
    }

    /// The value in slot `index`, whatever its generation.
    pub fn in_slot(&self, index: usize) -> Option<&T> {
        self.slots.get(index)?.value.as_ref()
    }

    /// Every slot in order, free or live, with its generation (what a save file keeps, so
    /// that keys issued before a save stay valid after a load and new keys come out the same).
    pub fn slots(&self) -> impl Iterator<Item = (u32, Option<&T>)> + '_ {
        self.slots.iter().map(|s| (s.generation, s.value.as_ref()))
    }

    /// The map with exactly these slots (generation, value), as [`SlotMap::slots`] lists them;
    /// `None` if a generation is 0 (never issued) or there are more than 2³² slots.
    pub fn from_slots(slots: Vec<(u32, Option<T>)>) -> Option<Self> {
        if u32::try_from(slots.len()).is_err() || slots.iter().any(|s| s.0 == 0) {
            return None;
        }
        let live = slots.iter().filter(|s| s.1.is_some()).count();
        Some(SlotMap {
            slots: slots
                .into_iter()
                .map(|(generation, value)| Slot { generation, value })
                .collect(),
            live,
            _key: std::marker::PhantomData,
        })
    }

    /// Live keys and values, in slot order.
    pub fn iter(&self) -> impl Iterator<Item = (K, &T)> + '_ {
        self.slots.iter().enumerate().filter_map(|(i, s)| {
            s.value
                .as_ref()
                .map(|v| (K::from_parts(i as u32, s.generation), v))
        })
    }

    /// Live keys and values, mutably, in slot order.
    pub fn iter_mut(&mut self) -> impl Iterator<Item = (K, &mut T)> + '_ {
        self.slots.iter_mut().enumerate().filter_map(|(i, s)| {
            let g = s.generation;
            s.value.as_mut().map(|v| (K::from_parts(i as u32, g), v))
        })
    }

    /// Makes `out` this map's twin: the same slots and generations, each live value made by
    /// `f` from this map's (so a key of one is a key of the other). Reuses `out`'s slots.
    pub fn twin_into<U>(&mut self, out: &mut SlotMap<K, U>, mut f: impl FnMut(&mut T) -> U) {
        out.slots.clear();
        out.slots.extend(self.slots.iter_mut().map(|s| Slot {
            generation: s.generation,
            value: s.value.as_mut().map(&mut f),
        }));
        out.live = self.live;
    }

    /// Drops every value and every slot (keeping the memory): a twin's reset, never a map
    /// whose keys were handed out (they would reach the next values).
    pub fn clear_twin(&mut self) {
        self.slots.clear();
        self.live = 0;
    }

    /// Live keys, in slot order.
    pub fn keys(&self) -> impl Iterator<Item = K> + '_ {
        self.iter().map(|(k, _)| k)
    }

    /// Live values, in slot order.
    pub fn values(&self) -> impl Iterator<Item = &T> + '_ {
        self.iter().map(|(_, v)| v)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    crate::slot_key!(
        /// A test key.
        Key
    );

    #[test]
    fn stale_keys_never_reach_the_next_value() {
        let mut m: SlotMap<Key, &str> = SlotMap::default();
        let a = m.insert("a").unwrap();
        let b = m.insert("b").unwrap();
        assert_eq!((a.index, a.generation, b.index), (0, 1, 1));
        assert_eq!(m.remove(a), Some("a"));
        assert_eq!(m.remove(a), None, "double remove");
        let c = m.insert("c").unwrap();
        assert_eq!(
            (c.index, c.generation),
            (0, 2),
            "slot reused with a new generation"
        );
        assert_eq!(m.get(a), None);
        assert_eq!(m.get(c), Some(&"c"));
        assert_eq!(m.get(Key::default()), None, "the null key");
        assert_eq!(m.len(), 2);
        assert_eq!(m.values().copied().collect::<Vec<_>>(), ["c", "b"]);
    }

    #[test]
    fn a_twin_keeps_every_key() {
        let mut m: SlotMap<Key, u32> = SlotMap::default();
        let a = m.insert(1).unwrap();
        let b = m.insert(2).unwrap();
        m.remove(a);
        let c = m.insert(3).unwrap();
        let mut t: SlotMap<Key, u32> = SlotMap::default();
        t.insert(99);
        t.insert(98);
        t.insert(97);
        m.twin_into(&mut t, |v| *v * 10);
        assert_eq!((t.get(a), t.get(b), t.get(c)), (None, Some(&20), Some(&30)));
        assert_eq!((t.len(), t.slot_count()), (2, 2));
    }

    #[test]
    fn generations_skip_zero_on_wrap_around() {
        let mut m: SlotMap<Key, u8> = SlotMap::default();
        let mut k = m.insert(1).unwrap();
        m.slots[0].generation = u32::MAX;
        k.generation = u32::MAX;
        m.remove(k);
        assert_eq!(m.insert(2).unwrap().generation, 1);
    }
}
