//! A `resources/read` result's contents (`TextResourceContents { uri, mimeType?, text }` or
//! `BlobResourceContents { uri, mimeType?, blob }`), read without copying: the strings borrow
//! from the result.

use super::lenient_str;
use crate::json::Value;
use serde::Deserialize;

/// One item of `contents`; a field that is not a string reads as absent.
#[derive(Debug, Clone, Copy, Default, PartialEq, Deserialize)]
#[serde(default, rename_all = "camelCase")]
pub struct ResourceContents<'a> {
    /// The item's URI.
    #[serde(borrow, deserialize_with = "lenient_str")]
    pub uri: Option<&'a str>,
    /// Its media type.
    #[serde(borrow, deserialize_with = "lenient_str")]
    pub mime_type: Option<&'a str>,
    /// A text item's text.
    #[serde(borrow, deserialize_with = "lenient_str")]
    pub text: Option<&'a str>,
    /// A binary item's bytes, in base64.
    #[serde(borrow, deserialize_with = "lenient_str")]
    pub blob: Option<&'a str>,
}

impl<'a> ResourceContents<'a> {
    /// The items of a result's `contents` that are objects, in order (none when `contents`
    /// is not an array).
    pub fn of(result: &'a Value) -> Option<Vec<ResourceContents<'a>>> {
        let items = super::list::items(result, "contents")?;
        Some(items.iter().filter_map(super::view).collect())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::json::json;

    #[test]
    fn contents_borrow_and_skip_what_is_not_an_item() {
        let r = json!({"contents": [{"uri": "a", "text": "hi", "mimeType": "text/plain"}, 5,
            {"uri": "b", "blob": "AAEC", "text": 3}]});
        let items = ResourceContents::of(&r).unwrap();
        assert_eq!(items.len(), 2);
        assert_eq!(
            (items[0].uri, items[0].text, items[0].mime_type),
            (Some("a"), Some("hi"), Some("text/plain"))
        );
        assert_eq!(
            (items[1].blob, items[1].text),
            (Some("AAEC"), None),
            "a wrong type is absent"
        );
        assert!(ResourceContents::of(&json!({"contents": {}})).is_none());
        assert!(ResourceContents::of(&json!({})).is_none());
    }
}
