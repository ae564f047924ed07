//! JSON Pointers (RFC 6901), as issues name the member they are about.

use serde_json::Value;

/// `base` extended by the member `token`: `~` becomes `~0`, `/` becomes `~1`.
pub fn pointer(base: &str, token: &str) -> String {
    let mut s = String::with_capacity(base.len() + token.len() + 1);
    s.push_str(base);
    s.push('/');
    for c in token.chars() {
        match c {
            '~' => s.push_str("~0"),
            '/' => s.push_str("~1"),
            c => s.push(c),
        }
    }
    s
}

/// `base` extended by an array index.
pub fn pointer_index(base: &str, index: usize) -> String {
    format!("{base}/{index}")
}

/// What `path` points at in `value`, as `Value::pointer` answers, without it (its two
/// `str::replace` per token link a substring replacer no other code needs): `~1` then `~0`
/// unescaped as it does.
pub fn resolve<'v>(value: &'v Value, path: &str) -> Option<&'v Value> {
    let Some(rest) = path.strip_prefix('/') else {
        return path.is_empty().then_some(value);
    };
    let mut target = value;
    for raw in rest.split('/') {
        let token = unescape(raw);
        target = match target {
            Value::Object(map) => map.get(&token)?,
            // serde_json's array index: digits, no sign, no leading zero.
            Value::Array(list)
                if !(token.starts_with('+') || token.starts_with('0') && token.len() != 1) =>
            {
                token.parse::<usize>().ok().and_then(|i| list.get(i))?
            }
            _ => return None,
        };
    }
    Some(target)
}

/// A pointer token unescaped: `~1` is `/`, then `~0` is `~` (so `~01` is `~1`).
pub fn unescape(token: &str) -> String {
    replace_code(&replace_code(token, '1', "/"), '0', "~")
}

/// `s` with every `~` + `code` (left to right, not overlapping) replaced by `with`.
fn replace_code(s: &str, code: char, with: &str) -> String {
    let mut out = String::with_capacity(s.len());
    let mut chars = s.chars().peekable();
    while let Some(c) = chars.next() {
        if c == '~' && chars.peek() == Some(&code) {
            chars.next();
            out.push_str(with);
        } else {
            out.push(c);
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn escapes_tilde_and_slash() {
        assert_eq!(pointer("/result", "a/b~c"), "/result/a~1b~0c");
        assert_eq!(pointer("", "x"), "/x");
        assert_eq!(pointer_index("/tasks", 3), "/tasks/3");
    }
}
