//! The search agents and their solvers: the exact solvers (`solver` for the
//! Spanish three-player classes, `gsolver` for every goal and table), PIMC
//! (`pimc`, and `gpimc` for the general rule sets) and ISMCTS (`ismcts`).
//! Alpha-mu and pimc's searched exchange, measured and not better, are in
//! [`research`](crate::research).

pub mod gpimc;
pub mod gsolver;
pub mod ismcts;
pub mod pimc;
pub mod solver;
