//! A streaming read of the runners' XML reports in bounded memory: text is passed over in chunks and only the
//! start a caller asks for is kept, one tag (its attributes) may take at most `MARKUP_LIMIT` bytes, and elements
//! nest at most `DEPTH_LIMIT` deep (each open one is remembered until it closes).

use quick_xml::events::{BytesStart, Event};
use std::io::{BufRead, Read};

/// The most one tag may take: a test's name with its arguments is far less.
const MARKUP_LIMIT: usize = 1024 * 1024;
/// The deepest elements may nest: a TRX nests about ten deep.
const DEPTH_LIMIT: usize = 256;

#[derive(Debug)]
pub enum Error {
    Xml(quick_xml::Error),
    Io(std::io::Error),
    /// A tag longer than `MARKUP_LIMIT`.
    TooLong,
    /// Elements nested deeper than `DEPTH_LIMIT`.
    TooDeep,
}

impl std::fmt::Display for Error {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Error::Xml(e) => write!(f, "{e}"),
            Error::Io(e) => write!(f, "{e}"),
            Error::TooLong => write!(f, "a tag of the report is longer than {MARKUP_LIMIT} bytes"),
            Error::TooDeep => write!(f, "the report's elements nest deeper than {DEPTH_LIMIT}"),
        }
    }
}

impl std::error::Error for Error {}

impl From<std::io::Error> for Error {
    fn from(e: std::io::Error) -> Self {
        Error::Io(e)
    }
}

/// An element as it opens, with its attributes' values unescaped.
pub struct Element {
    pub name: String,
    attributes: Vec<(String, String)>,
}

impl Element {
    pub fn attribute(&self, name: &str) -> Option<&str> {
        self.attributes.iter().find(|(n, _)| n == name).map(|(_, v)| v.as_str())
    }
}

pub enum Node {
    Open(Element),
    /// The element named closed (an empty one right after it opened).
    Close(String),
}

/// The start of an element's text: at most the bytes asked for, at a character and entity boundary.
pub struct Text {
    pub kept: String,
    /// The text's bytes as the report wrote them (escaped), all of them.
    pub total: u64,
    /// Bytes were left out past `kept`.
    pub cut: bool,
}

/// The elements of a document, opened and closed in order; text is read only on request (`text`), right
/// after the element opens, and passed over otherwise.
pub struct Events<R: BufRead> {
    reader: quick_xml::Reader<Bounded<R>>,
    buf: Vec<u8>,
    /// An empty element (`<a/>`) opened: it closes next and has no text.
    empty: Option<String>,
    depth: usize,
}

impl<R: BufRead> Events<R> {
    pub fn new(mut source: R) -> Result<Self, Error> {
        // The byte-order mark is passed here: quick-xml would read it only as its first event, after the text
        // before it (which this reader passes over itself).
        if source.fill_buf()?.starts_with(b"\xEF\xBB\xBF") {
            source.consume(3);
        }
        let reader = quick_xml::Reader::from_reader(Bounded { inner: source, left: usize::MAX });
        Ok(Self { reader, buf: Vec::new(), empty: None, depth: 0 })
    }

    pub fn next(&mut self) -> Result<Option<Node>, Error> {
        if let Some(name) = self.empty.take() {
            self.depth = self.depth.saturating_sub(1);
            return Ok(Some(Node::Close(name)));
        }
        loop {
            self.text(0)?;
            self.buf.clear();
            self.reader.get_mut().left = MARKUP_LIMIT;
            let event = self.reader.read_event_into(&mut self.buf);
            let limited = self.reader.get_mut().left == 0;
            self.reader.get_mut().left = usize::MAX;
            let event = match event {
                Err(_) if limited => return Err(Error::TooLong),
                Err(e) => return Err(Error::Xml(e)),
                Ok(event) => event,
            };
            let opened = match event {
                Event::Start(tag) => element(&tag)?,
                Event::Empty(tag) => {
                    let element = element(&tag)?;
                    self.empty = Some(element.name.clone());
                    element
                }
                Event::End(tag) => {
                    self.depth = self.depth.saturating_sub(1);
                    return Ok(Some(Node::Close(local_name(tag.local_name().as_ref()))));
                }
                Event::Eof => return Ok(None),
                _ => continue,
            };
            self.depth += 1;
            if self.depth > DEPTH_LIMIT {
                return Err(Error::TooDeep);
            }
            return Ok(Some(Node::Open(opened)));
        }
    }

    /// The text up to the next tag, its first `limit` bytes kept: read in the reader's chunks, never whole.
    pub fn text(&mut self, limit: usize) -> Result<Text, Error> {
        let mut kept = Vec::new();
        let mut total = 0u64;
        if self.empty.is_none() {
            let mut stream = self.reader.stream();
            loop {
                let available = stream.fill_buf()?;
                if available.is_empty() {
                    break;
                }
                let end = available.iter().position(|&b| b == b'<');
                let run = &available[..end.unwrap_or(available.len())];
                kept.extend_from_slice(&run[..run.len().min(limit - kept.len())]);
                let used = run.len();
                total += used as u64;
                stream.consume(used);
                if end.is_some() {
                    break;
                }
            }
        }
        let cut = total > kept.len() as u64;
        Ok(Text { kept: decode(kept, cut), total, cut })
    }
}

fn element(tag: &BytesStart) -> Result<Element, Error> {
    let mut attributes = Vec::new();
    for attribute in tag.attributes() {
        let attribute = attribute.map_err(|e| Error::Xml(e.into()))?;
        let value = attribute.unescape_value().map_err(Error::Xml)?;
        attributes.push((local_name(attribute.key.local_name().as_ref()), value.into_owned()));
    }
    Ok(Element { name: local_name(tag.local_name().as_ref()), attributes })
}

fn local_name(name: &[u8]) -> String {
    String::from_utf8_lossy(name).into_owned()
}

/// Escaped text as it reads: a cut may fall inside a character or an entity, which are then left out whole.
fn decode(mut raw: Vec<u8>, cut: bool) -> String {
    if cut {
        if let Some(amp) = raw.iter().rposition(|&b| b == b'&')
            && !raw[amp..].contains(&b';')
        {
            raw.truncate(amp);
        }
        if let Err(e) = std::str::from_utf8(&raw)
            && e.error_len().is_none()
        {
            raw.truncate(e.valid_up_to());
        }
    }
    let text = String::from_utf8_lossy(&raw);
    // A lone `&` (not XML, but a runner may write it) keeps the text as written.
    quick_xml::escape::unescape(&text).map_or_else(|_| text.to_string(), |t| t.into_owned())
}

/// The source as quick-xml sees it: at most `left` more bytes, so that one tag it reads whole stays bounded.
struct Bounded<R> {
    inner: R,
    left: usize,
}

impl<R: BufRead> Read for Bounded<R> {
    fn read(&mut self, out: &mut [u8]) -> std::io::Result<usize> {
        let available = self.fill_buf()?;
        let n = available.len().min(out.len());
        out[..n].copy_from_slice(&available[..n]);
        self.consume(n);
        Ok(n)
    }
}

impl<R: BufRead> BufRead for Bounded<R> {
    fn fill_buf(&mut self) -> std::io::Result<&[u8]> {
        let available = self.inner.fill_buf()?;
        Ok(&available[..available.len().min(self.left)])
    }

    fn consume(&mut self, amount: usize) {
        self.left = self.left.saturating_sub(amount);
        self.inner.consume(amount);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn read_all(xml: &[u8], limit: usize) -> Result<Vec<String>, Error> {
        let mut events = Events::new(xml)?;
        let mut seen = Vec::new();
        while let Some(node) = events.next()? {
            match node {
                Node::Open(element) if element.name == "m" => {
                    let text = events.text(limit)?;
                    seen.push(format!("m[{}|{}|{}]", text.kept, text.total, text.cut));
                }
                Node::Open(element) => seen.push(format!("{}{:?}", element.name, element.attribute("a"))),
                Node::Close(name) => seen.push(format!("/{name}")),
            }
        }
        Ok(seen)
    }

    #[test]
    fn text_is_kept_to_its_limit_at_a_character_and_entity_boundary() {
        let xml =
            "\u{feff}<?xml version=\"1.0\"?><r xmlns=\"x\"><m>ab&amp;é</m><m/><s a=\"1&lt;2\"/><m>ab&amp;cd</m></r>";
        assert_eq!(
            read_all(xml.as_bytes(), 4).expect("reads"),
            ["rNone", "m[ab|9|true]", "/m", "m[|0|false]", "/m", "sSome(\"1<2\")", "/s", "m[ab|9|true]", "/m", "/r"]
        );
        // Cut inside `é` (two bytes), after the entity.
        assert_eq!(read_all("<r><m>ab&amp;é</m></r>".as_bytes(), 8).expect("reads")[1], "m[ab&|9|true]");
        assert_eq!(read_all("<r><m>ab&amp;é</m></r>".as_bytes(), 9).expect("reads")[1], "m[ab&é|9|false]");
    }

    #[test]
    fn a_tag_past_the_limit_or_nesting_past_it_is_refused_and_text_of_any_length_is_not() {
        let long = "x".repeat(MARKUP_LIMIT + 1);
        let tag = format!("<r><s a=\"{long}\"/></r>");
        assert!(matches!(read_all(tag.as_bytes(), 0), Err(Error::TooLong)));
        let nested = |depth: usize| format!("{}{}", "<a>".repeat(depth), "</a>".repeat(depth));
        assert_eq!(read_all(nested(DEPTH_LIMIT).as_bytes(), 0).expect("reads").len(), 2 * DEPTH_LIMIT);
        assert!(matches!(read_all(nested(DEPTH_LIMIT + 1).as_bytes(), 0), Err(Error::TooDeep)));
        let text = format!("<r><m>{long}</m>{long}</r>");
        assert_eq!(read_all(text.as_bytes(), 2).expect("reads")[1], format!("m[xx|{}|true]", MARKUP_LIMIT + 1));
    }
}
