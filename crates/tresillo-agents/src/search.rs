//! The search agents and their solvers: the exact solvers (`solver` for the
//! Spanish three-player classes, `gsolver` for every goal and table), PIMC
//! (`pimc`, and `gpimc` for the general rule sets) and ISMCTS (`ismcts`).

pub mod exchange;
pub mod gpimc;
pub mod gsolver;
pub mod ismcts;
pub mod pimc;
pub mod solver;
