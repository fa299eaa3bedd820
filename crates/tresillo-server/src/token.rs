//! Game tokens: 128 bits from the operating system's randomness, written as 32
//! lowercase hex digits. A token is the game's secret (its URL) and its file
//! name; a request's token is checked against that exact form before it is used
//! for anything, so no request text reaches the file system.

use std::fmt;

/// A game's secret token (unguessable: 128 bits from the OS).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Token([u8; 16]);

impl Token {
    /// A fresh token from the operating system's randomness.
    ///
    /// # Errors
    /// When the OS has no randomness to give (never on the supported systems).
    pub fn random() -> Result<Token, getrandom::Error> {
        let mut b = [0u8; 16];
        getrandom::fill(&mut b)?;
        Ok(Token(b))
    }

    /// The token `s` writes: exactly 32 lowercase hex digits, or `None`.
    #[must_use]
    pub fn parse(s: &str) -> Option<Token> {
        let s = s.as_bytes();
        if s.len() != 32 {
            return None;
        }
        let mut b = [0u8; 16];
        for (i, pair) in s.chunks(2).enumerate() {
            let hex = |c: u8| match c {
                b'0'..=b'9' => Some(c - b'0'),
                b'a'..=b'f' => Some(c - b'a' + 10),
                _ => None,
            };
            b[i] = (hex(pair[0])? << 4) | hex(pair[1])?;
        }
        Some(Token(b))
    }
}

impl fmt::Display for Token {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        for x in self.0 {
            write!(f, "{x:02x}")?;
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn tokens_round_trip_and_differ() {
        let a = Token::random().unwrap();
        let b = Token::random().unwrap();
        assert_ne!(a, b);
        assert_eq!(Token::parse(&a.to_string()), Some(a));
        assert_eq!(a.to_string().len(), 32);
    }

    #[test]
    fn only_the_exact_form_parses() {
        let ok = "0123456789abcdef0123456789abcdef";
        assert!(Token::parse(ok).is_some());
        for bad in [
            "",
            "0123456789ABCDEF0123456789abcdef",
            "0123456789abcdef0123456789abcde",
            "0123456789abcdef0123456789abcdef0",
            "../../../../etc/passwd/aaaaaaaaaa",
            "0123456789abcdef0123456789abcdeg",
            "0123456789abcdef0123456789abcd\u{e9}",
        ] {
            assert_eq!(Token::parse(bad), None, "{bad:?}");
        }
    }
}
