//! JSON Pointers (RFC 6901), as issues name the member they are about.

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
