//! One table per enum: each variant's C value and text name are written once, in the
//! [`c_enum!`](crate::c_enum) invocation that defines the enum. Everything else is derived from it: the
//! conversion from the C ABI's `i32` (`TryFrom<i32>`), the text form of scenario files
//! (`FromStr`, `Display`, serde), and, through the generator tests of `boids-ffi`, the
//! `BOIDS_*` constants of `include/boids.h` and the C# enums.

/// The facts about an enum that every surface derives from: its name, its C prefix and every
/// variant's C value, text name and C suffix.
pub trait CEnum: Sized + Copy + 'static {
    /// What the enum is, for messages ("separation mode").
    const WHAT: &'static str;
    /// Prefix of its C constants (`BOIDS_SEPARATION_`).
    const C_PREFIX: &'static str;
    /// Name of its C# enum (`SeparationMode`).
    const CS_NAME: &'static str;
    /// One row a variant: (variant, C value, text name, C suffix, C# name, doc line).
    const TABLE: &'static [(
        Self,
        i32,
        &'static str,
        &'static str,
        &'static str,
        &'static str,
    )];

    /// Every variant, in table order.
    fn all() -> Vec<Self> {
        Self::TABLE.iter().map(|r| r.0).collect()
    }
}

/// Defines an enum and its table: see [`CEnum`].
///
/// ```text
/// c_enum! {
///     /// Docs.
///     pub enum Fruit: "fruit", "BOIDS_FRUIT_", "Fruit" {
///         /// An apple.
///         Apple = 0, "apple", "APPLE",
///     }
/// }
/// ```
#[macro_export]
macro_rules! c_enum {
    (
        $(#[$meta:meta])*
        pub enum $name:ident : $what:literal, $prefix:literal, $cs:literal {
            $(
                #[doc = $doc:literal]
                $variant:ident = $value:literal, $text:literal, $suffix:literal,
            )+
        }
    ) => {
        $(#[$meta])*
        #[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
        pub enum $name {
            $(
                #[doc = $doc]
                $variant,
            )+
        }

        impl $crate::table::CEnum for $name {
            const WHAT: &'static str = $what;
            const C_PREFIX: &'static str = $prefix;
            const CS_NAME: &'static str = $cs;
            const TABLE: &'static [(Self, i32, &'static str, &'static str, &'static str, &'static str)] = &[
                $(($name::$variant, $value, $text, $suffix, stringify!($variant), $doc.trim_ascii()),)+
            ];
        }

        impl $name {
            /// The value of this variant in the C ABI.
            pub fn c_value(self) -> i32 {
                match self {
                    $($name::$variant => $value,)+
                }
            }

            /// The name of this variant in scenario files and messages.
            pub fn text(self) -> &'static str {
                match self {
                    $($name::$variant => $text,)+
                }
            }
        }

        impl From<$name> for i32 {
            fn from(v: $name) -> i32 {
                v.c_value()
            }
        }

        impl TryFrom<i32> for $name {
            type Error = String;
            fn try_from(v: i32) -> Result<Self, String> {
                match v {
                    $($value => Ok($name::$variant),)+
                    _ => Err(format!(
                        "must be one of {}, got {v}",
                        [$(concat!(stringify!($value), " (", $text, ")")),+].join(", ")
                    )),
                }
            }
        }

        impl std::str::FromStr for $name {
            type Err = String;
            fn from_str(s: &str) -> Result<Self, String> {
                match s {
                    $($text => Ok($name::$variant),)+
                    _ => Err(format!(
                        "'{s}' is not a {}: one of {}",
                        $what,
                        [$($text),+].join(", ")
                    )),
                }
            }
        }

        impl std::fmt::Display for $name {
            fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
                f.write_str(self.text())
            }
        }

        #[cfg(feature = "serde")]
        impl serde::Serialize for $name {
            fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
                s.serialize_str(self.text())
            }
        }

        #[cfg(feature = "serde")]
        impl<'de> serde::Deserialize<'de> for $name {
            fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
                let s = <std::borrow::Cow<'de, str> as serde::Deserialize>::deserialize(d)?;
                s.parse().map_err(serde::de::Error::custom)
            }
        }
    };
}

#[cfg(test)]
mod tests {
    use crate::table::CEnum;
    use crate::*;

    /// Every table: values unique, names unique and kebab-case, every conversion round-trips.
    fn check<T>()
    where
        T: CEnum + PartialEq + std::fmt::Debug + std::str::FromStr + std::fmt::Display,
        T: TryFrom<i32, Error = String> + Into<i32>,
    {
        let mut values: Vec<i32> = T::TABLE.iter().map(|r| r.1).collect();
        values.sort_unstable();
        values.dedup();
        assert_eq!(
            values.len(),
            T::TABLE.len(),
            "{}: duplicate values",
            T::WHAT
        );
        for &(v, value, text, suffix, _, _) in T::TABLE {
            assert_eq!(T::try_from(value).unwrap(), v);
            assert_eq!(v.into(), value);
            assert_eq!(text.parse::<T>().ok(), Some(v));
            assert_eq!(v.to_string(), text);
            assert!(
                text.chars()
                    .all(|c| c.is_ascii_lowercase() || c.is_ascii_digit() || c == '-')
            );
            assert!(
                suffix
                    .chars()
                    .all(|c| c.is_ascii_uppercase() || c.is_ascii_digit() || c == '_')
            );
        }
        assert!(
            T::try_from(i32::MAX)
                .unwrap_err()
                .contains("must be one of")
        );
        assert!("nonsense".parse::<T>().is_err());
    }

    #[test]
    fn every_table_is_consistent() {
        check::<SeparationMode>();
        check::<AlignmentMode>();
        check::<Combine>();
        check::<Integrator>();
        check::<PlaneLock>();
        check::<IndexKind>();
        check::<ObstacleAvoidance>();
        check::<BoundsKind>();
        check::<ObstacleKind>();
    }
}
