//! Text from outside made safe to print: a token quoted in an error, a bot's
//! self-declared name. Control characters (newlines, escape sequences that
//! recolour a terminal or forge an `error:` line) are shown escaped, as Rust's
//! `escape_debug` writes them; everything else is kept as it is.

use std::borrow::Cow;

/// `s` with every control character escaped (`\n`, `\u{1b}`): one line, and
/// nothing a terminal acts on. Borrowed when there is nothing to escape.
#[must_use]
pub fn printable(s: &str) -> Cow<'_, str> {
    if !s.chars().any(char::is_control) {
        return Cow::Borrowed(s);
    }
    let mut out = String::with_capacity(s.len() + 8);
    for c in s.chars() {
        if c.is_control() {
            out.extend(c.escape_debug());
        } else {
            out.push(c);
        }
    }
    Cow::Owned(out)
}

#[cfg(test)]
mod tests {
    use super::printable;

    #[test]
    fn control_characters_are_escaped_and_nothing_else() {
        assert_eq!(printable("rule:entrada=45 é ♥"), "rule:entrada=45 é ♥");
        assert_eq!(printable("bot\nerror: forged"), "bot\\nerror: forged");
        assert_eq!(printable("\u{1b}[31mred\u{7}"), "\\u{1b}[31mred\\u{7}");
        assert!(!printable("a\r\nb\t").contains(['\n', '\r', '\t']));
    }
}
