//! The search agents and their solvers: the exact solvers (`solver` for the
//! Spanish three-player classes, `gsolver` for every goal and table), PIMC
//! (`pimc`, and `gpimc` for the general rule sets), ISMCTS (`ismcts`) and
//! alpha-mu (`alphamu`, PIMC without strategy fusion in this seat's own cards).

pub mod alphamu;
pub mod exchange;
pub mod gpimc;
pub mod gsolver;
pub mod ismcts;
pub mod pimc;
pub mod solver;
