//! The host protocol as data: the wire types of `messages.rs`, the error catalog and the requests of `ask.rs`
//! with the answer each expects, read with syn.

use anyhow::{Context, Result, bail};
use syn::parse::{ParseStream, Parser};
use syn::{Attribute, Fields, GenericArgument, PathArguments, Token};

/// Everything the generator writes, in the order the Rust source declares it.
pub struct Protocol {
    pub version: u32,
    pub types: Vec<Type>,
}

/// One request of `ask.rs`'s `asks!` table: `name: Request(Input) => Response(Output);`.
pub struct Operation {
    pub request: String,
    pub input: Ty,
    pub response: String,
    pub output: Ty,
}

pub struct Type {
    pub name: String,
    pub docs: Vec<String>,
    pub shape: Shape,
}

pub enum Shape {
    Record(Vec<Field>),
    /// `struct Name(T)`: a value type on the C# side.
    Newtype(Ty),
    Union(Vec<Variant>),
    /// An enum whose variants carry nothing: a C# `enum`.
    Enum(Vec<Constant>),
}

pub struct Field {
    pub name: String,
    pub docs: Vec<String>,
    pub ty: Ty,
}

pub struct Variant {
    pub name: String,
    pub docs: Vec<String>,
    pub payload: Option<Ty>,
}

pub struct Constant {
    pub name: String,
    pub docs: Vec<String>,
}

#[derive(Clone, PartialEq)]
pub enum Ty {
    U32,
    U64,
    Bool,
    String,
    Vec(Box<Ty>),
    Option(Box<Ty>),
    Named(String),
}

impl Protocol {
    /// Reads the message types and appends the catalog's `ErrorCode`, which `HostError` carries.
    pub fn read(messages: &str, catalog: &str) -> Result<Self> {
        let file = syn::parse_file(messages).context("parsing messages.rs")?;
        let mut version = None;
        let mut types = Vec::new();
        for item in &file.items {
            match item {
                syn::Item::Const(c) if c.ident == "PROTOCOL_VERSION" => version = Some(int_literal(&c.expr)?),
                syn::Item::Struct(s) if is_wire_type(&s.attrs) => types.push(record(s)?),
                syn::Item::Enum(e) if is_wire_type(&e.attrs) => types.push(union_or_enum(e)?),
                _ => {}
            }
        }
        types.push(error_codes(catalog)?);
        let protocol = Self { version: version.context("messages.rs has no PROTOCOL_VERSION")?, types };
        protocol.check_names()?;
        Ok(protocol)
    }

    pub fn get(&self, name: &str) -> Option<&Type> {
        self.types.iter().find(|t| t.name == name)
    }

    /// Whether the C# type is a struct (so that an option of it is `Nullable<T>`).
    pub fn is_value_type(&self, ty: &Ty) -> bool {
        match ty {
            Ty::U32 | Ty::U64 | Ty::Bool => true,
            Ty::Named(name) => self.get(name).is_some_and(|t| matches!(t.shape, Shape::Newtype(_) | Shape::Enum(_))),
            Ty::String | Ty::Vec(_) | Ty::Option(_) => false,
        }
    }

    /// Each request of the table is a `RequestBody` variant carrying its input, answered by a `ResponseBody`
    /// variant carrying its output, and every request is in the table once.
    pub fn check_operations(&self, operations: &[Operation]) -> Result<()> {
        let variants = |union: &str| match self.get(union).map(|t| &t.shape) {
            Some(Shape::Union(variants)) => Ok(variants),
            _ => bail!("messages.rs has no {union} union"),
        };
        let carries = |union: &str, name: &str, ty: &Ty| -> Result<()> {
            match variants(union)?.iter().find(|v| v.name == name) {
                Some(v) if v.payload.as_ref() == Some(ty) => Ok(()),
                Some(_) => bail!("{union}::{name} carries another type than ask.rs says"),
                None => bail!("ask.rs names {union}::{name}, which messages.rs does not declare"),
            }
        };
        for operation in operations {
            carries("RequestBody", &operation.request, &operation.input)?;
            carries("ResponseBody", &operation.response, &operation.output)?;
        }
        for request in variants("RequestBody")? {
            let asked = operations.iter().filter(|o| o.request == request.name).count();
            if asked != 1 {
                bail!("ask.rs names RequestBody::{} {asked} times: once is right", request.name);
            }
        }
        Ok(())
    }

    fn check_names(&self) -> Result<()> {
        for t in &self.types {
            let mut named = Vec::new();
            match &t.shape {
                Shape::Record(fields) => named.extend(fields.iter().map(|f| &f.ty)),
                Shape::Newtype(ty) => named.push(ty),
                Shape::Union(variants) => named.extend(variants.iter().filter_map(|v| v.payload.as_ref())),
                Shape::Enum(_) => {}
            }
            for ty in named {
                if let Some(missing) = ty.names().into_iter().find(|n| self.get(n).is_none()) {
                    bail!("{} uses {missing}, which is not a wire type", t.name);
                }
            }
        }
        Ok(())
    }
}

impl Ty {
    fn names(&self) -> Vec<&str> {
        match self {
            Ty::Named(name) => vec![name],
            Ty::Vec(inner) | Ty::Option(inner) => inner.names(),
            _ => vec![],
        }
    }
}

fn is_wire_type(attrs: &[Attribute]) -> bool {
    attrs.iter().any(|a| {
        a.path().is_ident("derive")
            && a.parse_args_with(syn::punctuated::Punctuated::<syn::Path, Token![,]>::parse_terminated)
                .is_ok_and(|paths| paths.iter().any(|p| p.segments.last().is_some_and(|s| s.ident == "Encode")))
    })
}

fn docs(attrs: &[Attribute]) -> Vec<String> {
    attrs
        .iter()
        .filter_map(|a| match &a.meta {
            syn::Meta::NameValue(nv) if nv.path.is_ident("doc") => match &nv.value {
                syn::Expr::Lit(syn::ExprLit { lit: syn::Lit::Str(s), .. }) => Some(s.value().trim().to_owned()),
                _ => None,
            },
            _ => None,
        })
        .collect()
}

fn record(s: &syn::ItemStruct) -> Result<Type> {
    let shape = match &s.fields {
        Fields::Named(named) => Shape::Record(
            named
                .named
                .iter()
                .map(|f| {
                    let name = f.ident.as_ref().map(ToString::to_string).unwrap_or_default();
                    Ok(Field { name, docs: docs(&f.attrs), ty: ty(&f.ty)? })
                })
                .collect::<Result<_>>()?,
        ),
        Fields::Unnamed(unnamed) if unnamed.unnamed.len() == 1 => Shape::Newtype(ty(&unnamed.unnamed[0].ty)?),
        _ => bail!("{}: only structs with named fields or one unnamed field cross the wire", s.ident),
    };
    Ok(Type { name: s.ident.to_string(), docs: docs(&s.attrs), shape })
}

fn union_or_enum(e: &syn::ItemEnum) -> Result<Type> {
    let mut variants = Vec::new();
    for v in &e.variants {
        let payload = match &v.fields {
            Fields::Unit => None,
            Fields::Unnamed(f) if f.unnamed.len() == 1 => Some(ty(&f.unnamed[0].ty)?),
            _ => bail!("{}::{}: a variant carries nothing or one value", e.ident, v.ident),
        };
        variants.push(Variant { name: v.ident.to_string(), docs: docs(&v.attrs), payload });
    }
    let shape = if variants.iter().all(|v| v.payload.is_none()) {
        Shape::Enum(variants.into_iter().map(|v| Constant { name: v.name, docs: v.docs }).collect())
    } else {
        Shape::Union(variants)
    };
    Ok(Type { name: e.ident.to_string(), docs: docs(&e.attrs), shape })
}

fn ty(t: &syn::Type) -> Result<Ty> {
    let syn::Type::Path(path) = t else { bail!("unsupported wire type") };
    let last = path.path.segments.last().context("empty type path")?;
    let name = last.ident.to_string();
    let argument = || -> Result<Ty> {
        match &last.arguments {
            PathArguments::AngleBracketed(args) => match args.args.first() {
                Some(GenericArgument::Type(inner)) => ty(inner),
                _ => bail!("{name} needs a type argument"),
            },
            _ => bail!("{name} needs a type argument"),
        }
    };
    Ok(match name.as_str() {
        "u32" => Ty::U32,
        "u64" => Ty::U64,
        "bool" => Ty::Bool,
        "String" => Ty::String,
        "Vec" => Ty::Vec(Box::new(argument()?)),
        "Option" => Ty::Option(Box::new(argument()?)),
        // bincode encodes a box as its content.
        "Box" => argument()?,
        "u8" | "u16" | "u128" | "usize" | "i8" | "i16" | "i32" | "i64" | "i128" | "isize" | "f32" | "f64" | "char" => {
            bail!("{name} has no codec on the C# side yet")
        }
        _ => Ty::Named(name),
    })
}

/// The `asks!` table of `ask.rs`, in its order.
pub fn operations(asks: &str) -> Result<Vec<Operation>> {
    let file = syn::parse_file(asks).context("parsing ask.rs")?;
    let table = file
        .items
        .iter()
        .find_map(|item| match item {
            syn::Item::Macro(m) if m.mac.path.is_ident("asks") => Some(&m.mac),
            _ => None,
        })
        .context("ask.rs has no asks! table")?;
    (|input: ParseStream| {
        let variant = |input: ParseStream| -> syn::Result<(String, syn::Type)> {
            let name: syn::Ident = input.parse()?;
            let inner;
            syn::parenthesized!(inner in input);
            Ok((name.to_string(), inner.parse()?))
        };
        let mut operations = Vec::new();
        while !input.is_empty() {
            input.parse::<syn::Ident>()?;
            input.parse::<Token![:]>()?;
            let (request, input_type) = variant(input)?;
            input.parse::<Token![=>]>()?;
            let (response, output_type) = variant(input)?;
            input.parse::<Token![;]>()?;
            let wire = |t: &syn::Type| ty(t).map_err(|e| syn::Error::new(input.span(), format!("{request}: {e}")));
            operations.push(Operation { input: wire(&input_type)?, output: wire(&output_type)?, request, response });
        }
        Ok(operations)
    })
    .parse2(table.tokens.clone())
    .context("reading the asks! table")
}

fn int_literal(expr: &syn::Expr) -> Result<u32> {
    match expr {
        syn::Expr::Lit(syn::ExprLit { lit: syn::Lit::Int(i), .. }) => Ok(i.base10_parse()?),
        _ => bail!("PROTOCOL_VERSION is not an integer literal"),
    }
}

/// The `catalog! { NAME = number: "summary", ... }` invocation of `error.rs`, in declaration order (which is the
/// variant index on the wire).
fn error_codes(catalog: &str) -> Result<Type> {
    let file = syn::parse_file(catalog).context("parsing error.rs")?;
    let invocation = file
        .items
        .iter()
        .find_map(|item| match item {
            syn::Item::Macro(m) if m.mac.path.is_ident("catalog") => Some(&m.mac),
            _ => None,
        })
        .context("error.rs has no catalog! invocation")?;
    let entries = (|input: ParseStream| {
        let mut entries = Vec::new();
        while !input.is_empty() {
            let name: syn::Ident = input.parse()?;
            input.parse::<Token![=]>()?;
            let number: syn::LitInt = input.parse()?;
            input.parse::<Token![:]>()?;
            let summary: syn::LitStr = input.parse()?;
            input.parse::<Token![,]>()?;
            entries.push(Constant { name: name.to_string(), docs: vec![format!("{} ({number}).", summary.value())] });
        }
        Ok(entries)
    })
    .parse2(invocation.tokens.clone())
    .context("reading the catalog")?;
    Ok(Type {
        name: "ErrorCode".into(),
        docs: vec!["A catalog code of `crates/protocol/src/error.rs`.".into()],
        shape: Shape::Enum(entries),
    })
}
