//! [`named_enum!`]: a fieldless enum whose every variant has one fixed name, declared once with
//! its list of variants, its name function and its `Display`.

/// Declares a fieldless enum whose variants each have a fixed name (`Variant => "name"`), with
/// `ALL` (every variant, in the order written), a `const fn` giving a variant's name (called as
/// the invocation says, e.g. `fn name;`) and `Display` writing that name. The attributes and doc
/// comments given before the enum, a variant, `ALL` and the `fn` go on those items.
///
/// ```
/// avax_data_core::named_enum! {
///     /// A colour.
///     #[derive(Debug, Clone, Copy, PartialEq, Eq)]
///     pub enum Colour {
///         /// Red.
///         Red => "red",
///         /// Blue.
///         Blue => "blue",
///     }
///     /// Every colour.
///     ALL;
///     /// The colour's name.
///     fn name;
/// }
/// assert_eq!(Colour::Blue.name(), "blue");
/// assert_eq!(Colour::ALL, [Colour::Red, Colour::Blue]);
/// assert_eq!(Colour::Red.to_string(), "red");
/// ```
#[macro_export]
macro_rules! named_enum {
    (
        $(#[$meta:meta])*
        $vis:vis enum $ty:ident {
            $( $(#[$variant_meta:meta])* $variant:ident => $name:literal, )+
        }
        $(#[$all_meta:meta])*
        ALL;
        $(#[$fn_meta:meta])*
        fn $name_fn:ident;
    ) => {
        $(#[$meta])*
        $vis enum $ty {
            $( $(#[$variant_meta])* $variant, )+
        }

        impl $ty {
            $(#[$all_meta])*
            pub const ALL: [$ty; [$($name),+].len()] = [$($ty::$variant),+];

            $(#[$fn_meta])*
            pub const fn $name_fn(self) -> &'static str {
                match self {
                    $($ty::$variant => $name,)+
                }
            }
        }

        impl std::fmt::Display for $ty {
            fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
                f.write_str(self.$name_fn())
            }
        }
    };
}

#[cfg(test)]
mod tests {
    crate::named_enum! {
        /// A colour.
        #[derive(Debug, Clone, Copy, PartialEq, Eq)]
        enum Colour {
            /// Red.
            Red => "red",
            /// Light blue.
            LightBlue => "light blue",
        }
        /// Every colour.
        ALL;
        /// The colour's name.
        fn name;
    }

    #[test]
    fn all_lists_the_variants_in_order_and_each_shows_its_name() {
        assert_eq!(Colour::ALL, [Colour::Red, Colour::LightBlue]);
        assert_eq!(Colour::ALL.map(Colour::name), ["red", "light blue"]);
        assert_eq!(format!("{}, {}", Colour::LightBlue, Colour::Red), "light blue, red");
    }
}
