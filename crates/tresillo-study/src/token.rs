//! Participants' secret tokens: made from the operating system's randomness (the
//! one random choice of the toolkit that is not seeded: a token must be
//! unguessable) and compared in constant time.

use rand::TryRngCore;
use rand::rngs::OsRng;

/// Bytes of randomness in a token (128 bits).
const TOKEN_BYTES: usize = 16;

/// A new token: 32 lowercase hexadecimal digits from the operating system's
/// random source (`getrandom`). Fails only when the OS has no randomness to give.
pub fn new_token() -> Result<String, crate::SetupError> {
    let mut b = [0u8; TOKEN_BYTES];
    OsRng.try_fill_bytes(&mut b).map_err(|e| crate::SetupError::Random(e.to_string()))?;
    Ok(b.iter().map(|x| format!("{x:02x}")).collect())
}

/// The index of the token equal to `given` among `tokens`, compared in constant
/// time: every token is compared in full whatever matches, so the time taken
/// says nothing of how much of a token was right.
pub fn find_token<'a>(tokens: impl IntoIterator<Item = &'a str>, given: &str) -> Option<usize> {
    let mut found = None;
    for (i, t) in tokens.into_iter().enumerate() {
        // Lengths are public (every token the tool makes has the same).
        if constant_time_eq::constant_time_eq(t.as_bytes(), given.as_bytes()) && found.is_none() {
            found = Some(i);
        }
    }
    found
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn tokens_are_hex_of_128_bits_and_differ() {
        let a = new_token().unwrap();
        let b = new_token().unwrap();
        assert_eq!(a.len(), 32);
        assert!(a.chars().all(|c| c.is_ascii_hexdigit()));
        assert_ne!(a, b);
    }

    #[test]
    fn only_the_whole_token_opens() {
        let tokens = ["aaaa0000aaaa0000aaaa0000aaaa0000", "bbbb0000bbbb0000bbbb0000bbbb0000"];
        assert_eq!(find_token(tokens, "bbbb0000bbbb0000bbbb0000bbbb0000"), Some(1));
        assert_eq!(find_token(tokens, "bbbb0000bbbb0000bbbb0000bbbb000"), None);
        assert_eq!(find_token(tokens, "bbbb0000bbbb0000bbbb0000bbbb00001"), None);
        assert_eq!(find_token(tokens, ""), None);
        assert_eq!(find_token(tokens, "BBBB0000BBBB0000BBBB0000BBBB0000"), None);
    }
}
