//! Scoring: the puesta system of RULES.md section 8 (the `Ledger`). Being written.
