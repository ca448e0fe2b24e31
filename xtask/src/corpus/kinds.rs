//! The kinds of generated documents both shapes are made of, as C# templates. A template names its
//! parts with `__TOKEN__`s; `__E__` is where a document may name the query type `Entity`: the shape
//! decides, document by document, whether it names `Entity` there or a type derived from it, so that
//! the number of places that reference `Entity` is what the shape asks for.

use super::fill;

mod templates;

use templates::{
    CACHE, ENTITY, EXTENSIONS, GUARD_REGION, HASH_REGION, METRIC, POLICY, SERVICE, SNAPSHOT, WIDGET, WIDGET_PART2,
};

/// What a document kind can be.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum Kind {
    /// A class derived from an `Entity`-derived item, with overrides: other documents construct it.
    Entity,
    /// A sealed service over `Repository<T>` of one of the project's entities: LINQ, loops, interpolation.
    Service,
    /// An interface, its implementation and a generic method.
    Policy,
    /// An enum and a readonly struct with a switch expression.
    Metric,
    /// A generic class `where T : Entity`, a generic method and a static demo class.
    Cache,
    /// A record (not in the multi-target library: netstandard2.0 has no `IsExternalInit`).
    Snapshot,
    /// A static class of extension methods.
    Extensions,
    /// A partial class split across two files (two documents).
    Widget,
}

/// The names a document uses: its project's and those of the project whose API it calls.
pub(super) struct Scope {
    pub(super) namespace: String,
    /// The `using` lines, each ending with a line feed.
    pub(super) usings: String,
    /// The static helper class whose `Seed(count)` returns `List<item>` and whose extension methods
    /// `score` and `label` apply to any `Entity`.
    pub(super) hub: String,
    pub(super) item: String,
    pub(super) score: String,
    pub(super) label: String,
    /// The document's own project's item: derived from `Entity`, constructors `(int)` and `(int, string)`.
    pub(super) own_item: String,
    /// Whether documents carry per-framework `#if` regions (the multi-target library).
    pub(super) framework_regions: bool,
}

/// One document to write (a widget is two files).
pub(super) struct Document<'a> {
    pub(super) kind: Kind,
    /// The folder's stem of type names (`Order`) and the document's number (`0042`).
    pub(super) stem: &'a str,
    pub(super) number: String,
    /// An entity kind's base class (an item); a service's entity type.
    pub(super) partner: &'a str,
    /// Whether `__E__` is `Entity` in this document.
    pub(super) names_entity: bool,
}

impl Kind {
    /// How many files a document of this kind takes.
    pub(super) fn files(self) -> usize {
        if self == Kind::Widget { 2 } else { 1 }
    }

    /// How many places name `Entity` when a document of this kind does.
    pub(super) fn entity_places(self) -> usize {
        self.templates().iter().map(|template| template.matches("__E__").count()).sum()
    }

    fn templates(self) -> &'static [&'static str] {
        match self {
            Kind::Entity => &[ENTITY],
            Kind::Service => &[SERVICE],
            Kind::Policy => &[POLICY],
            Kind::Metric => &[METRIC],
            Kind::Cache => &[CACHE],
            Kind::Snapshot => &[SNAPSHOT],
            Kind::Extensions => &[EXTENSIONS],
            Kind::Widget => &[WIDGET, WIDGET_PART2],
        }
    }

    /// The main type's name: `Order0042`, `OrderService0043`, ...
    pub(super) fn type_name(self, stem: &str, number: &str) -> String {
        let infix = match self {
            Kind::Entity => "",
            Kind::Service => "Service",
            Kind::Policy => "Policy",
            Kind::Metric => "Metric",
            Kind::Cache => "Cache",
            Kind::Snapshot => "Snapshot",
            Kind::Extensions => "Extensions",
            Kind::Widget => "Widget",
        };
        format!("{stem}{infix}{number}")
    }
}

/// The files of `document` in `scope`: (file name, text).
pub(super) fn render(document: &Document, scope: &Scope) -> Vec<(String, String)> {
    let kind = document.kind;
    let name = kind.type_name(document.stem, &document.number);
    let status = format!("{}Status{}", document.stem, document.number);
    // What `__E__` stands for when the document does not name `Entity`: a type derived from it that
    // every use in the template accepts.
    let derived = match kind {
        Kind::Entity => name.as_str(),
        Kind::Service => document.partner,
        Kind::Widget => scope.own_item.as_str(),
        _ => scope.item.as_str(),
    };
    let entity = if document.names_entity { "Entity" } else { derived };
    let regions = scope.framework_regions;
    let tokens = [
        ("__USINGS__", scope.usings.as_str()),
        ("__NS__", scope.namespace.as_str()),
        ("__TYPE__", name.as_str()),
        ("__E__", entity),
        ("__HUB__", scope.hub.as_str()),
        ("__ITEM__", scope.item.as_str()),
        ("__SCORE__", scope.score.as_str()),
        ("__LABEL__", scope.label.as_str()),
        ("__N__", document.number.as_str()),
        ("__PARTNER__", document.partner),
        ("__STATUS__", status.as_str()),
        ("__HASH__", if regions { HASH_REGION } else { "" }),
        ("__GUARD__", if regions { GUARD_REGION } else { "" }),
    ];
    let files = [format!("{name}.cs"), format!("{name}.Part2.cs")];
    kind.templates().iter().zip(files).map(|(template, file)| (file, fill(template, &tokens))).collect()
}
